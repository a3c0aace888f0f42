/* The bit layout of FDR records, in one place for the decoder, the probe,
 * the fast path, the text context, the repair command and the mutator.
 *
 * A record's first byte says what it is: in a little-endian file bit 0 is
 * set for a metadata record and bits 1-7 hold its kind; a big-endian file
 * (the writer's bit-fields laid out from the top) uses bit 7 and bits 0-6.
 * A function record's first 32-bit word holds the action in bits 1-3 and
 * the function ID in bits 4-31 (little-endian), or bits 28-30 and 0-27. */
#ifndef TL_XRAY_LAYOUT_H
#define TL_XRAY_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define XRAY_FUNCTION_ID_MAX UINT32_C(0x0fffffff)

static inline bool xray_first_is_metadata(uint8_t first, bool big)
{
	return big ? (first & 0x80u) != 0 : (first & 1u) != 0;
}

static inline unsigned xray_first_kind(uint8_t first, bool big)
{
	return big ? first & 0x7fu : (unsigned)first >> 1;
}

/* The first byte of a metadata record of kind (0..127). */
static inline uint8_t xray_metadata_first(unsigned kind, bool big)
{
	return big ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
}

static inline unsigned xray_word_action(uint32_t word, bool big)
{
	return big ? (word >> 28) & 7u : (word >> 1) & 7u;
}

static inline uint32_t xray_word_function_id(uint32_t word, bool big)
{
	return big ? word & XRAY_FUNCTION_ID_MAX : word >> 4;
}

/* The first word of a function record (action 0..7, fid at most XRAY_FUNCTION_ID_MAX). */
static inline uint32_t xray_function_word(unsigned action, uint32_t fid, bool big)
{
	return big ? (action & 7u) << 28 | fid : fid << 4 | (action & 7u) << 1;
}

#endif
