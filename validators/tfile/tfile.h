/* GDB trace file (tfile) validator: shared state of the description pass,
 * the frame pass and their payload grammars. See specs/tfile.md. */
#ifndef TL_TFILE_H
#define TL_TFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "tfile_text.h"
#include "window.h"

#define TFILE_HEADER_SIZE 8
#define TFILE_MAX_LINE 999          /* longest line GDB's reader accepts */
#define TFILE_R_SIZE_WARN 0x10000u  /* GDB puts the register block on its stack */
#define TFILE_MAX_TPNUM 0x7fff      /* frames hold the number in a signed 16-bit field */

/* One tsv line, kept until the description ends to find duplicates. */
struct tfile_tsv {
	uint32_t number;
	uint32_t line;
	uint64_t offset;
	char *name;   /* decoded */
};

/* One tp piece of a location, kept to check cross-references at the end. */
enum tfile_piece { TFILE_PIECE_T, TFILE_PIECE_A, TFILE_PIECE_S, TFILE_PIECE_Z_AT,
		   TFILE_PIECE_Z_COND, TFILE_PIECE_Z_CMD, TFILE_PIECE_V };

struct tfile_piece_rec {
	uint32_t number;
	uint64_t address;
	enum tfile_piece kind;
	uint32_t line;
	uint64_t offset;
	uint32_t step_count;    /* T only */
	bool has_condition;     /* T only */
};

struct tfile_tdesc; /* XML checker, tfile_tdesc.c */

/* A line the description may hold once (R, status): how many there were, and
 * where the first stands (its line, and the offset of its key). */
struct tfile_once {
	uint32_t count;
	uint32_t line;
	uint64_t offset;
};

/* What the description section says, for the frame pass and final checks. */
struct tfile_desc {
	struct tfile_once r;
	bool r_valid;
	uint64_t r_size;          /* from the first valid R line */
	bool r_decimal_valid;     /* the R text is all decimal digits */
	uint64_t r_size_decimal;

	struct tfile_once status;
	bool has_tframes, has_tcreated, has_tfree, has_tsize;
	uint64_t tframes, tcreated, tfree, tsize;

	struct tfile_tsv *tsvs;
	size_t tsv_count, tsv_cap;
	uint32_t *tsv_numbers;    /* sorted, for V blocks */

	struct tfile_piece_rec *pieces;
	size_t piece_count, piece_cap;
	uint16_t *tp_numbers;     /* sorted numbers of T pieces, for frames */
	size_t tp_number_count;

	struct tfile_tdesc *tdesc;
	int arch_endian;          /* 0 unknown, 1 little, 2 big: from <architecture> */
	bool arch_32bit;

	bool out_of_memory;
};

/* tfile_desc.c: the description section; returns the offset of the first
 * frame byte, or 0 when the section is unterminated (reported). */
uint64_t tl_tfile_read_description(struct tl_ctx *ctx, const struct tl_input *in,
				struct tfile_desc *desc);
/* Checks that need every line: duplicates and cross-references. */
void tl_tfile_finish_description(struct tl_ctx *ctx, struct tfile_desc *desc);
void tl_tfile_desc_free(struct tfile_desc *desc);

/* Payload grammars, one per line prefix (the text excludes the prefix). */
/* Counts a line of once; true for the first (remembered, its key keylen
 * bytes before t's payload), a later one reported as rule, naming the first. */
bool tl_tfile_once(struct tl_ctx *ctx, struct tfile_once *once, const struct tfile_text *t,
		   unsigned keylen, enum tl_rule_id rule, const char *what);
void tl_tfile_check_r(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t);
void tl_tfile_check_status(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t);
void tl_tfile_check_tsv(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t);
void tl_tfile_check_tp(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t);
bool tl_tfile_check_actions(struct tfile_text *t, char *why, size_t whylen);

/* tfile_tdesc.c */
struct tfile_tdesc *tl_tfile_tdesc_new(void);
void tl_tfile_tdesc_line(struct tl_ctx *ctx, struct tfile_tdesc *x, const struct tfile_text *t);
void tl_tfile_tdesc_finish(struct tl_ctx *ctx, struct tfile_tdesc *x, struct tfile_desc *desc);
void tl_tfile_tdesc_free(struct tfile_tdesc *x);

/* tfile_frames.c */
struct tfile_frame_result {
	uint64_t frames;
	bool complete;   /* the walk reached the end marker: frames is the real count */
};
/* How the byte order was chosen: "given" (--endian), "detected" or "assumed"
 * (nothing told the orders apart: TFILE-ENDIAN-GUESSED). */
const char *tl_tfile_choose_endian(struct tl_ctx *ctx, const struct tl_input *in, uint64_t start,
				   const struct tfile_desc *desc, bool *big);

/* The frame walk in steps, for a stream: frames are walked as they are
 * complete; the end marker, and whatever a frame lacks, wait for the final
 * step (the marker's check looks at every byte after it). */
struct tfile_frame_walk {
	struct tl_ctx *ctx;
	const struct tfile_desc *desc;
	bool big;
	uint64_t index;                     /* frame number, 0-based */
	uint8_t undefined_reported[(TFILE_MAX_TPNUM + 1) / 8];
	bool r_unknown_reported, r_repeated_reported, m_empty_reported, m_addr32_reported;
	bool v_undefined_reported, r_decimal_checked;
	uint64_t at;                        /* the next frame header */
	bool done;
	struct tfile_frame_result out;
};
void tl_tfile_frames_begin(struct tfile_frame_walk *w, struct tl_ctx *ctx, const struct tfile_desc *desc,
			   bool big, uint64_t start);
void tl_tfile_frames_step(struct tfile_frame_walk *w, const struct tl_input *in, bool final);

/* Opens win over in for the frame walks: in place when in is mapped or in
 * memory, else through a read buffer of cap bytes (0: the default) for an
 * input with only a descriptor. flat is the window's view of in and must
 * outlive it (tfile_window.c). */
void tl_tfile_window_open(struct tl_window *win, struct tl_input *flat, const struct tl_input *in,
			  size_t cap);

/* Lookups for the frame pass (binary search over sorted tables). */
bool tl_tfile_tp_defined(const struct tfile_desc *desc, uint16_t number);
bool tl_tfile_tsv_defined(const struct tfile_desc *desc, uint32_t number);

/* The text context's field and decoded frame or block (struct tl_format's
 * describe; tfile_describe.c). */
struct tl_field_view;
void tl_tfile_describe(const struct tl_diagnostic *d,
		       size_t (*read)(void *file, uint64_t off, uint8_t *buf, size_t n), void *file,
		       struct tl_field_view *view);

#endif
