/* The call-stack checker: per buffer, because each buffer of a flight
 * recorder starts with the thread's stack unknown (decision D6). */
#include "xray.h"

#include <inttypes.h>

void tl_xray_stack_begin(struct xray_stack *s)
{
	s->depth = 0;
}

static void report(const struct xray_run *run, const struct xray_record *rec, uint32_t top,
		   uint64_t depth, const char *what)
{
	struct tl_location at = tl_at_record(rec->offset, rec->index);
	tl_report(run->ctx, RULE_XRAY_FDR_EXIT_MISMATCH, &at,
		  MSG_XRAY_FDR_EXIT_MISMATCH,
		  tl_xray_action_name(rec->action), top, depth, run->buf->index, run->buf->tid,
		  tl_xray_action_name(rec->action), rec->function_id, what);
}

static void leave(struct xray_stack *s, const struct xray_run *run, const struct xray_record *rec)
{
	if (s->depth == 0)
		return; /* entered before this buffer began: normal in a ring */
	if (s->depth > XRAY_STACK_FRAMES) {
		s->depth--; /* too deep to remember; only counted */
		return;
	}
	uint32_t top = s->frames[s->depth - 1];
	if (top == rec->function_id) {
		s->depth--;
		return;
	}
	for (uint64_t i = s->depth - 1; i-- > 0;) {
		if (s->frames[i] == rec->function_id) {
			report(run, rec, top, s->depth, ", entered further out: unwinding to it");
			s->depth = i;
			return;
		}
	}
	report(run, rec, top, s->depth, ", which is not open in this buffer");
}

void tl_xray_stack_record(struct xray_stack *s, const struct xray_run *run,
		       const struct xray_record *rec)
{
	if (rec->metadata)
		return;
	switch (rec->action) {
	case XRAY_ENTRY:
	case XRAY_ENTRY_ARGS:
		if (s->depth < XRAY_STACK_FRAMES)
			s->frames[s->depth] = rec->function_id;
		if (s->depth < UINT64_MAX)
			s->depth++;
		break;
	case XRAY_EXIT:
	case XRAY_TAIL_EXIT:
		leave(s, run, rec);
		break;
	default:
		break; /* undefined actions are the grammar's finding */
	}
}
