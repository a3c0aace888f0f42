/* Suspicion-level rules on basic blocks (seed 2.13; warnings in
 * specs/dcfg.md) and the edge-type kinds the edge rules need. They run on the
 * model after the images are read, so they do not depend on how the
 * reader walks the JSON. */
#include "id_put.h"
#include "dcfg_model.h"
#include "bigalloc.h"
#include "radix_sort.h"

#include <stdlib.h>
#include <string.h>

/* Longest x86 instruction: a block whose last instruction would be longer
 * has a wrong SIZE or LAST_INSTR_OFFSET. */
#define MAX_INSTR_BYTES 15

void tl_dcfg_note_edge_type(struct tl_json_check *v, struct tl_dcfg_model *m, uint64_t id, const uint8_t *name, uint32_t len)
{
	static const char bypass[] = "_BYPASS";
	size_t bl = sizeof bypass - 1;
	uint32_t kind = EK_OTHER;
	if (len == 3 && memcmp(name, "REP", 3) == 0)
		kind = EK_REP;
	else if (len >= bl && memcmp(name + len - bl, bypass, bl) == 0)
		kind = EK_BYPASS;
	tl_dcfg_id_put(v, &m->type_kind, id, kind);
}

static void report_same_start(struct tl_json_check *v, const struct tl_dcfg_process *p, uint32_t first, uint32_t second)
{
	const struct tl_dcfg_block *a = &p->blocks[first], *b = &p->blocks[second];
	tl_jv_report_cell(v, RULE_DCFG_BLOCK_SAME_START, b->node, p->images[b->image].block_pos[BB_ADDR_OFFSET],
		  MSG_DCFG_BLOCK_SAME_START,
		  (unsigned long long)p->images[b->image].id, (unsigned long long)a->id, (unsigned long long)b->id,
		  (unsigned long long)p->block_addr[second]);
}

/* D20: two blocks of one image starting at the same offset (legal only
 * after an unload and reload, which the seed's note allows). The reader
 * appends an image's blocks together, images in order, so each image is
 * one run of p->blocks; a run is sorted by (offset, block) and neighbours
 * compared. */
static void check_same_start(struct tl_json_check *v, const struct tl_dcfg_process *p)
{
	struct tl_keyed *items = NULL, *tmp = NULL;
	for (uint32_t run = 0; run < p->nblocks;) {
		uint32_t image = p->blocks[run].image, end = run;
		/* The usual layout, blocks in address order, needs no sort. */
		bool ascending = true, any = false;
		uint64_t last = 0;
		for (; end < p->nblocks && p->blocks[end].image == image; end++) {
			if (!p->blocks[end].geometry_read)
				continue;
			ascending &= !any || last < p->block_addr[end];
			last = p->block_addr[end];
			any = true;
		}
		uint32_t first = run, n = 0;
		run = end;
		if (ascending)
			continue;
		if (!items && (!(items = tl_big_malloc(((size_t)p->nblocks + 1) * sizeof *items)) ||
			       !(tmp = tl_big_malloc(((size_t)p->nblocks + 1) * sizeof *tmp)))) {
			tl_jv_out_of_memory(v);
			break;
		}
		for (uint32_t b = first; b < end; b++)
			if (p->blocks[b].geometry_read)
				items[n++] = (struct tl_keyed){ p->block_addr[b], b };
		const struct tl_keyed *sorted = tl_radix_sort(items, tmp, n);
		for (uint32_t i = 1; i < n; i++)
			if (sorted[i - 1].key == sorted[i].key)
				report_same_start(v, p, sorted[i - 1].val, sorted[i].val);
	}
	free(items);
	free(tmp);
}

/* D18, as each block is read: the model keeps no SIZE or
 * LAST_INSTR_OFFSET (16 bytes a block that no later rule needs). */
bool tl_dcfg_last_instr_fits(uint64_t size, uint64_t last_off)
{
	return !(last_off < size && size - last_off > MAX_INSTR_BYTES);
}

void tl_dcfg_check_last_instr(struct tl_json_check *v, const struct tl_dcfg_block *b, uint32_t last_cell, uint64_t size, uint64_t last_off)
{
	if (!tl_dcfg_last_instr_fits(size, last_off))
		tl_jv_report(v, RULE_DCFG_LAST_INSTR_LENGTH, last_cell,
			  MSG_DCFG_LAST_INSTR_LENGTH,
			  (unsigned long long)b->id, MAX_INSTR_BYTES, (unsigned long long)size, (unsigned long long)last_off,
			  (unsigned long long)(size - last_off));
}

void tl_dcfg_check_blocks(struct tl_json_check *v, const struct tl_dcfg_process *p)
{
	for (uint32_t i = 0; i < p->nblocks; i++) {
		const struct tl_dcfg_block *b = &p->blocks[i];
		if (b->has_count && b->count == 0)
			tl_jv_report_cell(v, RULE_DCFG_BLOCK_ZERO_COUNT, b->node, p->images[b->image].block_pos[BB_COUNT],
				  MSG_DCFG_BLOCK_ZERO_COUNT,
				  (unsigned long long)b->id);
	}
	check_same_start(v, p);
}
