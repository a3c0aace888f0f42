/* The document's node storage: growing the node array, and finding the lazy
 * table a pinned row belongs to. Every pass uses these and they use no pass,
 * so the parser, the row reader and the pointers do not depend on each other
 * through them. */
#include "json_internal.h"
#include "bigalloc.h"

bool tl_json_take(struct tl_json_doc *d, uint64_t bytes)
{
	if (d->budget && bytes > d->budget - d->held) {
		d->over_budget = true;
		return false;
	}
	d->held += bytes;
	return true;
}

bool tl_json_grow_nodes(struct tl_json_doc *d)
{
	/* d->cap < JPIN (2^31): doubling it cannot wrap */
	uint32_t cap = d->cap ? d->cap * 2 : 1024;
	if (cap >= JPIN || !tl_json_take(d, (uint64_t)(cap - d->cap) * sizeof *d->nodes))
		return false;
	struct tl_json_node *nn = tl_big_realloc(d->nodes, (size_t)cap * sizeof *nn);
	if (!nn) {
		d->nomem = true;
		return false;
	}
	d->nodes = nn;
	d->cap = cap;
	return true;
}

uint32_t tl_json_lazy_of(const struct tl_json_doc *d, uint32_t pin, uint32_t *row)
{
	uint32_t idx = pin & ~JPIN, lo = 0, hi = d->nlazy;
	if (d->cur_lazy != NO_LAZY) { /* most pins are rows of the table being read */
		const struct tl_json_lazy *z = &d->lazy[d->cur_lazy];
		if (idx >= z->pin_base && idx - z->pin_base < d->nodes[z->node].count) {
			*row = idx - z->pin_base;
			return d->cur_lazy;
		}
	}
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->lazy[mid].pin_base <= idx)
			lo = mid;
		else
			hi = mid;
	}
	if (lo >= d->nlazy || idx < d->lazy[lo].pin_base ||
	    idx - d->lazy[lo].pin_base >= d->nodes[d->lazy[lo].node].count)
		return NO_LAZY;
	*row = idx - d->lazy[lo].pin_base;
	return lo;
}
