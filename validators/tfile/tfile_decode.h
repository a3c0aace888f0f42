/* The frame section's producer: frame headers, and the blocks inside one
 * frame, decoded through the cursor into typed records. The validator's
 * checkers, the byte-order probe, dump and repair all read frames here, so
 * the layout (u16 tracepoint number, u32 size; blocks R, M, V) is written
 * down once.
 *
 * A record is decoded from its head: a cursor over the first bytes at its
 * offset (the 6-byte frame header, the 13-byte longest block head), clipped
 * to where the file or the frame ends. Data is located by offset and never
 * read here, so a walk reading through a window of any size (the page in the
 * browser reads in slices) and one reading a mapped file see the same
 * records. */
#ifndef TL_TFILE_DECODE_H
#define TL_TFILE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cursor.h"
#include "window.h"

#define TFILE_FRAME_HEAD 6      /* tracepoint number, size */
#define TFILE_BLOCK_HEAD 13     /* the longest: 'V', 4-byte number, 8-byte value */
#define TFILE_BLOCK_M_HEAD 11   /* 'M', 8-byte address, 2-byte length */

struct tfile_frame {
	uint64_t at;             /* the header's first byte */
	uint16_t tpnum;
	uint32_t size;
	uint64_t body, end;      /* the frame's blocks: [body, end) */
};

/* How reading the frame at a head ended. */
enum tfile_frame_end {
	TFILE_FRAME_READ,        /* a whole frame */
	TFILE_FRAME_MARKER,      /* tracepoint number 0: the end marker */
	TFILE_FRAME_NONE,        /* fewer than 2 bytes: no marker */
	TFILE_FRAME_HEADER_CUT,  /* a tracepoint number, no 4-byte size */
	TFILE_FRAME_DATA_CUT,    /* a whole header, its data past the end of the file */
};

/* The frame whose head (up to TFILE_FRAME_HEAD bytes) is given, in a file
 * of file_size bytes. */
static inline enum tfile_frame_end tl_tfile_frame_read(struct tl_cursor head, uint64_t file_size,
						       bool big, struct tfile_frame *f)
{
	memset(f, 0, sizeof *f);
	f->at = tl_cursor_offset(&head);
	if (!tl_cursor_u16(&head, big, &f->tpnum))
		return TFILE_FRAME_NONE;
	if (f->tpnum == 0)
		return TFILE_FRAME_MARKER;
	if (!tl_cursor_u32(&head, big, &f->size))
		return TFILE_FRAME_HEADER_CUT;
	f->body = f->at + TFILE_FRAME_HEAD;
	if (file_size - f->body < f->size)
		return TFILE_FRAME_DATA_CUT;
	f->end = f->body + f->size;
	return TFILE_FRAME_READ;
}

struct tfile_block {
	uint64_t at;             /* the type byte */
	uint8_t type;            /* 'R', 'M', 'V', or what stood there */
	uint64_t left;           /* bytes of the frame after the type byte */
	uint64_t payload;        /* R: the registers, M: the memory; payload_size bytes */
	uint64_t payload_size;
	uint64_t next;           /* the byte after the block */
	uint64_t address;        /* M */
	uint16_t length;         /* M */
	uint32_t number;         /* V */
	uint64_t value;          /* V */
};

enum tfile_block_fault {
	TFILE_BLOCK_OK,
	TFILE_BLOCK_R_SIZE_UNKNOWN,  /* an R block, and no register size to read it by */
	TFILE_BLOCK_OVERRUN,         /* the block does not fit in what is left of the frame */
	TFILE_BLOCK_BAD_TYPE,        /* not R, M or V */
};

/* The block whose head (up to TFILE_BLOCK_HEAD bytes, clipped to the frame's
 * end `end`, at least one) is given; r_size is the register block's size
 * when r_known. */
static inline enum tfile_block_fault tl_tfile_block_read(struct tl_cursor head, uint64_t end, bool big,
							 bool r_known, uint64_t r_size,
							 struct tfile_block *b)
{
	memset(b, 0, sizeof *b);
	b->at = tl_cursor_offset(&head);
	if (!tl_cursor_u8(&head, &b->type))
		return TFILE_BLOCK_OVERRUN;
	b->left = end - b->at - 1;
	switch (b->type) {
	case 'R':
		if (!r_known)
			return TFILE_BLOCK_R_SIZE_UNKNOWN;
		if (r_size > b->left)
			return TFILE_BLOCK_OVERRUN;
		b->payload = b->at + 1;
		b->payload_size = r_size;
		break;
	case 'M':
		/* the head is clipped to the frame: 10 more bytes read means left >= 10 */
		if (!tl_cursor_u64(&head, big, &b->address) || !tl_cursor_u16(&head, big, &b->length) ||
		    b->length > b->left - 10)
			return TFILE_BLOCK_OVERRUN;
		b->payload = b->at + TFILE_BLOCK_M_HEAD;
		b->payload_size = b->length;
		break;
	case 'V':
		if (!tl_cursor_u32(&head, big, &b->number) || !tl_cursor_u64(&head, big, &b->value))
			return TFILE_BLOCK_OVERRUN;
		b->next = b->at + TFILE_BLOCK_HEAD;
		return TFILE_BLOCK_OK;
	default:
		return TFILE_BLOCK_BAD_TYPE;
	}
	b->next = b->payload + b->payload_size;
	return TFILE_BLOCK_OK;
}

/* A head read from bytes in memory: the n bytes at `at` of data[0, size),
 * or fewer where `limit` (a frame's end, or size) comes first. */
static inline struct tl_cursor tl_tfile_head_in(const uint8_t *data, size_t size, uint64_t at,
						uint64_t limit, size_t n)
{
	struct tl_cursor c;
	uint64_t want = limit > at ? limit - at : 0;
	if (want > n)
		want = n;
	if (!tl_cursor_at(&c, data, size, at, want))
		tl_cursor_init(&c, NULL, 0, at);
	return c;
}

/* A head read through a window: the n bytes at `at`, or fewer where
 * `limit` comes first (or the window cannot give them: the read then fails
 * as at the end). */
static inline struct tl_cursor tl_tfile_head(struct tl_window *win, uint64_t at, uint64_t limit,
					     size_t n)
{
	size_t want = limit - at < n ? (size_t)(limit - at) : n, avail;
	const uint8_t *p = tl_window_at(win, at, want, &avail);
	struct tl_cursor c;
	tl_cursor_init(&c, p, avail < want ? avail : want, at);
	return c;
}

#endif
