/* The timestamp checker: within a buffer, per CPU, the counter reached by
 * deltas and absolute values should not go backwards (decision D7), and a
 * function delta should fit the 31 bits writers allow before a TSCWrap. */
#include "xray.h"

#include <inttypes.h>

#define MAX_FUNCTION_DELTA UINT32_C(0x7fffffff)

void tl_xray_tsc_begin(struct xray_tsc *t)
{
	t->have_base = false;
	t->cpu = 0;
	t->now = 0;
	for (size_t i = 0; i < XRAY_TSC_CPUS; i++)
		t->per_cpu[i].used = false;
}

/* A small direct-mapped table: CPUs that collide simply forget each other. */
static size_t slot_of(uint16_t cpu)
{
	return cpu % XRAY_TSC_CPUS;
}

static void report_backwards(const struct xray_run *run, const struct xray_record *rec,
			     uint16_t cpu, uint64_t reached)
{
	struct tl_location at = tl_at_record(rec->offset, rec->index);
	tl_report(run->ctx, RULE_XRAY_FDR_TSC_BACKWARDS, &at,
		  MSG_XRAY_FDR_TSC_BACKWARDS, (unsigned)cpu, reached, run->buf->index,
		  tl_xray_kind_name(rec->kind), rec->tsc);
}

static void remember(struct xray_tsc *t)
{
	if (!t->have_base)
		return;
	size_t s = slot_of(t->cpu);
	t->per_cpu[s].used = true;
	t->per_cpu[s].cpu = t->cpu;
	t->per_cpu[s].last = t->now;
}

static void new_cpu(struct xray_tsc *t, const struct xray_run *run, const struct xray_record *rec)
{
	remember(t);
	uint16_t cpu = (uint16_t)rec->value;
	size_t s = slot_of(cpu);
	if (t->per_cpu[s].used && t->per_cpu[s].cpu == cpu && rec->tsc < t->per_cpu[s].last)
		report_backwards(run, rec, cpu, t->per_cpu[s].last);
	t->cpu = cpu;
	t->now = rec->tsc;
	t->have_base = true;
}

static void advance(struct xray_tsc *t, int64_t delta)
{
	if (delta >= 0)
		t->now = UINT64_MAX - t->now < (uint64_t)delta ? UINT64_MAX : t->now + (uint64_t)delta;
	else
		t->now = t->now < (uint64_t)-(delta + 1) + 1 ? 0 : t->now - ((uint64_t)-(delta + 1) + 1);
}

static void function(struct xray_tsc *t, const struct xray_run *run, const struct xray_record *rec)
{
	if (rec->tsc_delta > MAX_FUNCTION_DELTA) {
		struct tl_location at = tl_at_record(rec->offset + 4, rec->index);
		tl_report(run->ctx, RULE_XRAY_FDR_TSC_DELTA_RANGE, &at,
			  MSG_XRAY_FDR_TSC_DELTA_RANGE, rec->tsc_delta,
			  tl_xray_action_name(rec->action));
	}
	advance(t, rec->tsc_delta);
}

void tl_xray_tsc_record(struct xray_tsc *t, const struct xray_run *run,
		     const struct xray_record *rec)
{
	if (!rec->metadata) {
		if (t->have_base)
			function(t, run, rec);
		return;
	}
	switch (rec->kind) {
	case XRAY_NEW_CPU:
		new_cpu(t, run, rec);
		break;
	case XRAY_TSC_WRAP:
		if (t->have_base && rec->tsc < t->now)
			report_backwards(run, rec, t->cpu, t->now);
		t->now = rec->tsc;
		t->have_base = true;
		break;
	case XRAY_CUSTOM_EVENT:
	case XRAY_TYPED_EVENT:
		if (t->have_base && rec->has_event_delta)
			advance(t, rec->event_delta);
		break;
	default:
		break;
	}
}
