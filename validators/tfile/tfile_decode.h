/* The frame section's producer: frame headers, and the blocks inside one
 * frame, decoded through the cursor into typed records. The validator's
 * checkers, the byte-order probe, dump and repair all read frames here, so
 * the layout (u16 tracepoint number, u32 size; blocks R, M, V) is written
 * down once. */
#ifndef TL_TFILE_DECODE_H
#define TL_TFILE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "cursor.h"

#define TFILE_FRAME_HEADER_SIZE 6
#define TFILE_BLOCK_M_HEADER 11     /* type, 8-byte address, 2-byte length */
#define TFILE_BLOCK_V_SIZE 13       /* type, 4-byte number, 8-byte value */

struct tfile_frame {
	uint64_t at;             /* the header's first byte */
	uint16_t tpnum;
	uint32_t size;
	struct tl_cursor blocks; /* the frame's data (READ only) */
	size_t left;             /* bytes of the file after what was read */
};

/* How reading the next frame ended. The cursor stands after what was read:
 * after the frame, after the 2-byte marker, or at the cut. */
enum tfile_frame_end {
	TFILE_FRAME_READ,        /* a whole frame */
	TFILE_FRAME_MARKER,      /* tracepoint number 0: the end marker */
	TFILE_FRAME_NONE,        /* fewer than 2 bytes: no marker */
	TFILE_FRAME_HEADER_CUT,  /* a tracepoint number, no 4-byte size */
	TFILE_FRAME_DATA_CUT,    /* a whole header, its data past the end */
};


struct tfile_block {
	uint64_t at;             /* the type byte */
	uint8_t type;            /* 'R', 'M', 'V', or what stood there */
	size_t left;             /* bytes of the frame after the type byte */
	const uint8_t *data;     /* R: the registers; M: the memory */
	size_t data_size;
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


/* Inline: the frame walk calls these once a block, in its hottest loop. */
static inline enum tfile_frame_end tl_tfile_next_frame(struct tl_cursor *c, bool big, struct tfile_frame *f)
{
	memset(f, 0, sizeof *f);
	f->at = tl_cursor_offset(c);
	enum tfile_frame_end end;
	if (!tl_cursor_u16(c, big, &f->tpnum))
		end = TFILE_FRAME_NONE;
	else if (f->tpnum == 0)
		end = TFILE_FRAME_MARKER;
	else if (!tl_cursor_u32(c, big, &f->size))
		end = TFILE_FRAME_HEADER_CUT;
	else if (!tl_cursor_sub(c, f->size, &f->blocks))
		end = TFILE_FRAME_DATA_CUT;
	else
		end = TFILE_FRAME_READ;
	f->left = tl_cursor_left(c);
	return end;
}

/* The next block of a frame. r_size is the register block's size when
 * r_known. */
static inline enum tfile_block_fault tl_tfile_next_block(struct tl_cursor *frame, bool big, bool r_known,
					   uint64_t r_size, struct tfile_block *b)
{
	memset(b, 0, sizeof *b);
	b->at = tl_cursor_offset(frame);
	if (!tl_cursor_u8(frame, &b->type))
		return TFILE_BLOCK_OVERRUN;
	b->left = tl_cursor_left(frame);
	switch (b->type) {
	case 'R':
		if (!r_known)
			return TFILE_BLOCK_R_SIZE_UNKNOWN;
		if (r_size > b->left)
			return TFILE_BLOCK_OVERRUN;
		b->data_size = (size_t)r_size;
		return tl_cursor_bytes(frame, b->data_size, &b->data) ? TFILE_BLOCK_OK
								      : TFILE_BLOCK_OVERRUN;
	case 'M':
		if (!tl_cursor_u64(frame, big, &b->address) || !tl_cursor_u16(frame, big, &b->length) ||
		    !tl_cursor_bytes(frame, b->length, &b->data))
			return TFILE_BLOCK_OVERRUN;
		b->data_size = b->length;
		return TFILE_BLOCK_OK;
	case 'V':
		if (!tl_cursor_u32(frame, big, &b->number) || !tl_cursor_u64(frame, big, &b->value))
			return TFILE_BLOCK_OVERRUN;
		return TFILE_BLOCK_OK;
	default:
		return TFILE_BLOCK_BAD_TYPE;
	}
}

/* Whether the blocks tile the frame exactly. */
static inline bool tl_tfile_blocks_tile(struct tl_cursor frame, bool big, bool r_known, uint64_t r_size)
{
	struct tfile_block b;
	while (tl_cursor_left(&frame) > 0)
		if (tl_tfile_next_block(&frame, big, r_known, r_size, &b) != TFILE_BLOCK_OK)
			return false;
	return true;
}

#endif
