/* tp lines: the pieces T, A, S, Z, V of a tracepoint location. Each piece is
 * recorded so tfile_xref.c can check locations across lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfile.h"
#include "grow.h"

static void add_piece(struct tfile_desc *desc, const struct tfile_piece_rec *rec)
{
	struct tfile_piece_rec *grown = tl_grow_array(desc->pieces, &desc->piece_cap, desc->piece_count, sizeof *grown, 32);
	if (!grown) {
		desc->out_of_memory = true;
		return;
	}
	desc->pieces = grown;
	desc->pieces[desc->piece_count++] = *rec;
}

/* Short for the many grammar errors of a tp line. */
static bool fail(struct tl_ctx *ctx, enum tl_rule_id rule, struct tfile_text *t, const char *what)
{
	return tl_tfile_text_expected(ctx, rule, t, what);
}

/* X<hexlen>,<2*len hex digits>: agent bytecode, shared by T and actions. */
static bool bytecode(struct tfile_text *t)
{
	uint64_t len;
	if (!tl_tfile_text_hex(t, 8, &len) || len == 0 || !tfile_text_eat(t, ','))
		return false;
	size_t start = t->pos;
	size_t digits = tl_tfile_text_hex_run(t);
	if (digits != 2 * len) {
		t->pos = start;
		return false;
	}
	return true;
}

static bool check_t(struct tl_ctx *ctx, struct tfile_text *t, struct tfile_piece_rec *rec)
{
	enum tl_rule_id r = RULE_TFILE_TP_T_SYNTAX;
	uint64_t step, pass, fast;
	int flag = tfile_text_peek(t);
	if (flag != 'E' && flag != 'D')
		return fail(ctx, r, t, "the enabled flag E or D");
	t->pos++;
	if (!tfile_text_eat(t, ':') || !tl_tfile_text_hex(t, 8, &step))
		return fail(ctx, r, t, "':' and the while-stepping count in hex");
	if (!tfile_text_eat(t, ':') || !tl_tfile_text_hex(t, 8, &pass))
		return fail(ctx, r, t, "':' and the pass count in hex");
	rec->step_count = (uint32_t)step;
	bool seen_f = false, seen_x = false, seen_s = false;
	while (tfile_text_eat(t, ':')) {
		int option = tfile_text_peek(t);
		if (option == 'F' && !seen_f) {
			t->pos++;
			seen_f = true;
			if (!tl_tfile_text_hex(t, 8, &fast))
				return fail(ctx, r, t, "the fast tracepoint instruction length in hex after F");
		} else if (option == 'X' && !seen_x) {
			t->pos++;
			seen_x = true;
			if (!bytecode(t))
				return fail(ctx, r, t, "a condition X<hexlen>,<exactly 2*len hex digits>");
			rec->has_condition = true;
		} else if (option == 'S' && !seen_s) {
			t->pos++;
			seen_s = true;
		} else {
			return fail(ctx, r, t, "an option F<hex>, X<len>,<bytecode> or S, each at most once");
		}
	}
	if (!tfile_text_end(t))
		return fail(ctx, r, t, "':' and an option, or the end of the line");
	return true;
}

/* Z: TYPE:HEXSTART:HEXLEN:HEXTEXT. */
static bool check_z(struct tl_ctx *ctx, struct tfile_text *t, struct tfile_piece_rec *rec)
{
	enum tl_rule_id r = RULE_TFILE_TP_Z_SYNTAX;
	struct tfile_text type = tl_tfile_text_until(t, ':');
	if (type.len == 2 && memcmp(type.p, "at", 2) == 0)
		rec->kind = TFILE_PIECE_Z_AT;
	else if (type.len == 4 && memcmp(type.p, "cond", 4) == 0)
		rec->kind = TFILE_PIECE_Z_COND;
	else if (type.len == 3 && memcmp(type.p, "cmd", 3) == 0)
		rec->kind = TFILE_PIECE_Z_CMD;
	else
		return fail(ctx, r, &type, "the source type at, cond or cmd");
	uint64_t start, len;
	if (!tfile_text_eat(t, ':') || !tl_tfile_text_hex(t, 8, &start))
		return fail(ctx, r, t, "':' and the start offset in hex");
	struct tl_location len_loc;
	if (!tfile_text_eat(t, ':') || (len_loc = tfile_text_loc(t), !tl_tfile_text_hex(t, 8, &len)))
		return fail(ctx, r, t, "':' and the text length in hex");
	if (!tfile_text_eat(t, ':'))
		return fail(ctx, r, t, "':' and the hex-encoded source text");
	struct tl_location text_loc = tfile_text_loc(t);
	size_t digits = tl_tfile_text_hex_run(t);
	if (!tfile_text_end(t))
		return fail(ctx, r, t, "hex digits up to the end of the line");
	if (digits % 2) {
		tl_report(ctx, r, &text_loc,
			  MSG_TFILE_TP_Z_SYNTAX, digits);
		return false;
	}
	if (digits / 2 != len)
		tl_report(ctx, RULE_TFILE_TP_Z_LENGTH, &len_loc,
			  MSG_TFILE_TP_Z_LENGTH,
			  digits / 2, (unsigned long long)len);
	return true;
}

static bool check_v(struct tl_ctx *ctx, struct tfile_text *t)
{
	uint64_t hits, bytes;
	if (!tl_tfile_text_hex(t, 16, &hits))
		return fail(ctx, RULE_TFILE_TP_V_SYNTAX, t, "the hit count as 1 to 16 hex digits");
	if (!tfile_text_eat(t, ':') || !tl_tfile_text_hex(t, 16, &bytes))
		return fail(ctx, RULE_TFILE_TP_V_SYNTAX, t,
			    "':' and the trace buffer usage as 1 to 16 hex digits");
	if (!tfile_text_end(t))
		return fail(ctx, RULE_TFILE_TP_V_SYNTAX, t, "the end of the line");
	return true;
}

void tl_tfile_check_tp(struct tl_ctx *ctx, struct tfile_desc *desc, struct tfile_text *t)
{
	struct tfile_piece_rec rec = { 0 };
	rec.line = t->line;
	rec.offset = t->offset - 3;
	int letter = tfile_text_peek(t);
	if (letter < 0 || !strchr("TASZV", letter)) {
		if (letter >= 'A' && letter <= 'Z') {
			char found[64];
			struct tl_location loc = tfile_text_loc(t);
			tl_report(ctx, RULE_TFILE_TP_PIECE, &loc,
				  MSG_TFILE_TP_PIECE,
				  tl_tfile_text_found(t, found, sizeof found));
		} else {
			fail(ctx, RULE_TFILE_TP_PREFIX, t, "a piece letter (T, A, S, Z or V)");
		}
		return;
	}
	t->pos++;
	uint64_t number, address;
	struct tl_location number_loc = tfile_text_loc(t);
	if (!tl_tfile_text_hex(t, 8, &number)) {
		fail(ctx, RULE_TFILE_TP_PREFIX, t, "the tracepoint number in hex");
		return;
	}
	if (!tfile_text_eat(t, ':') || !tl_tfile_text_hex(t, 16, &address) || !tfile_text_eat(t, ':')) {
		fail(ctx, RULE_TFILE_TP_PREFIX, t, "':', the address as 1 to 16 hex digits and ':'");
		return;
	}
	if (!tl_tfile_number_in_range(ctx, RULE_TFILE_TP_NUMBER, &number_loc, number, TFILE_MAX_TPNUM,
				      "a tracepoint number", "frames hold it in a signed 16-bit field"))
		return;
	rec.number = (uint32_t)number;
	rec.address = address;
	bool ok;
	char why[96];
	switch (letter) {
	case 'T':
		rec.kind = TFILE_PIECE_T;
		ok = check_t(ctx, t, &rec);
		break;
	case 'A':
	case 'S':
		rec.kind = letter == 'A' ? TFILE_PIECE_A : TFILE_PIECE_S;
		ok = tl_tfile_check_actions(t, why, sizeof why);
		if (!ok)
			fail(ctx, RULE_TFILE_TP_ACTION, t, why);
		break;
	case 'Z':
		rec.kind = TFILE_PIECE_Z_CMD; /* check_z sets the real type */
		ok = check_z(ctx, t, &rec);
		break;
	default:
		rec.kind = TFILE_PIECE_V;
		ok = check_v(ctx, t);
		break;
	}
	/* A piece with bad syntax still names its location, so the location's
	 * frames and other pieces are not reported again; a Z piece whose type
	 * could not be read is left out of the per-type checks. */
	if (ok || letter != 'Z')
		add_piece(desc, &rec);
}
