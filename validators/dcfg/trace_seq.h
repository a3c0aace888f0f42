/* EDGE_ID_SEQUENCE strings (seed 3.7.1) as small item trees: literal runs
 * of modified-Base64 characters, "(N*...)" repeats and "<key>" dictionary
 * references. Nothing is ever expanded; each item knows its expanded bit
 * length (saturated at UINT64_MAX), which is enough to reject bombs. */
#ifndef TL_DCFG_TRACE_SEQ_H
#define TL_DCFG_TRACE_SEQ_H

#include "base64.h"
#include "idmap.h"
#include "json_check.h"

#define SEQ_MAX_NESTING 4096
#define BITS_INFINITE UINT64_MAX

enum tl_dcfg_item_kind { IT_LIT, IT_REP, IT_REF };

struct tl_dcfg_seq_item {
	uint8_t kind;
	uint32_t start;   /* LIT: first byte in the string */
	uint32_t len;     /* LIT: characters; REP: items in the body (which follow it) */
	uint32_t ref;     /* REF: dictionary entry */
	uint64_t reps;    /* REP: repeat count */
	uint64_t bits;    /* expanded length in bits, saturated */
};

struct tl_dcfg_seq {
	const uint8_t *text;  /* raw string bytes in the mapped file */
	struct tl_dcfg_seq_item *items;
	uint32_t n;
	uint64_t bits;
};

struct tl_dcfg_dict_entry {
	const uint8_t *key;
	uint32_t key_len;
	uint32_t key_node, value_node;
	struct tl_dcfg_seq seq;
	bool parsed;       /* syntax ok */
	uint8_t state;     /* cycle search: 0 new, 1 on path, 2 done */
	bool cyclic;
};

struct tl_dcfg_dict {
	struct tl_dcfg_dict_entry *e;
	uint32_t n;
	struct tl_dcfg_idmap by_hash;
};

/* Parses text (string node `node`) into s, resolving references in d
 * (d may be NULL while the dictionary itself is being parsed: references
 * are then resolved later by dict_resolve). Reports DTRACE-SEQ-SYNTAX,
 * DTRACE-REPEAT-COUNT, DTRACE-REPEAT-ZERO, DTRACE-NESTING, DTRACE-DICT-REF. */
bool tl_dcfg_seq_parse(struct tl_json_check *v, uint32_t node, const struct tl_dcfg_dict *d, struct tl_dcfg_seq *s);
void tl_dcfg_seq_free(struct tl_dcfg_seq *s);
/* Past the modified-Base64 characters of t[j..n): sixteen a step with SSE2
 * (literal runs are most of a sequence), and the portable path the tests
 * compare it with. */
uint32_t tl_dcfg_literal_end(const uint8_t *t, uint32_t j, uint32_t n);
uint32_t tl_dcfg_literal_end_scalar(const uint8_t *t, uint32_t j, uint32_t n);

/* Reads a STRING_DICTIONARY object: keys, values, references, cycles. */
void tl_dcfg_dict_read(struct tl_json_check *v, uint32_t obj, struct tl_dcfg_dict *d);
void tl_dcfg_dict_free(struct tl_dcfg_dict *d);
uint32_t tl_dcfg_dict_find(const struct tl_dcfg_dict *d, const uint8_t *key, uint32_t len);

/* Bits of a parsed sequence once its references are known. */
uint64_t tl_dcfg_seq_bits(struct tl_dcfg_seq *s, const struct tl_dcfg_dict *d);

#endif
