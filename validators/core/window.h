/* A forward window over an input, for dense streaming validators (XRay).
 *
 * A validator that reads every byte of a huge file in order asks the window
 * for the bytes at an offset. A mapped file (tl_input_open maps regular
 * files, spooled standard input and decompressed data) is read in place, in
 * steps of TL_INPUT_RELEASE_STEP: each step hands the pages behind it back
 * to the kernel (tl_input_release), so memory stays bounded however large
 * the file. On current kernels the mapping's faults (one per fault-around
 * batch, with MADV_SEQUENTIAL read-ahead) cost less than copying the same
 * bytes with pread. A shrinking file reads as zeros there (guard.h) and the
 * next step sets read_failed.
 *
 * When an explicit capacity is asked for (tests move the step boundaries
 * over every record with small ones), or the input is not mapped (a stream
 * being fed), the window preads the file in steps into one reused, aligned
 * buffer and carries the unread tail of the previous step to the front, so
 * a record straddling two steps still reads as contiguous bytes.
 *
 * A memory input (tl_input_from_memory: tests, fuzz targets, trace
 * directories held in memory) is seen through the window without copying,
 * unless a capacity smaller than the input was asked for, in which case its
 * bytes are copied in steps like a file's. */
#ifndef TL_WINDOW_H
#define TL_WINDOW_H

#include "input.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Default step: large enough to make system calls rare, small enough to
 * stay in the second-level cache between the copy and the validator. */
#define TL_WINDOW_DEFAULT_CAPACITY ((size_t)256 << 10)
#define TL_WINDOW_MIN_CAPACITY ((size_t)64)

struct tl_window {
	const struct tl_input *in;
	uint8_t *buf;           /* owned buffer of cap bytes, NULL when reading memory in place */
	size_t cap;
	const uint8_t *data;    /* the bytes [start, start + len) of the input */
	uint64_t start;
	size_t len;
	uint64_t reads;         /* pread calls (or copies, or mapped steps) made, for tests and profiles */
	bool mapped;            /* reading the input's mapping in place, a step at a time */
	bool read_failed;       /* the file gave fewer bytes than its size promised */
};

/* cap 0 means the default: a mapped file in place, else the default
 * capacity (TRACELINT_WINDOW_CAPACITY, bytes, sets another for tests and
 * turns the in-place reading off);
 * capacities below TL_WINDOW_MIN_CAPACITY are raised to it, those above the
 * input size lowered to it. When no buffer can be allocated, the window
 * falls back to the mapped input. */
void tl_window_open(struct tl_window *w, const struct tl_input *in, size_t cap);
void tl_window_close(struct tl_window *w);

/* The slow path of tl_window_at: moves the window so that it starts at `at`
 * and holds as many bytes as the buffer and the input allow. */
void tl_window_move(struct tl_window *w, uint64_t at);

/* Makes the bytes from offset `at` readable and returns a pointer to them;
 * *avail receives how many bytes from `at` are readable, at least
 * min(need, input size - at) when need <= the capacity. Offsets should only
 * grow (going back rereads). If the file shrinks or fails under us, the
 * missing bytes read as zeros and read_failed is set, so a validator never
 * reads outside its buffer. Past the end of the input, *avail is 0. */
static inline const uint8_t *tl_window_at(struct tl_window *w, uint64_t at, size_t need,
					  size_t *avail)
{
	uint64_t end = w->start + w->len;
	if (at < w->start || at > end || end - at < need) {
		if (at < w->start || end < w->in->size)
			tl_window_move(w, at);
		end = w->start + w->len;
		if (at > end) {
			/* Past the end of the input: nothing to read. */
			*avail = 0;
			return w->data + w->len;
		}
	}
	*avail = (size_t)(end - at);
	return w->data + (at - w->start);
}

#endif
