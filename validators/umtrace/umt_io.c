/* Bounds-checked reads, range tests and member-aware reporting. */
#include "umt.h"

#include "cursor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *const tl_umt_member_name[M_COUNT] = {
	"exec.vtable",    "exec.offsets",   "exec.prev_next.column", "ins.itable",
	"syscall.vtable", "syscall.offsets", "module.itable",        "thread.itable",
	"context_map.itable", "address_space.itable", "trace.xml",
};

bool tl_umt_inside(uint64_t start, uint64_t len, uint64_t lo, uint64_t hi)
{
	uint64_t end;
	return start >= lo && tl_add_u64(start, len, &end) && end <= hi;
}

bool tl_umt_fp_inside(uint64_t base, int64_t fp, int64_t len, uint64_t lo, uint64_t hi,
		   uint64_t *abs)
{
	if (fp < 0 || len < 0)
		return false;
	uint64_t a;
	if (!tl_add_u64(base, (uint64_t)fp, &a))
		return false;
	if (abs)
		*abs = a;
	return tl_umt_inside(a, (uint64_t)len, lo, hi);
}

static void vreport(struct umt_trace *t, enum umt_member m, enum tl_rule_id rule,
		    struct tl_location loc, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	loc.member = tl_umt_member_name[m];
	tl_report(t->ctx, rule, &loc, TL_MSG_RENDERED, msg);
}

void tl_umt_report(struct umt_trace *t, enum umt_member m, enum tl_rule_id rule, uint64_t off,
		const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(t, m, rule, tl_at(off), fmt, ap);
	va_end(ap);
}

void tl_umt_report_text(struct umt_trace *t, enum umt_member m, enum tl_rule_id rule,
		     uint64_t off, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(t, m, rule, tl_at_text(off, line, col), fmt, ap);
	va_end(ap);
}

uint8_t *tl_umt_bitmap_new(uint64_t bits)
{
	uint64_t bytes = bits / 8 + 1;
	if (bytes > SIZE_MAX)
		return NULL;
	return calloc((size_t)bytes, 1);
}

void tl_umt_drop_pages(struct umt_trace *t, enum umt_member m)
{
	if (t->have[m])
		tl_input_restart(&t->f[m]);
}
