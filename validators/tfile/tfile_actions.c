/* Collect actions of tp A and S pieces, as GDB sends them in QTDP:
 * R<mask> registers, M<basereg>,<offset>,<len> memory, X<len>,<bytecode>
 * expression, L static marker data. One piece may chain several. */
#include <stdio.h>

#include "tfile.h"

static bool memory_action(struct tfile_text *t)
{
	uint64_t v;
	tfile_text_eat(t, '-'); /* base register -1 means an absolute address */
	return tl_tfile_text_hex(t, 16, &v) && tfile_text_eat(t, ',') && tl_tfile_text_hex(t, 16, &v) &&
	       tfile_text_eat(t, ',') && tl_tfile_text_hex(t, 8, &v);
}

static bool expression_action(struct tfile_text *t)
{
	uint64_t len;
	if (!tl_tfile_text_hex(t, 8, &len) || len == 0 || !tfile_text_eat(t, ','))
		return false;
	size_t start = t->pos;
	if (tl_tfile_text_hex_run(t) != 2 * len) {
		t->pos = start;
		return false;
	}
	return true;
}

bool tl_tfile_check_actions(struct tfile_text *t, char *why, size_t whylen)
{
	if (tfile_text_end(t)) {
		snprintf(why, whylen, "a collect action R, M, X or L");
		return false;
	}
	while (!tfile_text_end(t)) {
		int action = tfile_text_peek(t);
		size_t start = t->pos;
		t->pos++;
		bool ok;
		switch (action) {
		case 'R':
			ok = tl_tfile_text_hex_run(t) > 0;
			snprintf(why, whylen, "a register mask in hex after R");
			break;
		case 'M':
			ok = memory_action(t);
			snprintf(why, whylen, "M<hex basereg or -1>,<hex offset>,<hex length>");
			break;
		case 'X':
			ok = expression_action(t);
			snprintf(why, whylen, "X<hexlen>,<exactly 2*len hex digits of bytecode>");
			break;
		case 'L':
			ok = true;
			break;
		default:
			t->pos = start;
			snprintf(why, whylen, "a collect action R, M, X or L");
			return false;
		}
		if (!ok)
			return false;
	}
	return true;
}
