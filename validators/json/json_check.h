/* Shared checks on top of the JSON tree for DCFG and DCFG-trace: reporting
 * at a node (line:column and JSON Pointer), integers in the spec's two
 * spellings, duplicate keys, and the header-row table convention. */
#ifndef TL_JSON_CHECK_H
#define TL_JSON_CHECK_H

#include "context.h"
#include "cursor.h"
#include "json_lex.h"
#include "json_tree.h"

struct tl_json_check {
	struct tl_ctx *ctx;   /* NULL: check silently (pair file loaded for reference) */
	struct tl_json_doc doc;
	bool failed;          /* a silent check found an error */
	bool nomem;           /* memory ran out: the check is incomplete */
	const struct tl_input *in; /* mapped input (pages released as rows are read), or NULL */
};

void tl_jv_report(struct tl_json_check *v, enum tl_rule_id rule, uint32_t node, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Same, at byte delta inside a string node (same line: JSON strings hold no newline). */
void tl_jv_report_in(struct tl_json_check *v, enum tl_rule_id rule, uint32_t node, uint32_t delta, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* At the value in position pos of a row (a node, or a pin whose row may be
 * gone; pos is a header position, struct tl_json_table's pos[]), or at the row when
 * pos is negative or the value cannot be found. Located only when the
 * diagnostic is shown, in time bounded by the row's length. */
void tl_jv_report_cell(struct tl_json_check *v, enum tl_rule_id rule, uint32_t row, int pos, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Same, at entry index of the array in position pos (an entry of
 * COUNT_PER_THREAD, of EXIT_NODE_IDS). */
void tl_jv_report_entry(struct tl_json_check *v, enum tl_rule_id rule, uint32_t row, int pos, uint32_t index, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Pass 1 over the text (arrays under the lazy keys are read row by row
 * later); reports JSON-SYNTAX / JSON-DEPTH; false when unusable. */
/* Memory ran out: the document is not checked further and, when reporting,
 * the validation ends without a verdict. */
void tl_jv_out_of_memory(struct tl_json_check *v);
bool tl_jv_parse(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_json_lazy_key *lazy, size_t nlazy);
/* The same, keeping only the values of the known top-level keys: any other
 * key's value is checked as JSON and not built (JF_DROPPED), so that what
 * a reader ignores costs no memory. */
bool tl_jv_parse_known(struct tl_json_check *v, const uint8_t *data, size_t size, const struct tl_json_lazy_key *lazy, size_t nlazy,
		       const char *const *known, size_t nknown);

/* Reports a repeated key in every object of the document, lazy tables
 * included (JSON-DUPLICATE-KEY; found by pass 1). */
void tl_jv_check_duplicate_keys(struct tl_json_check *v);

/* Reads an integer field: JSON integer or "0x.." string (decimal strings
 * warn). Reports JSON-INTEGER and returns false when it is not one or is
 * outside [lo, hi]. */
bool tl_jv_int_read(struct tl_json_check *v, uint32_t node, uint64_t lo, uint64_t hi, const char *what, uint64_t *out);

/* The same, with the common case inline: most cells of a DCFG's tables are
 * JSON integers of at most 8 digits inside their range, and the call, the
 * checks and the reports' set-up cost more than reading one. Anything else
 * goes to tl_jv_int_read, which gives the same value for these. */
static inline bool tl_jv_int(struct tl_json_check *v, uint32_t node, uint64_t lo, uint64_t hi, const char *what, uint64_t *out)
{
#ifdef JLEX_SWAR_DIGITS
	const struct tl_json_node *n = jn(&v->doc, node);
	uint64_t x;
	if (n->type == J_NUM && n->count <= 8 && v->doc.size - n->off >= 8 &&
	    jlex_small_int(v->doc.buf + n->off, n->count, &x) && x >= lo && x <= hi) {
		*out = x;
		return true;
	}
#endif
	return tl_jv_int_read(v, node, lo, hi, what, out);
}

/* "a string", "an array", ... for messages. */
const char *tl_json_type_name(enum tl_json_type t);

/* Type checks (JSON-TYPE). */
bool tl_jv_expect(struct tl_json_check *v, uint32_t node, enum tl_json_type type, const char *what);

/* Checks the keys of an object against the known ones (JSON-UNKNOWN-KEY). */
void tl_jv_known_keys(struct tl_json_check *v, uint32_t obj, const char *const *keys, size_t n, const char *what);

#define TABLE_MAX_COLS 16
#define TABLE_MAX_POS 32 /* header positions with a direct lookup in rows */

struct tl_json_column {
	const char *name;
	bool required;
};

struct tl_json_table {
	uint32_t node;
	const struct tl_json_column *cols;
	size_t ncols;
	uint32_t header_len;
	int pos[TABLE_MAX_COLS];      /* header position of each known column, -1 if absent */
	int max_required_pos;         /* rows must reach past every required column */
	int8_t col_at[TABLE_MAX_POS]; /* known column at each early header position, -1 */
};

/* Opens a table (JSON-TABLE, JSON-TABLE-COLUMN, JSON-UNKNOWN-KEY on the
 * header). ordered: the known columns must appear in the given order
 * (DCFG-trace, rule DTRACE-COLUMN-ORDER). False when no row can be read. */
bool tl_dcfg_table_open(struct tl_json_check *v, uint32_t node, const struct tl_json_column *cols, size_t ncols,
		const char *what, bool ordered, struct tl_json_table *t);

/* Fills cell[k] with the node of known column k in row (JNONE if omitted).
 * Reports a bad row and returns false. In a lazy table this reads the row:
 * the cells of the previously read row are then gone. */
bool tl_dcfg_table_row(struct tl_json_check *v, const struct tl_json_table *t, uint32_t row, uint32_t *cell);

static inline uint32_t table_first_row(struct tl_json_check *v, const struct tl_json_table *t)
{
	uint32_t h = jn(&v->doc, t->node)->first;
	return h == JNONE ? JNONE : jsibling(&v->doc, h);
}

static inline uint32_t jnext(const struct tl_json_check *v, uint32_t node) { return jsibling(&v->doc, node); }

#endif
