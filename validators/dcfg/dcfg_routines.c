/* The ROUTINES tables of a process (seed 2.14): membership and coverage,
 * entry and exits, reachability, immediate dominators and loops.
 *
 * Each routine row is read once: its NODES give the membership, and
 * while the row is current its entry, exits, dominators and loops are
 * checked. Only the exit rule (DCFG-ROUTINE-EXITS) needs every routine's
 * membership first (an exit leaves its routine for a block of another
 * one), so it runs at the end of the process and points into the rows it
 * remembered (unlisted exits come by routine, then in block order).
 * Scratch arrays are allocated once per process and routines are numbered
 * across images, so a process of many images costs no more than one image
 * of as many blocks. */
#include "dcfg_graph.h"
#include "grow.h"
#include "radix_sort.h"
#include "bigalloc.h"

#include <stdlib.h>
#include <string.h>

/* A routine row as the deferred exit rule needs it. */
struct routine_ref {
	uint32_t row;          /* ROUTINES row (a stable pin) */
	uint32_t image;
	uint32_t members;      /* blocks it made its own */
	bool checked;          /* entry resolved: exits and nodes were examined */
	bool exits_read;       /* EXIT_NODE_IDS is an array */
};

/* A listed exit of a checked routine that is a node of it. */
struct exit_ref {
	uint32_t blk, routine, index; /* index: position in EXIT_NODE_IDS */
};

/* A NODES row of the current routine that made a block a member. */
struct node_ref {
	uint32_t blk, id_cell, idom_cell;
};

struct routines {
	struct tl_dcfg_graph g;
	struct tl_dcfg_scratch s;
	struct tl_json_table *tables;   /* each image's ROUTINES table, for re-reading rows */
	bool *cover_ok;         /* per image: every block in exactly one routine */
	uint32_t *image_lo, *image_hi; /* each image's run of p->blocks */
	struct routine_ref *refs;
	uint32_t nrefs;
	size_t caprefs;
	struct exit_ref *exits;
	uint32_t nexits;
	size_t capexits;
	struct node_ref *nodes; /* the current routine's */
	uint32_t nnodes;
	size_t capnodes;
	uint32_t local_cap;     /* room in the arrays indexed by position in one routine */
};

static const struct tl_json_column routine_cols[] = {
	{ "ENTRY_NODE_ID", true }, { "EXIT_NODE_IDS", true }, { "NODES", true }, { "LOOPS", false },
};
static const struct tl_json_column node_cols[] = { { "NODE_ID", true }, { "IDOM_NODE_ID", true } };

/* Room for one more element in *array (see tl_grow_array). */
static bool make_room(struct tl_json_check *v, void **array, size_t *cap, size_t n, size_t elem)
{
	void *p = tl_grow_array(*array, cap, n, elem, 64);
	if (p)
		*array = p;
	else
		tl_jv_out_of_memory(v);
	return p != NULL;
}

static bool alloc_state(const struct tl_dcfg_process *p, struct routines *st)
{
	struct tl_dcfg_scratch *s = &st->s;
	size_t n = (size_t)p->nblocks + 1;
	uint32_t **fill[] = { &s->routine_of, &s->rpo_num, &s->idom };
	for (size_t i = 0; i < sizeof fill / sizeof fill[0]; i++)
		if (!(*fill[i] = tl_big_malloc(n * sizeof **fill[i])))
			return false;
	/* s->leaving and s->exit_mark are allocated by none: the deferred exit
	 * rule takes over s->idom and s->rpo_num */
	uint32_t **zero[] = { &s->in_loop };
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (!(*zero[i] = tl_big_calloc(n, sizeof **zero[i])))
			return false;
	st->tables = calloc((size_t)p->nimages + 1, sizeof *st->tables);
	st->cover_ok = calloc((size_t)p->nimages + 1, sizeof *st->cover_ok);
	st->image_lo = calloc((size_t)p->nimages + 1, sizeof *st->image_lo);
	st->image_hi = calloc((size_t)p->nimages + 1, sizeof *st->image_hi);
	if (!st->tables || !st->cover_ok || !st->image_lo || !st->image_hi || !tl_dcfg_graph_build(p, &st->g))
		return false;
	for (size_t i = 0; i < n; i++)
		s->routine_of[i] = s->rpo_num[i] = NO_INDEX;
	/* The reader appends an image's blocks together, images in order. */
	for (uint32_t b = p->nblocks; b-- > 0;) {
		st->image_lo[p->blocks[b].image] = b;
		if (!st->image_hi[p->blocks[b].image])
			st->image_hi[p->blocks[b].image] = b + 1;
	}
	return true;
}

static void free_state(struct routines *st)
{
	struct tl_dcfg_scratch *s = &st->s;
	tl_dcfg_graph_free(&st->g);
	uint32_t *arrays[] = { s->routine_of, s->rpo_num, s->idom, s->order, s->stack, s->iter, s->dpre, s->dpost,
			       s->kids, s->owner, s->in_loop, s->leaving, s->exit_mark, s->listed, s->natural,
			       s->kid_start, st->image_lo, st->image_hi };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		free(arrays[i]);
	free(st->tables);
	free(st->cover_ok);
	free(st->refs);
	free(st->exits);
	free(st->nodes);
}

/* Membership from the NODES of routine r (DCFG-ROUTINE-COVER for a block
 * listed again); the rows that made members go to st->nodes. */
static void read_members(struct tl_json_check *v, const struct tl_dcfg_process *p, struct routines *st, uint32_t image, uint32_t r,
			 uint32_t nodes_tbl)
{
	struct tl_json_table nt;
	uint32_t nc[2];
	st->nnodes = 0;
	if (!tl_dcfg_table_open(v, nodes_tbl, node_cols, 2, "NODES", false, &nt)) {
		st->cover_ok[image] = false;
		return;
	}
	for (uint32_t nr = table_first_row(v, &nt); nr != JNONE; nr = jnext(v, nr)) {
		if (!tl_dcfg_table_row(v, &nt, nr, nc))
			continue;
		uint32_t b = tl_dcfg_image_block(v, p, image, nc[0], "routine NODE_ID");
		if (b == NO_INDEX) {
			st->cover_ok[image] = false;
			continue;
		}
		if (st->s.routine_of[b] != NO_INDEX) {
			tl_jv_report(v, RULE_DCFG_ROUTINE_COVER, nc[0], MSG_DCFG_ROUTINE_COVER,
				  (unsigned long long)p->blocks[b].id);
			st->cover_ok[image] = false;
			if (st->s.routine_of[b] != r)
				continue;
			/* listed twice in this routine: its second IDOM_NODE_ID is checked too */
		} else {
			st->s.routine_of[b] = r;
			st->refs[r].members++;
		}
		if (make_room(v, (void **)&st->nodes, &st->capnodes, st->nnodes, sizeof *st->nodes))
			st->nodes[st->nnodes++] = (struct node_ref){ b, nc[0], nc[1] };
	}
}

/* The listed exits of routine r that are its nodes (DCFG-ROUTINE-NODE for
 * the others), remembered for the deferred exit rule. */
static void read_exits(struct tl_json_check *v, const struct tl_dcfg_process *p, struct routines *st, uint32_t image, uint32_t r,
		       uint32_t exits_cell)
{
	uint32_t index = 0;
	for (uint32_t c = jn(&v->doc, exits_cell)->first; c != JNONE; c = jnext(v, c), index++) {
		uint32_t b = tl_dcfg_image_block(v, p, image, c, "EXIT_NODE_IDS entry");
		if (b == NO_INDEX)
			continue;
		if (st->s.routine_of[b] != r) {
			tl_jv_report(v, RULE_DCFG_ROUTINE_NODE, c, MSG_DCFG_ROUTINE_NODE_2,
				  (unsigned long long)p->blocks[b].id);
			continue;
		}
		if (make_room(v, (void **)&st->exits, &st->capexits, st->nexits, sizeof *st->exits))
			st->exits[st->nexits++] = (struct exit_ref){ b, r, index };
	}
}

/* The scratch arrays indexed by position within one routine (DFS stacks,
 * reverse postorder, dominator-tree children) need only the routine's
 * size: allocated to the largest routine, not to the process. */
static bool routine_room(struct routines *st, uint32_t members)
{
	struct tl_dcfg_scratch *s = &st->s;
	if (members + 1 <= st->local_cap)
		return true;
	uint64_t cap = (uint64_t)st->local_cap * 2 > members + 1u ? (uint64_t)st->local_cap * 2 : members + 1u;
	uint32_t **arrays[] = { &s->stack, &s->iter, &s->order, &s->kids, &s->kid_start, &s->dpre, &s->dpost, &s->owner,
				&s->listed, &s->natural };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
		uint32_t *a = tl_big_realloc(*arrays[i], (size_t)(cap + 1) * sizeof **arrays[i]);
		if (!a)
			return false;
		*arrays[i] = a;
	}
	/* stamp arrays: 0 is no stamp (older stamps never match a new one) */
	memset(s->listed, 0, (size_t)(cap + 1) * sizeof *s->listed);
	memset(s->natural, 0, (size_t)(cap + 1) * sizeof *s->natural);
	st->local_cap = (uint32_t)cap;
	return true;
}

/* Reachability from the entry and each member's IDOM_NODE_ID against the
 * computed immediate dominator (the routine's row is still current). */
static void check_dominators(struct tl_json_check *v, const struct tl_dcfg_process *p, struct routines *st, uint32_t r, uint32_t entry)
{
	struct tl_dcfg_scratch *s = &st->s;
	uint32_t count = tl_dcfg_number_blocks(&st->g, s, entry, r);
	s->count = count;
	tl_dcfg_dominators(&st->g, s, count, r);
	for (uint32_t i = 0; i < st->nnodes; i++) {
		const struct node_ref *nr = &st->nodes[i];
		uint32_t b = nr->blk;
		uint64_t idom;
		if (s->rpo_num[b] == NO_INDEX) {
			tl_jv_report(v, RULE_DCFG_ROUTINE_REACH, nr->id_cell,
				  MSG_DCFG_ROUTINE_REACH,
				  (unsigned long long)p->blocks[b].id, (unsigned long long)p->blocks[entry].id);
			continue;
		}
		if (!tl_jv_int(v, nr->idom_cell, 0, UINT64_MAX, "IDOM_NODE_ID", &idom))
			continue;
		uint64_t want = p->blocks[s->idom[b]].id;
		if (idom != want)
			tl_jv_report(v, RULE_DCFG_IDOM, nr->idom_cell,
				  MSG_DCFG_IDOM,
				  (unsigned long long)p->blocks[b].id, (unsigned long long)want, (unsigned long long)idom);
	}
}

static void check_image(struct tl_json_check *v, const struct tl_dcfg_process *p, struct routines *st, uint32_t image)
{
	struct tl_json_table *t = &st->tables[image];
	uint32_t cell[4];
	st->cover_ok[image] = true;
	if (!tl_dcfg_table_open(v, p->images[image].routines, routine_cols, 4, "ROUTINES", false, t)) {
		st->cover_ok[image] = false;
		return;
	}
	for (uint32_t row = table_first_row(v, t); row != JNONE; row = jnext(v, row)) {
		if (!make_room(v, (void **)&st->refs, &st->caprefs, st->nrefs, sizeof *st->refs))
			return;
		uint32_t r = st->nrefs++;
		struct routine_ref *ref = &st->refs[r];
		*ref = (struct routine_ref){ row, image, 0, false, false };
		if (!tl_dcfg_table_row(v, t, row, cell))
			continue;
		read_members(v, p, st, image, r, cell[2]);
		uint32_t entry = tl_dcfg_image_block(v, p, image, cell[0], "ENTRY_NODE_ID");
		if (entry == NO_INDEX)
			continue;
		if (st->s.routine_of[entry] != r) {
			tl_jv_report(v, RULE_DCFG_ROUTINE_NODE, cell[0], MSG_DCFG_ROUTINE_NODE_3,
				  (unsigned long long)p->blocks[entry].id);
			continue;
		}
		if (!routine_room(st, ref->members)) {
			tl_jv_out_of_memory(v);
			continue;
		}
		ref->checked = true;
		ref->exits_read = tl_jv_expect(v, cell[1], J_ARR, "EXIT_NODE_IDS");
		if (ref->exits_read)
			read_exits(v, p, st, image, r, cell[1]);
		check_dominators(v, p, st, r, entry);
		if (cell[3] != JNONE)
			tl_dcfg_check_loops(v, p, image, &st->g, &st->s, r, cell[3]);
		for (uint32_t i = 0; i < st->s.count; i++)
			st->s.rpo_num[st->s.order[i]] = NO_INDEX;
	}
	for (uint32_t b = st->image_lo[image]; b < st->image_hi[image]; b++)
		if (st->s.routine_of[b] == NO_INDEX) {
			tl_jv_report(v, RULE_DCFG_ROUTINE_COVER, p->blocks[b].node,
				  MSG_DCFG_ROUTINE_COVER_2,
				  (unsigned long long)p->blocks[b].id, (unsigned long long)p->images[image].id);
			st->cover_ok[image] = false;
		}
}

/* For D29: the first edge by which each block leaves its routine (an
 * inter-routine type, or a target outside the routine). */
static void find_leaving_edges(const struct tl_dcfg_process *p, struct tl_dcfg_scratch *s)
{
	for (uint32_t i = 0; i < p->nedges; i++) {
		const struct tl_dcfg_edge *e = &p->edges[i];
		if (!e->usable || e->src_blk == NO_INDEX)
			continue;
		uint32_t r = s->routine_of[e->src_blk];
		if (r == NO_INDEX || s->leaving[e->src_blk])
			continue;
		if (e->cls != EC_INTRA || e->tgt_blk == NO_INDEX || s->routine_of[e->tgt_blk] != r)
			s->leaving[e->src_blk] = i + 1;
	}
}

/* The members that leave their routine without being listed as exits, by
 * routine then block (a file with none, the usual case, allocates
 * nothing). Returns how many; *out is freed by the caller. */
static uint32_t unlisted_exits(struct tl_json_check *v, const struct tl_dcfg_process *p, const struct routines *st, struct tl_keyed **out)
{
	const struct tl_dcfg_scratch *s = &st->s;
	struct tl_keyed *items = NULL;
	size_t cap = 0;
	uint32_t n = 0;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		uint32_t r = s->routine_of[b];
		if (r == NO_INDEX || !s->leaving[b] || s->exit_mark[b] == r + 1 || !st->refs[r].checked ||
		    !st->refs[r].exits_read || !st->cover_ok[st->refs[r].image])
			continue;
		/* two slots an item: the radix sort's scratch is the second half */
		if (!make_room(v, (void **)&items, &cap, 2 * (size_t)n + 1, sizeof *items))
			break;
		items[n++] = (struct tl_keyed){ r, b };
	}
	*out = items;
	return n;
}

/* D29 (DCFG-ROUTINE-EXITS), only in images whose coverage is sound: every
 * listed exit leaves its routine, and every member that leaves is listed. */
static void check_exits(struct tl_json_check *v, const struct tl_dcfg_process *p, struct routines *st)
{
	struct tl_dcfg_scratch *s = &st->s;
	/* The dominators are done with: their array, cleared, marks the leaving
	 * edges (one array of the size of the process fewer). */
	memset(s->idom, 0, ((size_t)p->nblocks + 1) * sizeof *s->idom);
	s->leaving = s->idom;
	s->idom = NULL;
	/* So is the numbering: it marks the listed exits, from st->exits. */
	memset(s->rpo_num, 0, ((size_t)p->nblocks + 1) * sizeof *s->rpo_num);
	s->exit_mark = s->rpo_num;
	s->rpo_num = NULL;
	for (uint32_t k = 0; k < st->nexits; k++)
		s->exit_mark[st->exits[k].blk] = st->exits[k].routine + 1;
	find_leaving_edges(p, s);
	struct tl_keyed *items, *missing;
	uint32_t nmissing = unlisted_exits(v, p, st, &items), m = 0;
	missing = items ? tl_radix_sort(items, items + nmissing, nmissing) : NULL;
	uint32_t x = 0;
	for (uint32_t r = 0; r < st->nrefs; r++) {
		const struct routine_ref *ref = &st->refs[r];
		uint32_t first_exit = x;
		while (x < st->nexits && st->exits[x].routine == r)
			x++;
		if (!ref->checked || !ref->exits_read || !st->cover_ok[ref->image])
			continue;
		/* The routine's row is gone: its EXIT_NODE_IDS is found again only
		 * for a diagnostic that is shown. */
		int list = st->tables[ref->image].pos[1];
		for (uint32_t k = first_exit; k < x; k++) {
			if (s->leaving[st->exits[k].blk])
				continue;
			tl_jv_report_entry(v, RULE_DCFG_ROUTINE_EXITS, ref->row, list, st->exits[k].index,
				  MSG_DCFG_ROUTINE_EXITS,
				  (unsigned long long)p->blocks[st->exits[k].blk].id);
		}
		for (; m < nmissing && missing[m].key == r; m++) {
			uint32_t b = missing[m].val;
			const struct tl_dcfg_edge *e = &p->edges[s->leaving[b] - 1];
			tl_jv_report_cell(v, RULE_DCFG_ROUTINE_EXITS, ref->row, list,
				  MSG_DCFG_ROUTINE_EXITS_2,
				  (unsigned long long)p->blocks[b].id, (unsigned long long)e->id, (unsigned long long)e->tgt);
		}
	}
	free(items);
}

void tl_dcfg_check_routines(struct tl_json_check *v, const struct tl_dcfg_process *p)
{
	bool any = false;
	for (uint32_t i = 0; i < p->nimages; i++)
		any |= p->images[i].routines != JNONE;
	if (!any)
		return;
	struct routines st = { 0 };
	if (alloc_state(p, &st)) {
		for (uint32_t i = 0; i < p->nimages && !(v->ctx && tl_stopped(v->ctx)); i++)
			if (p->images[i].routines != JNONE)
				check_image(v, p, &st, i);
		check_exits(v, p, &st);
	} else {
		tl_jv_out_of_memory(v);
	}
	free_state(&st);
}
