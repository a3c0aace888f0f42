/* DCFG (seed section 2): the top level, the id tables, processes, images
 * and their data, and edges, read into struct tl_dcfg_model. */
#include "id_put.h"
#include "dcfg_model.h"
#include "bigalloc.h"
#include "json_row_text.h"
#include "knob.h"

#include <stdlib.h>
#include <string.h>

#define ID_MAX 0x7fffffffull

static const char *const edge_type_names[] = {
	"ENTRY", "EXIT", "BRANCH", "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH", "DIRECT_BRANCH",
	"INDIRECT_BRANCH", "DIRECT_CONDITIONAL_BRANCH", "INDIRECT_CONDITIONAL_BRANCH",
	"DIRECT_UNCONDITIONAL_BRANCH", "INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH",
	"CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN", "CALL_BYPASS", "SYSTEM_CALL",
	"SYSTEM_RETURN", "SYSTEM_CALL_BYPASS", "CONTEXT_CHANGE", "CONTEXT_CHANGE_RETURN",
	"CONTEXT_CHANGE_BYPASS", "EXCLUDED_CODE_BYPASS", "UNKNOWN",
};

/* Edges that cross routine boundaries; all other types stay inside one. */
static const char *const inter_routine_names[] = {
	"CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN", "SYSTEM_CALL", "SYSTEM_RETURN",
	"CONTEXT_CHANGE", "CONTEXT_CHANGE_RETURN", "INTERRUPT", "INTERRUPT_RETURN",
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* An id cell: integer in [lo, hi] (DCFG-ID-RANGE otherwise). */
static bool read_id(struct tl_json_check *v, uint32_t cell, uint64_t lo, uint64_t hi, const char *what, uint64_t *out)
{
	uint64_t x;
	if (!tl_jv_int(v, cell, 0, UINT64_MAX, what, &x))
		return false;
	if (x < lo || x > hi) {
		tl_jv_report(v, RULE_DCFG_ID_RANGE, cell, MSG_DCFG_ID_RANGE_2, what,
			  (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)x, (unsigned long long)x);
		return false;
	}
	*out = x;
	return true;
}

/* Sizes an id map for a table's rows up front. The row count comes from
 * the file, where a row may be 3 bytes of garbage: past 4 M rows the map
 * grows by itself with the rows actually read. */
static void reserve_ids(struct tl_dcfg_idmap *map, uint64_t rows)
{
	if (rows <= (1u << 22))
		tl_dcfg_idmap_reserve(map, (uint32_t)rows);
}

static void read_file_names(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_model *m)
{
	static const struct tl_json_column cols[] = { { "FILE_NAME_ID", true }, { "FILE_NAME", true } };
	struct tl_json_table t;
	uint32_t cell[2];
	if (!tl_dcfg_table_open(v, tbl, cols, 2, "FILE_NAMES", false, &t))
		return;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t id;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		if (read_id(v, cell[0], 1, ID_MAX, "FILE_NAME_ID", &id))
			tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &m->file_names, id, r, cell[0], "FILE_NAME_ID");
		tl_jv_expect(v, cell[1], J_STR, "FILE_NAME");
	}
}

static void read_edge_types(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_model *m)
{
	static const struct tl_json_column cols[] = { { "EDGE_TYPE_ID", true }, { "EDGE_TYPE", true } };
	struct tl_json_table t;
	uint32_t cell[2];
	if (!tl_dcfg_table_open(v, tbl, cols, 2, "EDGE_TYPES", false, &t))
		return;
	m->has_edge_types = true;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t id;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		bool id_ok = read_id(v, cell[0], 1, ID_MAX, "EDGE_TYPE_ID", &id);
		if (!tl_jv_expect(v, cell[1], J_STR, "EDGE_TYPE"))
			continue;
		bool known = false;
		for (size_t k = 0; k < COUNT_OF(edge_type_names) && !known; k++)
			known = tl_json_str_eq(&v->doc, cell[1], edge_type_names[k]);
		if (!known) {
			char q[80];
			tl_jv_report(v, RULE_DCFG_EDGE_TYPE_NAME, cell[1],
				  MSG_DCFG_EDGE_TYPE_NAME,
				  tl_quote(q, sizeof q, jstr(&v->doc, cell[1]), jn(&v->doc, cell[1])->count));
		}
		uint32_t cls = EC_INTRA;
		if (tl_json_str_eq(&v->doc, cell[1], "ENTRY"))
			cls = EC_ENTRY;
		else if (tl_json_str_eq(&v->doc, cell[1], "EXIT"))
			cls = EC_EXIT;
		for (size_t k = 0; k < COUNT_OF(inter_routine_names); k++)
			if (tl_json_str_eq(&v->doc, cell[1], inter_routine_names[k]))
				cls = EC_INTER;
		if (id_ok && tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &m->type_class, id, cls, cell[0], "EDGE_TYPE_ID"))
			tl_dcfg_note_edge_type(v, m, id, jstr(&v->doc, cell[1]), jn(&v->doc, cell[1])->count); /* hook: D38 */
	}
}

static void read_special_nodes(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_model *m)
{
	static const struct tl_json_column cols[] = { { "NODE_ID", true }, { "NODE_NAME", true } };
	struct tl_json_table t;
	uint32_t cell[2];
	struct tl_dcfg_idmap seen = { 0 };
	if (!tl_dcfg_table_open(v, tbl, cols, 2, "SPECIAL_NODES", false, &t))
		return;
	m->has_special_nodes = true;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t id;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		if (!read_id(v, cell[0], 1, ID_MAX, "special NODE_ID", &id) ||
		    !tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &seen, id, r, cell[0], "special NODE_ID"))
			continue;
		if (!tl_jv_expect(v, cell[1], J_STR, "NODE_NAME"))
			continue;
		uint64_t *slot = tl_json_str_eq(&v->doc, cell[1], "START") ? &m->start_id :
				 tl_json_str_eq(&v->doc, cell[1], "END") ? &m->end_id :
				 tl_json_str_eq(&v->doc, cell[1], "UNKNOWN") ? &m->unknown_id : NULL;
		char q[80];
		if (!slot)
			tl_jv_report(v, RULE_DCFG_SPECIAL_NODE_NAME, cell[1], MSG_DCFG_SPECIAL_NODE_NAME,
				  tl_quote(q, sizeof q, jstr(&v->doc, cell[1]), jn(&v->doc, cell[1])->count));
		else if (*slot)
			tl_jv_report(v, RULE_DCFG_SPECIAL_NODE_NAME, cell[1], MSG_DCFG_SPECIAL_NODE_NAME_2,
				  tl_quote(q, sizeof q, jstr(&v->doc, cell[1]), jn(&v->doc, cell[1])->count),
				  (unsigned long long)*slot, (unsigned long long)id);
		else
			*slot = id;
	}
	tl_dcfg_idmap_free(&seen);
}

/* Checks [off, off+size) against an image of image_size bytes. */
static bool inside(uint64_t off, uint64_t size, uint64_t image_size)
{
	uint64_t end;
	return tl_add_u64(off, size, &end) && end <= image_size;
}

/* The value to blame for a range outside its image: the offset when the
 * range starts outside, else the size that carries it past the end. */
static uint32_t outside_cell(uint64_t off, uint64_t image_size, uint32_t off_cell, uint32_t size_cell)
{
	return off >= image_size ? off_cell : size_cell;
}

static void read_symbols(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_image *img)
{
	static const struct tl_json_column cols[] = { { "NAME", true }, { "ADDR_OFFSET", true }, { "SIZE", true } };
	struct tl_json_table t;
	uint32_t cell[3];
	if (!tl_dcfg_table_open(v, tbl, cols, 3, "SYMBOLS", false, &t))
		return;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t off, size;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		tl_jv_expect(v, cell[0], J_STR, "symbol NAME");
		if (tl_jv_int(v, cell[1], 0, UINT64_MAX, "symbol ADDR_OFFSET", &off) &&
		    tl_jv_int(v, cell[2], 0, UINT64_MAX, "symbol SIZE", &size) && !inside(off, size, img->size))
			tl_jv_report(v, RULE_DCFG_RANGE_IN_IMAGE, outside_cell(off, img->size, cell[1], cell[2]),
				  MSG_DCFG_RANGE_IN_IMAGE,
				  (unsigned long long)off, (unsigned long long)size, (unsigned long long)img->id,
				  (unsigned long long)img->size);
	}
}

static void check_file_ref(struct tl_json_check *v, const struct tl_dcfg_model *m, uint32_t cell)
{
	uint64_t id;
	if (tl_jv_int(v, cell, 0, UINT64_MAX, "FILE_NAME_ID", &id) && tl_dcfg_idmap_get(&m->file_names, id) == IDMAP_NONE)
		tl_jv_report(v, RULE_DCFG_FILE_NAME_REF, cell, MSG_DCFG_FILE_NAME_REF,
			  (unsigned long long)id);
}

static void read_source_data(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_model *m, const struct tl_dcfg_image *img)
{
	static const struct tl_json_column cols[] = {
		{ "FILE_NAME_ID", true }, { "LINE_NUM", true }, { "ADDR_OFFSET", true }, { "SIZE", true },
		{ "NUM_INSTRS", true },
	};
	struct tl_json_table t;
	uint32_t cell[5];
	if (!tl_dcfg_table_open(v, tbl, cols, 5, "SOURCE_DATA", false, &t))
		return;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t line, off, size, ni;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		check_file_ref(v, m, cell[0]);
		tl_jv_int(v, cell[1], 0, UINT64_MAX, "LINE_NUM", &line);
		bool off_ok = tl_jv_int(v, cell[2], 0, UINT64_MAX, "source ADDR_OFFSET", &off);
		bool size_ok = tl_jv_int(v, cell[3], 0, UINT64_MAX, "source SIZE", &size);
		if (off_ok && size_ok && !inside(off, size, img->size))
			tl_jv_report(v, RULE_DCFG_RANGE_IN_IMAGE, outside_cell(off, img->size, cell[2], cell[3]),
				  MSG_DCFG_RANGE_IN_IMAGE_2,
				  (unsigned long long)off, (unsigned long long)size, (unsigned long long)img->id,
				  (unsigned long long)img->size);
		if (tl_jv_int(v, cell[4], 0, UINT64_MAX, "source NUM_INSTRS", &ni) && size_ok && (ni < 1 || ni > size))
			tl_jv_report(v, RULE_DCFG_SOURCE_NUM_INSTRS, cell[4],
				  MSG_DCFG_SOURCE_NUM_INSTRS, (unsigned long long)size,
				  (unsigned long long)ni);
	}
}

/* Room for `more` blocks at once: pass 1 counted the table's rows, so one
 * allocation replaces a doubling series (and its copies and page faults). */
static bool reserve_blocks(struct tl_dcfg_process *p, uint64_t more)
{
	uint64_t need = (uint64_t)p->nblocks + more;
	if (need <= p->capblocks)
		return true;
	if (need > UINT32_MAX - 1)
		return false;
	uint64_t cap = (uint64_t)p->capblocks * 2;
	if (cap < need)
		cap = need;
	if (cap > UINT32_MAX - 1)
		cap = UINT32_MAX - 1;
	struct tl_dcfg_block *nb = tl_big_realloc(p->blocks, (size_t)cap * sizeof *nb);
	if (!nb)
		return false;
	p->blocks = nb;
	uint64_t *na = tl_big_realloc(p->block_addr, (size_t)cap * sizeof *na);
	if (!na)
		return false;
	p->block_addr = na;
	p->capblocks = (uint32_t)cap;
	return true;
}

/* 1 <= NUM_INSTRS <= SIZE, NUM_INSTRS-1 <= LAST_INSTR_OFFSET < SIZE, and 0
 * for one instruction: DCFG-BLOCK-GEOMETRY's condition. */
static bool geometry_ok(uint64_t size, uint64_t num_instrs, uint64_t last)
{
	return size >= 1 && num_instrs >= 1 && num_instrs <= size && last < size && last >= num_instrs - 1 &&
	       (num_instrs != 1 || last == 0);
}

/* The fast path of BASIC_BLOCKS: a row written [NODE_ID, ADDR_OFFSET, SIZE,
 * NUM_INSTRS, LAST_INSTR_OFFSET(, COUNT)] in header order, integers plain
 * or "0x" strings, read from its text without a node a value and added as
 * the node path adds it when no rule of the row objects (the node path's
 * conditions for each report, the id entering the id map last). Anything
 * else is left to the node path (false). tests/dcfg/fast_rows_test.sh compares the
 * two (TRACELINT_SLOW_ROWS=1 turns this path off). */
static bool block_from_text(struct tl_json_check *v, const struct tl_dcfg_model *m, struct tl_dcfg_process *p, uint32_t image,
				     uint32_t r)
{
	struct tl_json_doc *d = &v->doc;
	struct tl_json_row_text t;
	uint64_t id, off, size, last;
	struct tl_dcfg_block b = { 0 };
	if (!jrt_open(&t, d, r) || !jrt_int(&t, 1, ID_MAX, &id) || is_special(m, id) || !jrt_byte(&t, ',') ||
	    !jrt_int(&t, 0, UINT64_MAX, &off) || !jrt_byte(&t, ',') || !jrt_int(&t, 0, UINT64_MAX, &size) ||
	    !jrt_byte(&t, ',') || !jrt_int(&t, 0, UINT64_MAX, &b.num_instrs) || !jrt_byte(&t, ',') ||
	    !jrt_int(&t, 0, UINT64_MAX, &last))
		return false;
	if (jrt_next_is(&t, ',')) {
		if (!jrt_int(&t, 0, UINT64_MAX, &b.count))
			return false;
		b.has_count = true;
	}
	if (!jrt_byte(&t, ']') || !geometry_ok(size, b.num_instrs, last) || !inside(off, size, p->images[image].size) ||
	    !tl_dcfg_last_instr_fits(size, last) || tl_dcfg_id_put(v, &p->block_by_id, id, p->nblocks) != IDMAP_NONE)
		return false;
	tl_json_row_text_end(d, t.p);
	b.id = (uint32_t)id;
	b.node = r;
	b.image = image;
	b.geometry_read = true; /* hook: dcfg_blocks.c */
	p->block_addr[p->nblocks] = off;
	p->blocks[p->nblocks++] = b;
	return true;
}

static void read_blocks(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_model *m, struct tl_dcfg_process *p, uint32_t image)
{
	static const struct tl_json_column cols[] = {
		{ "NODE_ID", true }, { "ADDR_OFFSET", true }, { "SIZE", true }, { "NUM_INSTRS", true },
		{ "LAST_INSTR_OFFSET", true }, { "COUNT", false },
	};
	const struct tl_dcfg_image *img = &p->images[image];
	struct tl_json_table t;
	uint32_t cell[6];
	if (!tl_dcfg_table_open(v, tbl, cols, 6, "BASIC_BLOCKS", false, &t))
		return;
	memcpy(p->images[image].block_pos, t.pos, sizeof p->images[image].block_pos);
	reserve_ids(&p->block_by_id, p->nblocks + jn(&v->doc, tbl)->count);
	if (!reserve_blocks(p, jn(&v->doc, tbl)->count)) {
		tl_jv_out_of_memory(v);
		return;
	}
	bool from_text = t.header_len == 6 && !tl_knob("TRACELINT_SLOW_ROWS", 0, 2);
	for (int k = 0; k < 6; k++)
		from_text = from_text && t.pos[k] == k;
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		if (from_text && (r & JPIN) && block_from_text(v, m, p, image, r))
			continue;
		struct tl_dcfg_block b = { 0 };
		uint64_t id = 0, off, size, last;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		b.node = r;
		b.image = image;
		bool id_ok = read_id(v, cell[0], 1, ID_MAX, "basic-block NODE_ID", &id);
		b.id = (uint32_t)id;
		if (id_ok && is_special(m, b.id)) {
			tl_jv_report(v, RULE_DCFG_NODE_SPECIAL, cell[0],
				  MSG_DCFG_NODE_SPECIAL,
				  (unsigned long long)b.id);
			id_ok = false;
		}
		bool ok = tl_jv_int(v, cell[1], 0, UINT64_MAX, "block ADDR_OFFSET", &off);
		ok &= tl_jv_int(v, cell[2], 0, UINT64_MAX, "block SIZE", &size);
		ok &= tl_jv_int(v, cell[3], 0, UINT64_MAX, "block NUM_INSTRS", &b.num_instrs);
		ok &= tl_jv_int(v, cell[4], 0, UINT64_MAX, "LAST_INSTR_OFFSET", &last);
		if (cell[5] != JNONE && tl_jv_int(v, cell[5], 0, UINT64_MAX, "block COUNT", &b.count))
			b.has_count = true;
		if (ok) {
			b.geometry_read = true; /* hook: dcfg_blocks.c */
			/* blamed on the value of the first clause that fails */
			uint32_t bad = size < 1 ? cell[2] : b.num_instrs < 1 || b.num_instrs > size ? cell[3] :
				       last >= size || last < b.num_instrs - 1 || (b.num_instrs == 1 && last != 0) ? cell[4] : JNONE;
			if (bad != JNONE)
				tl_jv_report(v, RULE_DCFG_BLOCK_GEOMETRY, bad,
					  MSG_DCFG_BLOCK_GEOMETRY,
					  (unsigned long long)size, (unsigned long long)b.num_instrs, (unsigned long long)last);
			if (!inside(off, size, img->size))
				tl_jv_report(v, RULE_DCFG_BLOCK_IN_IMAGE, outside_cell(off, img->size, cell[1], cell[2]),
					  MSG_DCFG_BLOCK_IN_IMAGE,
					  (unsigned long long)off, (unsigned long long)size, (unsigned long long)img->id,
					  (unsigned long long)img->size);
		}
		if (!id_ok)
			continue;
		if (!tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &p->block_by_id, b.id, p->nblocks, cell[0],
				       "basic-block NODE_ID in the process"))
			continue;
		if (ok)
			tl_dcfg_check_last_instr(v, &b, cell[4], size, last);
		p->block_addr[p->nblocks] = ok ? off : 0;
		p->blocks[p->nblocks++] = b;
	}
}

static void read_image_data(struct tl_json_check *v, uint32_t obj, const struct tl_dcfg_model *m, struct tl_dcfg_process *p, uint32_t image)
{
	static const char *const keys[] = { "FILE_NAME_ID", "SYMBOLS", "SOURCE_DATA", "BASIC_BLOCKS", "ROUTINES" };
	if (!tl_jv_expect(v, obj, J_OBJ, "IMAGE_DATA"))
		return;
	tl_jv_known_keys(v, obj, keys, COUNT_OF(keys), "IMAGE_DATA");
	uint32_t x;
	if ((x = tl_json_obj_get(&v->doc, obj, "FILE_NAME_ID")) != JNONE)
		check_file_ref(v, m, x);
	if ((x = tl_json_obj_get(&v->doc, obj, "SYMBOLS")) != JNONE)
		read_symbols(v, x, &p->images[image]);
	if ((x = tl_json_obj_get(&v->doc, obj, "SOURCE_DATA")) != JNONE)
		read_source_data(v, x, m, &p->images[image]);
	if ((x = tl_json_obj_get(&v->doc, obj, "BASIC_BLOCKS")) != JNONE)
		read_blocks(v, x, m, p, image);
	p->images[image].routines = tl_json_obj_get(&v->doc, obj, "ROUTINES");
}

static int cmp_load(const void *a, const void *b)
{
	const struct tl_dcfg_image *x = *(const struct tl_dcfg_image *const *)a, *y = *(const struct tl_dcfg_image *const *)b;
	return x->load < y->load ? -1 : x->load > y->load;
}

static void check_overlaps(struct tl_json_check *v, struct tl_dcfg_process *p)
{
	const struct tl_dcfg_image **order = malloc((size_t)p->nimages * sizeof *order + 1);
	if (!order) {
		tl_jv_out_of_memory(v);
		return;
	}
	for (uint32_t i = 0; i < p->nimages; i++)
		order[i] = &p->images[i];
	qsort(order, p->nimages, sizeof *order, cmp_load);
	for (uint32_t i = 1; i < p->nimages; i++) {
		const struct tl_dcfg_image *a = order[i - 1], *b = order[i];
		if (a->size && b->load < a->load + a->size)
			tl_jv_report(v, RULE_DCFG_IMAGE_OVERLAP, b->load_cell,
				  MSG_DCFG_IMAGE_OVERLAP,
				  (unsigned long long)b->id, (unsigned long long)b->load, (unsigned long long)a->id,
				  (unsigned long long)a->load, (unsigned long long)(a->load + a->size));
	}
	free(order);
}

/* The blocks of every image at once (pass 1 counted each BASIC_BLOCKS
 * table): one array and one id map for the process instead of a regrowth
 * per image. A hint only: rows are checked when read. */
static void reserve_all_blocks(struct tl_json_check *v, const struct tl_json_table *t, struct tl_dcfg_process *p)
{
	uint64_t total = 0;
	for (uint32_t r = table_first_row(v, t); r != JNONE; r = jnext(v, r))
		for (uint32_t c = jn(&v->doc, r)->type == J_ARR ? jn(&v->doc, r)->first : JNONE; c != JNONE; c = jnext(v, c)) {
			uint32_t bb = tl_json_obj_get(&v->doc, c, "BASIC_BLOCKS");
			if (bb != JNONE && jn(&v->doc, bb)->type == J_ARR)
				total += jn(&v->doc, bb)->count;
		}
	reserve_ids(&p->block_by_id, total);
	(void)reserve_blocks(p, total);
}

static void read_images(struct tl_json_check *v, uint32_t tbl, const struct tl_dcfg_model *m, struct tl_dcfg_process *p)
{
	static const struct tl_json_column cols[] = {
		{ "IMAGE_ID", true }, { "LOAD_ADDR", true }, { "SIZE", true }, { "IMAGE_DATA", false },
	};
	struct tl_json_table t;
	uint32_t cell[4];
	struct tl_dcfg_idmap ids = { 0 };
	if (!tl_dcfg_table_open(v, tbl, cols, 4, "IMAGES", false, &t))
		return;
	p->images = calloc((size_t)jn(&v->doc, tbl)->count + 1, sizeof *p->images);
	if (!p->images) {
		tl_jv_out_of_memory(v);
		return;
	}
	reserve_all_blocks(v, &t, p);
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		struct tl_dcfg_image img = { 0 };
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		img.node = r;
		img.load_cell = cell[1];
		img.routines = JNONE;
		bool id_ok = read_id(v, cell[0], 0, ID_MAX, "IMAGE_ID", &img.id);
		if (id_ok)
			tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &ids, img.id, r, cell[0], "IMAGE_ID in the process");
		bool ok = tl_jv_int(v, cell[1], 0, UINT64_MAX, "LOAD_ADDR", &img.load);
		ok &= tl_jv_int(v, cell[2], 0, UINT64_MAX, "image SIZE", &img.size);
		if (!ok)
			continue;
		uint64_t end;
		if (!tl_add_u64(img.load, img.size, &end) && end != 0) {
			tl_jv_report(v, RULE_DCFG_IMAGE_RANGE, cell[2], MSG_DCFG_IMAGE_RANGE,
				  (unsigned long long)img.load, (unsigned long long)img.size);
			img.size = 0 - img.load; /* clamp, so its blocks are still read */
		}
		uint32_t k = p->nimages++;
		p->images[k] = img;
		if (cell[3] != JNONE)
			read_image_data(v, cell[3], m, p, k);
	}
	tl_dcfg_idmap_free(&ids);
	check_overlaps(v, p);
}

static void read_thread_counts(struct tl_json_check *v, uint32_t obj, struct tl_dcfg_process *p)
{
	uint32_t arr = tl_json_obj_get(&v->doc, obj, "INSTR_COUNT_PER_THREAD");
	uint32_t edges = tl_json_obj_get(&v->doc, obj, "EDGES");
	if (arr == JNONE) {
		if (edges != JNONE)
			tl_jv_report(v, RULE_DCFG_THREAD_COUNTS, obj,
				  MSG_DCFG_THREAD_COUNTS);
		return;
	}
	if (!tl_jv_expect(v, arr, J_ARR, "INSTR_COUNT_PER_THREAD"))
		return;
	uint32_t n = jn(&v->doc, arr)->count;
	if (n == 0) {
		tl_jv_report(v, RULE_DCFG_THREAD_COUNTS, arr, MSG_DCFG_THREAD_COUNTS_2);
		return;
	}
	p->instr_per_thread = calloc(n, sizeof *p->instr_per_thread);
	if (!p->instr_per_thread) {
		tl_jv_out_of_memory(v);
		return;
	}
	p->nthreads = n;
	p->threads_node = arr;
	p->threads_known = true;
	uint64_t sum = 0;
	bool sum_ok = true, past = false;
	uint32_t t = 0;
	for (uint32_t c = jn(&v->doc, arr)->first; c != JNONE; c = jnext(v, c), t++) {
		if (!tl_jv_int(v, c, 0, UINT64_MAX, "thread instruction count", &p->instr_per_thread[t]))
			sum_ok = false;
		else if (!past) {
			uint64_t next;
			if (tl_add_u64(sum, p->instr_per_thread[t], &next))
				sum = next;
			else {
				/* No INSTR_COUNT can hold the total: reported where it passes 2^64 - 1. */
				tl_jv_report(v, RULE_DCFG_INSTR_COUNT_SUM, c,
					  MSG_DCFG_INSTR_COUNT_SUM,
					  t, (unsigned long long)sum, (unsigned long long)p->instr_per_thread[t]);
				past = true;
			}
		}
	}
	uint32_t total = tl_json_obj_get(&v->doc, obj, "INSTR_COUNT");
	uint64_t x;
	if (total != JNONE && tl_jv_int(v, total, 0, UINT64_MAX, "INSTR_COUNT", &x) && sum_ok && !past && x != sum)
		tl_jv_report(v, RULE_DCFG_INSTR_COUNT_SUM, total,
			  MSG_DCFG_INSTR_COUNT_SUM_2,
			  (unsigned long long)sum, (unsigned long long)x);
}

static void read_process(struct tl_json_check *v, uint32_t obj, struct tl_dcfg_model *m, struct tl_dcfg_process *p)
{
	static const char *const keys[] = { "INSTR_COUNT", "INSTR_COUNT_PER_THREAD", "IMAGES", "EDGES" };
	if (!tl_jv_expect(v, obj, J_OBJ, "PROCESS_DATA"))
		return;
	tl_jv_known_keys(v, obj, keys, COUNT_OF(keys), "PROCESS_DATA");
	uint32_t x = tl_json_obj_get(&v->doc, obj, "INSTR_COUNT");
	uint64_t ic;
	if (x != JNONE && tl_json_obj_get(&v->doc, obj, "INSTR_COUNT_PER_THREAD") == JNONE)
		tl_jv_int(v, x, 0, UINT64_MAX, "INSTR_COUNT", &ic);
	read_thread_counts(v, obj, p);
	if ((x = tl_json_obj_get(&v->doc, obj, "IMAGES")) != JNONE)
		read_images(v, x, m, p);
	tl_dcfg_check_blocks(v, p); /* hook: D18, D20, D24 */
	free(p->block_addr); /* no later rule reads ADDR_OFFSET */
	p->block_addr = NULL;
	if ((x = tl_json_obj_get(&v->doc, obj, "EDGES")) != JNONE) {
		if (jn(&v->doc, x)->type == J_ARR)
			reserve_ids(&p->edge_by_id, jn(&v->doc, x)->count);
		tl_dcfg_read_edges(v, x, m, p);
		/* Edge ids were needed for DCFG-ID-DUPLICATE only, unless a trace is paired. */
		if (m->use == DCFG_VERDICT)
			tl_dcfg_idmap_free(&p->edge_by_id);
	}
	/* Graph and count rules only on a resolved graph: on unresolved ids they would repeat the id errors. */
	if (!p->edges_complete || !m->has_edge_types)
		return;
	tl_dcfg_check_counts(v, m, p);
	if (m->use == DCFG_VERDICT) { /* the count rules are done; a paired trace would compare with them */
		free(p->edge_counts);
		p->edge_counts = NULL;
	}
	tl_dcfg_check_routines(v, p);
}

static void read_processes(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_model *m)
{
	static const struct tl_json_column cols[] = { { "PROCESS_ID", true }, { "PROCESS_DATA", true } };
	struct tl_json_table t;
	uint32_t cell[2];
	if (!tl_dcfg_table_open(v, tbl, cols, 2, "PROCESSES", false, &t))
		return;
	m->procs = calloc((size_t)jn(&v->doc, tbl)->count + 1, sizeof *m->procs);
	if (!m->procs) {
		tl_jv_out_of_memory(v);
		return;
	}
	for (uint32_t r = table_first_row(v, &t); r != JNONE; r = jnext(v, r)) {
		uint64_t pid;
		if (!tl_dcfg_table_row(v, &t, r, cell))
			continue;
		if (!read_id(v, cell[0], 0, UINT32_MAX, "PROCESS_ID", &pid) ||
		    !tl_dcfg_id_unique(v, RULE_DCFG_ID_DUPLICATE, &m->proc_by_pid, pid, m->nprocs, cell[0], "PROCESS_ID"))
			continue;
		struct tl_dcfg_process *p = &m->procs[m->nprocs++];
		p->pid = pid;
		p->node = r;
		read_process(v, cell[1], m, p);
	}
}

static void read_version(struct tl_json_check *v, uint32_t top, enum tl_rule_id missing_rule, uint64_t *major, uint64_t *minor, bool *ok)
{
	uint32_t a = tl_json_obj_get(&v->doc, top, "MAJOR_VERSION"), b = tl_json_obj_get(&v->doc, top, "MINOR_VERSION");
	*ok = false;
	if (a == JNONE || b == JNONE) {
		tl_jv_report(v, missing_rule, top, MSG_DCFG_READ_VERSION,
			  a == JNONE ? "MAJOR_VERSION" : "MINOR_VERSION");
		return;
	}
	bool major_ok = tl_jv_int(v, a, 0, UINT64_MAX, "MAJOR_VERSION", major);
	bool minor_ok = tl_jv_int(v, b, 0, UINT64_MAX, "MINOR_VERSION", minor);
	*ok = major_ok && minor_ok;
}

bool tl_dcfg_check_top(struct tl_json_check *v, enum tl_rule_id missing_rule, enum tl_rule_id version_rule)
{
	if (jn(&v->doc, 0)->type != J_OBJ) {
		tl_jv_report(v, RULE_JSON_TOP_OBJECT, 0, MSG_JSON_TOP_OBJECT,
			  jn(&v->doc, 0)->type == J_ARR ? "an array" : "a scalar");
		return false;
	}
	tl_jv_check_duplicate_keys(v);
	uint64_t major = 0, minor = 0;
	bool ok;
	read_version(v, 0, missing_rule, &major, &minor, &ok);
	if (ok && (major != 1 || minor != 0))
		tl_jv_report(v, version_rule, tl_json_obj_get(&v->doc, 0, major != 1 ? "MAJOR_VERSION" : "MINOR_VERSION"),
			  MSG_DCFG_CHECK_TOP,
			  (unsigned long long)major, (unsigned long long)minor);
	return true;
}

void tl_dcfg_read(struct tl_json_check *v, const uint8_t *data, size_t size, enum tl_dcfg_use use, struct tl_dcfg_model *m)
{
	static const char *const keys[] = {
		"MAJOR_VERSION", "MINOR_VERSION", "FILE_NAMES", "EDGE_TYPES", "SPECIAL_NODES", "PROCESSES",
	};
	/* The big tables are read row by row; their rows are pinned because
	 * blocks and edges are reported on after the table is read. */
	static const struct tl_json_lazy_key lazy[] = {
		{ "BASIC_BLOCKS", true }, { "EDGES", true }, { "ROUTINES", true },
		{ "SYMBOLS", true }, { "SOURCE_DATA", true },
	};
	memset(m, 0, sizeof *m);
	m->use = use;
	if (!tl_jv_parse_known(v, data, size, lazy, COUNT_OF(lazy), keys, COUNT_OF(keys)) || !tl_dcfg_check_top(v, RULE_DCFG_VERSION, RULE_DCFG_VERSION_VALUE))
		return;
	tl_jv_known_keys(v, 0, keys, COUNT_OF(keys), "the DCFG top level");
	uint32_t x;
	if ((x = tl_json_obj_get(&v->doc, 0, "FILE_NAMES")) != JNONE)
		read_file_names(v, x, m);
	if ((x = tl_json_obj_get(&v->doc, 0, "EDGE_TYPES")) != JNONE)
		read_edge_types(v, x, m);
	if ((x = tl_json_obj_get(&v->doc, 0, "SPECIAL_NODES")) != JNONE)
		read_special_nodes(v, x, m);
	if ((x = tl_json_obj_get(&v->doc, 0, "PROCESSES")) != JNONE)
		read_processes(v, x, m);
}

void tl_dcfg_model_free(struct tl_dcfg_model *m)
{
	for (uint32_t i = 0; i < m->nprocs; i++) {
		struct tl_dcfg_process *p = &m->procs[i];
		free(p->instr_per_thread);
		free(p->images);
		free(p->blocks);
		free(p->block_addr);
		tl_dcfg_idmap_free(&p->block_by_id);
		free(p->edges);
		tl_dcfg_idmap_free(&p->edge_by_id);
		free(p->edge_counts);
	}
	free(m->procs);
	tl_dcfg_idmap_free(&m->type_class);
	tl_dcfg_idmap_free(&m->file_names);
	tl_dcfg_idmap_free(&m->proc_by_pid);
	tl_dcfg_idmap_free(&m->type_kind);
	memset(m, 0, sizeof *m);
}
