/* Modules loaded at the same time do not share addresses (UMT-MODULE-OVERLAP).
 * Sweep the modules in StartAddr order. The open modules (EndAddr at or after the
 * current StartAddr) all contain that address, so, as long as none of them was
 * reported, their load intervals are pairwise disjoint: a search tree ordered by load
 * interval (POSIX tsearch) then finds one overlapping the new module in O(log n), and
 * a heap by EndAddr closes them. Memory: one entry per module row. */
#include "compare.h"
#include "umt.h"

#include <search.h>
#include <stdlib.h>

struct mod {
	uint64_t start, end;   /* inclusive addresses */
	uint64_t load, unload; /* [load, unload); UnloadEID -1 is "never" */
	uint64_t row;
};

static int by_start(const void *a, const void *b)
{
	const struct mod *x = a, *y = b;
	return tl_cmp_u64_pair(x->start, x->row, y->start, y->row);
}

/* Disjoint intervals are ordered; overlapping ones compare equal, which is the find. */
static int by_time(const void *a, const void *b)
{
	const struct mod *x = a, *y = b;
	if (x->unload <= y->load)
		return -1;
	return y->unload <= x->load ? 1 : 0;
}

/* A min-heap of open modules by EndAddr. */
struct heap {
	struct mod **at;
	size_t n;
};

static void heap_push(struct heap *h, struct mod *m)
{
	size_t i = h->n++;
	while (i > 0 && h->at[(i - 1) / 2]->end > m->end) {
		h->at[i] = h->at[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->at[i] = m;
}

static struct mod *heap_pop(struct heap *h)
{
	struct mod *top = h->at[0], *last = h->at[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->at[c + 1]->end < h->at[c]->end)
			c++;
		if (h->at[c]->end >= last->end)
			break;
		h->at[i] = h->at[c];
		i = c;
	}
	if (h->n)
		h->at[i] = last;
	return top;
}

/* Rows whose own fields are wrong (UMT-MODULE-RANGE, UMT-MODULE-LOAD-EIDS) are left out. */
static size_t read_modules(struct umt_trace *t, const struct umt_table *module, struct mod *mods)
{
	size_t n = 0;
	for (uint64_t i = 0; i < module->rows; i++) {
		struct umt_module_row m;
		if (!tl_umt_module_row(t, module, i, &m))
			continue;
		int64_t load = m.load, unload = m.unload;
		uint64_t start = m.start, end = m.end;
		if (start > end || load < 0 || (unload != UMT_NONE && unload < load))
			continue;
		uint64_t until = unload == UMT_NONE ? UINT64_MAX : (uint64_t)unload;
		if (until == (uint64_t)load) /* loaded and unloaded around one record: a point */
			until++;
		mods[n++] = (struct mod){ start, end, (uint64_t)load, until, i };
	}
	return n;
}

static void report(struct umt_trace *t, const struct umt_table *module, const struct mod *m,
		   const struct mod *other)
{
	tl_umt_report(t, M_MODULE, RULE_UMT_MODULE_OVERLAP,
		   module->table_fp + m->row * module->row_size + 16,
		   MSG_UMT_MODULE_OVERLAP,
		   (unsigned long long)m->row, (unsigned long long)m->start,
		   (unsigned long long)m->end, (unsigned long long)other->row,
		   (unsigned long long)other->start, (unsigned long long)other->end,
		   (unsigned long long)m->load, m->unload == UINT64_MAX ? -1LL : (long long)m->unload,
		   (unsigned long long)other->load,
		   other->unload == UINT64_MAX ? -1LL : (long long)other->unload);
}

void tl_umt_check_module_overlap(struct umt_trace *t, const struct umt_table *module)
{
	if (!module->rows || module->rows > SIZE_MAX / sizeof(struct mod))
		return;
	struct mod *mods = malloc((size_t)module->rows * sizeof *mods);
	struct heap open = { malloc((size_t)module->rows * sizeof *open.at), 0 };
	void *tree = NULL;
	if (!mods || !open.at) {
		tl_out_of_memory(t->ctx);
		goto out;
	}
	size_t n = read_modules(t, module, mods);
	qsort(mods, n, sizeof *mods, by_start);
	for (size_t i = 0; i < n && !tl_stopped(t->ctx); i++) {
		struct mod *m = &mods[i];
		while (open.n && open.at[0]->end < m->start)
			tdelete(heap_pop(&open), &tree, by_time);
		void *found = tfind(m, &tree, by_time);
		if (found) {
			report(t, module, m, *(struct mod **)found);
			continue; /* left out, so the open ones stay disjoint in time */
		}
		if (!tsearch(m, &tree, by_time)) {
			tl_out_of_memory(t->ctx);
			break;
		}
		heap_push(&open, m);
	}
	while (open.n)
		tdelete(heap_pop(&open), &tree, by_time);
out:
	free(open.at);
	free(mods);
}
