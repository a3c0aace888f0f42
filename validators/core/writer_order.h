/* Member diagnostics sorted by member and offset (writer_order.c). */
#ifndef TL_WRITER_ORDER_H
#define TL_WRITER_ORDER_H

struct tl_writer;
struct tl_diagnostic;

/* Holds a diagnostic with a member for sorting; passes the others on. */
void tl_writer_hold(struct tl_writer *w, const struct tl_diagnostic *d);
/* Writes the held diagnostics, sorted. */
void tl_writer_release(struct tl_writer *w);
/* Frees the holding area (the writer is finished). */
void tl_writer_drop_held(struct tl_writer *w);

#endif
