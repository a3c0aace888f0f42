/* UMT-SYSCALL-BLOCK-OVERLAP: syscall blocks in syscall.vtable share no byte, with memory that does not grow
 * with the trace beyond a stated cap.
 *
 * Producers append blocks, so their offsets run monotonically with the syscall ID
 * (umtgen writes them in reverse ID order: decreasing). A first pass over
 * syscall.offsets finds whether the in-bounds blocks are monotone in either direction;
 * if so a second pass sweeps them in ID order with O(1) state. Otherwise the blocks
 * are collected as (Offset, ID) pairs, 16 bytes each, sorted and swept; above
 * UMT_SYSCALL_SORT_CAP bytes of pairs the check is skipped with a note. */
#include "umt.h"
#include "knob.h"

#include <stdlib.h>

/* 64 MB of (Offset, ID) pairs: 4,194,304 blocks out of order. */
#define UMT_SYSCALL_SORT_CAP ((uint64_t)64 << 20)

struct block_ref {
	uint64_t off;
	uint64_t id;
};

/* The cap, lowered by TRACELINT_UMT_SORT_CAP (bytes) so tests can reach the note. */
static uint64_t sort_cap(void)
{
	return tl_knob("TRACELINT_UMT_SORT_CAP", UMT_SYSCALL_SORT_CAP, UMT_SYSCALL_SORT_CAP);
}

static void report(struct umt_trace *t, uint64_t s, uint64_t start, uint64_t end, uint64_t other,
		   uint64_t ostart, uint64_t oend)
{
	tl_umt_report(t, M_SYSCALL_OFFSETS, RULE_UMT_SYSCALL_BLOCK_OVERLAP, 16 * s,
		   MSG_UMT_SYSCALL_BLOCK_OVERLAP,
		   (unsigned long long)s, (unsigned long long)start, (unsigned long long)end,
		   (unsigned long long)other, (unsigned long long)ostart, (unsigned long long)oend);
}

static void drop_now_and_then(struct umt_trace *t, uint64_t i)
{
	if ((i & 0xffff) == 0xffff)
		tl_umt_drop_pages(t, M_SYSCALL_OFFSETS);
}

/* Sweep state: blocks arrive sorted by start (up) or by start descending (down). A block
 * going up overlaps an earlier one iff it starts before the furthest end so far; going
 * down, iff it ends after the lowest start so far. */
struct sweep {
	bool up, any;
	uint64_t edge, edge_id, edge_start, edge_end;
};

static void sweep_block(struct umt_trace *t, struct sweep *w, uint64_t s, uint64_t start,
			uint64_t end)
{
	if (w->any && (w->up ? start < w->edge : end > w->edge))
		report(t, s, start, end, w->edge_id, w->edge_start, w->edge_end);
	if (!w->any || (w->up ? end > w->edge : start < w->edge)) {
		w->edge = w->up ? end : start;
		w->edge_id = s, w->edge_start = start, w->edge_end = end;
	}
	w->any = true;
}

/* Direction of the in-bounds blocks in ID order: 1 up, -1 down, 0 neither; *count gets
 * their number and *breaks the first ID out of order. */
static int direction(struct umt_trace *t, uint64_t calls, uint64_t *count, uint64_t *breaks)
{
	int dir = 0;
	bool have = false, up = true, down = true;
	uint64_t prev = 0, start, end;
	*count = 0;
	*breaks = 0;
	for (uint64_t s = 0; s < calls && !tl_stopped(t->ctx); s++) {
		drop_now_and_then(t, s);
		if (!tl_umt_syscall_block(t, s, &start, &end))
			continue;
		if (have && (up || down)) {
			up = up && start >= prev;
			down = down && start <= prev;
			if (!up && !down)
				*breaks = s;
		}
		prev = start, have = true;
		++*count;
	}
	if (up)
		dir = 1;
	else if (down)
		dir = -1;
	return dir;
}

static bool before(const struct block_ref *x, const struct block_ref *y)
{
	return x->off != y->off ? x->off < y->off : x->id < y->id;
}

static void sift_down(struct block_ref *a, uint64_t root, uint64_t n)
{
	for (uint64_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && before(&a[child], &a[child + 1]))
			child++;
		if (!before(&a[root], &a[child]))
			return;
		struct block_ref tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
	}
}

/* Heapsort, in place: glibc's qsort may allocate a second array as large as the first,
 * which would double the stated bound. */
static void sort_by_offset(struct block_ref *a, uint64_t n)
{
	for (uint64_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (uint64_t end = n; end-- > 1;) {
		struct block_ref tmp = a[0];
		a[0] = a[end];
		a[end] = tmp;
		sift_down(a, 0, end);
	}
}

static bool sweep_sorted(struct umt_trace *t, uint64_t calls, uint64_t count)
{
	struct block_ref *refs = malloc(count * sizeof *refs);
	if (!refs)
		return false;
	uint64_t n = 0, start, end;
	for (uint64_t s = 0; s < calls && n < count; s++) {
		drop_now_and_then(t, s);
		if (tl_umt_syscall_block(t, s, &start, &end))
			refs[n++] = (struct block_ref){ start, s };
	}
	sort_by_offset(refs, n);
	struct sweep w = { .up = true };
	for (uint64_t i = 0; i < n && !tl_stopped(t->ctx); i++) {
		drop_now_and_then(t, i);
		tl_umt_syscall_block(t, refs[i].id, &start, &end);
		sweep_block(t, &w, refs[i].id, start, end);
	}
	free(refs);
	return true;
}

void tl_umt_check_syscall_overlap(struct umt_trace *t, const struct umt_syscalls *sys)
{
	uint64_t count, breaks, start, end;
	int dir = direction(t, sys->count, &count, &breaks);
	if (tl_stopped(t->ctx) || count < 2)
		return;
	if (dir != 0) {
		struct sweep w = { .up = dir > 0 };
		for (uint64_t s = 0; s < sys->count && !tl_stopped(t->ctx); s++) {
			drop_now_and_then(t, s);
			if (tl_umt_syscall_block(t, s, &start, &end))
				sweep_block(t, &w, s, start, end);
		}
		return;
	}
	uint64_t cap = sort_cap();
	if (count <= cap / sizeof(struct block_ref)) {
		if (!sweep_sorted(t, sys->count, count))
			tl_out_of_memory(t->ctx);
	} else {
		tl_umt_report(t, M_SYSCALL_OFFSETS, RULE_UMT_SYSCALL_BLOCK_OVERLAP_SKIPPED, 16 * breaks,
			   MSG_UMT_SYSCALL_BLOCK_OVERLAP_SKIPPED,
			   (unsigned long long)(cap / sizeof(struct block_ref)), (unsigned long long)cap,
			   (unsigned long long)count);
	}
}
