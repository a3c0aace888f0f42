/* A forward window over an input (see window.h). */
#define _GNU_SOURCE
#include "window.h"
#include "knob.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* What an empty window points at, so that no pointer arithmetic is ever done on NULL. */
static const uint8_t no_bytes[1];

/* Reads the input where it lies: memory inputs, or the mapping when no
 * buffer can be had. */
static void view_in_place(struct tl_window *w)
{
	if (w->in->data) {
		w->data = w->in->data;
		w->len = w->in->size;
	}
	w->cap = w->in->size;
}

void tl_window_open(struct tl_window *w, const struct tl_input *in, size_t cap)
{
	memset(w, 0, sizeof *w);
	w->in = in;
	w->data = no_bytes;
	if (cap == 0) {
		cap = (size_t)tl_knob("TRACELINT_WINDOW_CAPACITY", 0, SIZE_MAX);
		if (cap == 0 && in->has_fd && in->map && !in->growing) {
			/* A mapped file: in place, one release step at a time. */
			w->mapped = true;
			w->cap = TL_INPUT_RELEASE_STEP;
			tl_window_move(w, 0);
			return;
		}
		if (cap == 0)
			cap = TL_WINDOW_DEFAULT_CAPACITY;
	}
	if (cap < TL_WINDOW_MIN_CAPACITY)
		cap = TL_WINDOW_MIN_CAPACITY;
	if (!in->has_fd && cap >= in->size) {
		view_in_place(w);
		return;
	}
	/* a stream's input grows: its window is sized for what is to come */
	if (cap > in->size && !in->growing)
		cap = in->size > TL_WINDOW_MIN_CAPACITY ? (size_t)in->size : TL_WINDOW_MIN_CAPACITY;
	/* Page-aligned for large buffers (the kernel copies whole pages into them). */
	size_t align = cap >= 4096 ? 4096 : 64;
	cap = (cap + align - 1) / align * align;
	w->buf = aligned_alloc(align, cap);
	if (!w->buf) {
		view_in_place(w);
		return;
	}
	w->cap = cap;
	w->data = w->buf;
}

void tl_window_close(struct tl_window *w)
{
	free(w->buf);
	memset(w, 0, sizeof *w);
}

/* Fills buf[from, to) with the input bytes at start + from. */
static void fill(struct tl_window *w, size_t from, size_t to)
{
	const struct tl_input *in = w->in;
	if (!in->has_fd) {
		memcpy(w->buf + from, in->data + w->start + from, to - from);
		w->reads++;
		return;
	}
	while (from < to) {
		ssize_t n = pread(in->fd, w->buf + from, to - from, (off_t)(w->start + from));
		w->reads++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Shrunk under us or failing: zeros rather than stale bytes. */
			memset(w->buf + from, 0, to - from);
			w->read_failed = true;
			if (n < 0)
				tl_input_mark_failed(in, errno);
			else
				tl_input_mark_changed(in);
			return;
		}
		from += (size_t)n;
	}
}

void tl_window_move(struct tl_window *w, uint64_t at)
{
	uint64_t size = w->in->size;
	if (at > size)
		at = size;
	if (w->mapped) {
		/* The pages behind `at` go back to the kernel; a file that shrank
		 * under the mapping reads as zeros, so the reader is told to stop. */
		tl_input_release(w->in, at);
		w->read_failed = w->read_failed || tl_input_changed_fast(w->in);
		w->start = at;
		w->data = w->in->data + at;
		w->len = size - at < w->cap ? (size_t)(size - at) : w->cap;
		w->reads++;
		return;
	}
	if (!w->buf) {
		/* In place: the whole input is already there. */
		return;
	}
	size_t keep = 0;
	uint64_t end = w->start + w->len;
	if (at >= w->start && at < end) {
		/* Carry the unread tail to the front: a straddling record stays whole. */
		keep = (size_t)(end - at);
		memmove(w->buf, w->data + (at - w->start), keep);
	}
	size_t want = size - at < w->cap ? (size_t)(size - at) : w->cap;
	w->start = at;
	w->data = w->buf;
	if (keep < want)
		fill(w, keep, want);
	w->len = want;
}
