/* The status line: a qTStatus reply without its leading 'T'. */
#include <string.h>

#include "tfile.h"

enum status_kind { NUM32, NUM64, TEXT };

struct status_key {
	const char *name;
	enum status_kind kind;
};

static const char *const reasons[] = {
	"tunknown", "tnotrun", "tstop", "tfull", "tdisconnected", "tpasscount", "terror",
};

/* Order matters: the index is the bit in the "seen" mask. */
static const struct status_key keys[] = {
	{ "tframes", NUM32 }, { "tcreated", NUM32 }, { "tfree", NUM32 }, { "tsize", NUM32 },
	{ "disconn", NUM32 }, { "circular", NUM32 }, { "starttime", NUM64 },
	{ "stoptime", NUM64 }, { "notes", TEXT }, { "username", TEXT },
};

static bool text_is(const struct tfile_text *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && memcmp(t->p, s, n) == 0;
}

static int find_reason(const struct tfile_text *key)
{
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
		if (text_is(key, reasons[i]))
			return (int)i;
	return -1;
}

/* A hex number of the given width filling the whole of t. */
static bool check_number(struct tl_ctx *ctx, struct tfile_text *t, enum status_kind kind,
			 const char *what, uint64_t *out)
{
	char found[64];
	struct tl_location loc = tfile_text_loc(t);
	uint64_t v;
	if (!tl_tfile_text_hex(t, 16, &v) || !tfile_text_end(t) ||
	    (kind == NUM32 && v > UINT32_MAX)) {
		tl_report(ctx, RULE_TFILE_STATUS_NUMBER, &loc,
			  MSG_TFILE_STATUS_NUMBER, what,
			  kind == NUM32 ? "at most 32 bits" : "at most 64 bits",
			  tl_tfile_text_found(t, found, sizeof found));
		return false;
	}
	*out = v;
	return true;
}

/* Hex-encoded text of even length (possibly empty) filling the whole of t. */
static void check_text(struct tl_ctx *ctx, struct tfile_text *t, const char *what)
{
	char found[64];
	struct tl_location loc = tfile_text_loc(t);
	size_t n = tl_tfile_text_hex_run(t);
	if (!tfile_text_end(t)) {
		loc = tfile_text_loc(t);
		tl_report(ctx, RULE_TFILE_STATUS_TEXT, &loc,
			  MSG_TFILE_STATUS_TEXT, what,
			  tl_tfile_text_found(t, found, sizeof found));
	} else if (n % 2) {
		tl_report(ctx, RULE_TFILE_STATUS_TEXT, &loc,
			  MSG_TFILE_STATUS_TEXT_2, what, n);
	}
}

/* The value part of a stop reason field: ":HEXTEXT:HEXNUM" for terror (and
 * tstop, which may also be ":HEXNUM"), ":HEXNUM" for the others. */
static void check_reason_args(struct tl_ctx *ctx, int reason, struct tfile_text *value)
{
	const char *name = reasons[reason];
	bool takes_text = strcmp(name, "tstop") == 0 || strcmp(name, "terror") == 0;
	bool has_two = memchr(value->p, ':', value->len) != NULL;
	char found[64];
	uint64_t n;
	if (takes_text && has_two) {
		struct tfile_text text = tl_tfile_text_until(value, ':');
		tfile_text_eat(value, ':');
		check_text(ctx, &text, name[1] == 'e' ? "the error text" : "the stop note");
	} else if (strcmp(name, "terror") == 0 || has_two) {
		struct tl_location loc = tfile_text_loc(value);
		tl_report(ctx, RULE_TFILE_STATUS_REASON_ARGS, &loc,
			  MSG_TFILE_STATUS_REASON_ARGS, name,
			  takes_text ? "HEXTEXT:HEXNUM" : "HEXNUM", name,
			  tl_tfile_text_found(value, found, sizeof found));
		return;
	}
	struct tl_location loc = tfile_text_loc(value);
	if (!tl_tfile_text_hex(value, 8, &n) || !tfile_text_end(value))
		tl_report(ctx, RULE_TFILE_STATUS_REASON_ARGS, &loc,
			  MSG_TFILE_STATUS_REASON_ARGS_2, name,
			  tl_tfile_text_found(value, found, sizeof found));
}

static void record_value(struct tfile_desc *desc, const char *key, uint64_t v)
{
	if (strcmp(key, "tframes") == 0) {
		desc->has_tframes = true;
		desc->tframes = v;
	} else if (strcmp(key, "tcreated") == 0) {
		desc->has_tcreated = true;
		desc->tcreated = v;
	} else if (strcmp(key, "tfree") == 0) {
		desc->has_tfree = true;
		desc->tfree = v;
	} else if (strcmp(key, "tsize") == 0) {
		desc->has_tsize = true;
		desc->tsize = v;
	}
}

static void check_field(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *field,
			bool first, unsigned *seen)
{
	char found[64];
	struct tl_location at_field = tfile_text_loc(field);
	struct tfile_text key = tl_tfile_text_until(field, ':');
	if (!tfile_text_eat(field, ':') || key.len == 0) {
		tl_report(ctx, RULE_TFILE_STATUS_SYNTAX, &at_field,
			  MSG_TFILE_STATUS_SYNTAX,
			  tl_tfile_text_found(&key, found, sizeof found));
		return;
	}
	struct tfile_text value = { field->p + field->pos, field->len - field->pos, 0,
				    field->offset + field->pos, field->line,
				    field->column + (uint32_t)field->pos };
	int reason = find_reason(&key);
	if (first && reason < 0) {
		tl_report(ctx, RULE_TFILE_STATUS_REASON, &at_field,
			  MSG_TFILE_STATUS_REASON,
			  tl_tfile_text_found(&key, found, sizeof found));
		/* a known key is still checked as such below */
	} else if (reason >= 0) {
		if (!first)
			tl_report(ctx, RULE_TFILE_STATUS_REASON, &at_field,
				  MSG_TFILE_STATUS_REASON_2,
				  tl_tfile_text_found(&key, found, sizeof found));
		else
			check_reason_args(ctx, reason, &value);
		return;
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (!text_is(&key, keys[i].name))
			continue;
		if (*seen & (1u << i))
			tl_report(ctx, RULE_TFILE_STATUS_KEY_REPEATED, &at_field,
				  MSG_TFILE_STATUS_KEY_REPEATED,
				  keys[i].name);
		*seen |= 1u << i;
		uint64_t v;
		if (keys[i].kind == TEXT)
			check_text(ctx, &value, keys[i].name);
		else if (check_number(ctx, &value, keys[i].kind, keys[i].name, &v))
			record_value(desc, keys[i].name, v);
		return;
	}
	if (first)
		return; /* already reported as a missing stop reason */
	tl_report(ctx, RULE_TFILE_STATUS_KEY, &at_field,
		  MSG_TFILE_STATUS_KEY,
		  tl_tfile_text_found(&key, found, sizeof found));
}

void tl_tfile_check_status(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t)
{
	char found[64];
	if (!tl_tfile_once(ctx, &desc->status, t, 7, RULE_TFILE_STATUS_DUPLICATE, "status"))
		return;

	struct tl_location loc = tfile_text_loc(t);
	int running = tfile_text_peek(t);
	if ((running != '0' && running != '1') ||
	    (t->len > 1 && t->p[1] != ';')) {
		tl_report(ctx, RULE_TFILE_STATUS_RUNNING, &loc,
			  MSG_TFILE_STATUS_RUNNING,
			  tl_tfile_text_found(t, found, sizeof found));
		return;
	}
	t->pos = 1;
	bool first = true;
	unsigned seen = 0;
	while (tfile_text_eat(t, ';')) {
		struct tfile_text field = tl_tfile_text_until(t, ';');
		if (field.len == 0) {
			struct tl_location at = tfile_text_loc(&field);
			tl_report(ctx, RULE_TFILE_STATUS_SYNTAX, &at,
				  MSG_TFILE_STATUS_SYNTAX_2,
				  tl_tfile_text_found(&field, found, sizeof found));
		} else {
			check_field(ctx, desc, &field, first, &seen);
		}
		first = false;
	}
	if (first) {
		loc = tfile_text_loc(t);
		tl_report(ctx, RULE_TFILE_STATUS_REASON, &loc,
			  MSG_TFILE_STATUS_REASON_3,
			  tl_tfile_text_found(t, found, sizeof found));
	}
}
