/* The modified-Base64 alphabet of DCFG-trace edge-id sequences (A-Z a-z 0-9
 * + -, values 0..63), one table for the parser and the decoder: an entry is
 * the character's value with TL_DCFG_B64_VALID set, or 0. 256 entries, so a
 * byte indexes it unmasked. */
#ifndef TL_DCFG_BASE64_H
#define TL_DCFG_BASE64_H

#include <stdbool.h>
#include <stdint.h>

#define TL_DCFG_B64_VALID 0x80u

extern const uint8_t tl_dcfg_b64[256];

static inline bool tl_dcfg_b64_is(uint8_t c) { return (tl_dcfg_b64[c] & TL_DCFG_B64_VALID) != 0; }

/* The value of c, 0 for a character outside the alphabet. */
static inline uint32_t tl_dcfg_b64_bits(uint8_t c) { return tl_dcfg_b64[c] & 63u; }

#endif
