/* Member diagnostics sorted by member and offset (writer_order.c). */
#ifndef TL_WRITER_ORDER_H
#define TL_WRITER_ORDER_H

#include <stdbool.h>
#include <stdint.h>

struct tl_writer;
struct tl_diagnostic;

/* Most member diagnostics held at a time: past that the held ones are
 * written and holding starts again. */
enum { TL_HOLD_MAX = 65536 };

/* Where a held diagnostic goes: by member, then offset, then arrival (seq);
 * the --max-errors note last. */
struct tl_order_key {
	const char *member;
	uint64_t offset;
	uint64_t seq;
	bool last;
};
void tl_order_key_of(const struct tl_diagnostic *d, uint64_t seq, struct tl_order_key *key);
/* qsort's comparison of elements that begin with a struct tl_order_key. */
int tl_order_compare(const void *a, const void *b);

/* Holds a diagnostic with a member for sorting; passes the others on. */
void tl_writer_hold(struct tl_writer *w, const struct tl_diagnostic *d);
/* Writes d at once: for a caller that put its diagnostics in this order
 * itself (the command line's -j replay), so they are not copied again. */
void tl_writer_diag_ordered(struct tl_writer *w, const struct tl_diagnostic *d);
/* Writes the held diagnostics, sorted. */
void tl_writer_release(struct tl_writer *w);
/* Frees the holding area (the writer is finished). */
void tl_writer_drop_held(struct tl_writer *w);

#endif
