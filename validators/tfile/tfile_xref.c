/* Checks that need the whole description: a single R line, a status line,
 * unique trace state variables, and tracepoint locations whose pieces agree.
 * Also builds the sorted lookup tables the frame pass uses. */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "tfile.h"

static const char *const piece_names[] = { "T", "A", "S", "Z at", "Z cond", "Z cmd", "V" };

static int by_number(const void *a, const void *b)
{
	const struct tfile_tsv *x = a, *y = b;
	return tl_cmp_u64_pair(x->number, x->line, y->number, y->line);
}

static int by_name(const void *a, const void *b)
{
	const struct tfile_tsv *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : tl_cmp_u64(x->line, y->line);
}

static int by_location(const void *a, const void *b)
{
	const struct tfile_piece_rec *x = a, *y = b;
	int c = tl_cmp_u64(x->number, y->number);
	return c ? c : tl_cmp_u64_pair(x->address, x->line, y->address, y->line);
}

static int compare_u32(const void *a, const void *b)
{
	return tl_cmp_u64(*(const uint32_t *)a, *(const uint32_t *)b);
}

static int compare_u16(const void *a, const void *b)
{
	return tl_cmp_u64(*(const uint16_t *)a, *(const uint16_t *)b);
}

static void check_tsvs(struct tl_ctx *ctx, struct tfile_desc *desc)
{
	size_t n = desc->tsv_count;
	if (n == 0)
		return;
	qsort(desc->tsvs, n, sizeof *desc->tsvs, by_number);
	for (size_t i = 1; i < n; i++) {
		const struct tfile_tsv *prev = &desc->tsvs[i - 1], *cur = &desc->tsvs[i];
		if (prev->number != cur->number)
			continue;
		struct tl_location loc = tl_at_text(cur->offset, cur->line, 1);
		tl_report(ctx, RULE_TFILE_TSV_DUPLICATE_NUMBER, &loc,
			  MSG_TFILE_TSV_DUPLICATE_NUMBER,
			  cur->number, prev->line);
	}
	desc->tsv_numbers = malloc(n * sizeof *desc->tsv_numbers);
	if (!desc->tsv_numbers) {
		desc->out_of_memory = true;
	} else {
		for (size_t i = 0; i < n; i++)
			desc->tsv_numbers[i] = desc->tsvs[i].number;
	}
	qsort(desc->tsvs, n, sizeof *desc->tsvs, by_name);
	for (size_t i = 1; i < n; i++) {
		const struct tfile_tsv *prev = &desc->tsvs[i - 1], *cur = &desc->tsvs[i];
		if (strcmp(prev->name, cur->name) != 0 || cur->name[0] == '\0')
			continue;
		char q[64];
		struct tl_location loc = tl_at_text(cur->offset, cur->line, 1);
		tl_report(ctx, RULE_TFILE_TSV_DUPLICATE_NAME, &loc,
			  MSG_TFILE_TSV_DUPLICATE_NAME,
			  tl_quote(q, sizeof q, (const uint8_t *)cur->name, strlen(cur->name)), prev->line);
	}
}

/* One location: the pieces [first, end) share number and address. */
static void check_location(struct tl_ctx *ctx, const struct tfile_piece_rec *p, size_t count)
{
	const struct tfile_piece_rec *t = NULL, *at = NULL, *cond = NULL;
	for (size_t i = 0; i < count; i++) {
		const struct tfile_piece_rec *r = &p[i];
		struct tl_location loc = tl_at_text(r->offset, r->line, 1);
		const struct tfile_piece_rec **first =
			r->kind == TFILE_PIECE_T ? &t : r->kind == TFILE_PIECE_Z_AT ? &at
			: r->kind == TFILE_PIECE_Z_COND ? &cond : NULL;
		if (!first)
			continue;
		if (*first) {
			tl_report(ctx, r->kind == TFILE_PIECE_T ? RULE_TFILE_TP_T_DUPLICATE
								  : RULE_TFILE_TP_Z_DUPLICATE, &loc,
				  MSG_TFILE_CHECK_LOCATION, piece_names[r->kind], r->number,
				  (unsigned long long)r->address, (*first)->line);
		} else {
			*first = r;
		}
	}
	if (!t) {
		struct tl_location loc = tl_at_text(p[0].offset, p[0].line, 1);
		tl_report(ctx, RULE_TFILE_TP_NO_T, &loc,
			  MSG_TFILE_TP_NO_T, p[0].number,
			  (unsigned long long)p[0].address, piece_names[p[0].kind]);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		if (p[i].kind != TFILE_PIECE_S || t->step_count > 0)
			continue;
		struct tl_location loc = tl_at_text(p[i].offset, p[i].line, 1);
		tl_report(ctx, RULE_TFILE_TP_STEP_ACTION, &loc,
			  MSG_TFILE_TP_STEP_ACTION, t->line);
		break;
	}
	if (t->has_condition && !cond) {
		struct tl_location loc = tl_at_text(t->offset, t->line, 1);
		tl_report(ctx, RULE_TFILE_TP_COND_SOURCE, &loc,
			  MSG_TFILE_TP_COND_SOURCE, t->number);
	}
}

static void check_locations(struct tl_ctx *ctx, struct tfile_desc *desc)
{
	size_t n = desc->piece_count;
	if (n == 0)
		return;
	qsort(desc->pieces, n, sizeof *desc->pieces, by_location);
	desc->tp_numbers = malloc(n * sizeof *desc->tp_numbers);
	if (!desc->tp_numbers)
		desc->out_of_memory = true;
	size_t first = 0;
	for (size_t i = 1; i <= n; i++) {
		if (i < n && desc->pieces[i].number == desc->pieces[first].number &&
		    desc->pieces[i].address == desc->pieces[first].address)
			continue;
		check_location(ctx, desc->pieces + first, i - first);
		first = i;
	}
	for (size_t i = 0; i < n && desc->tp_numbers; i++)
		if (desc->pieces[i].kind == TFILE_PIECE_T)
			desc->tp_numbers[desc->tp_number_count++] = (uint16_t)desc->pieces[i].number;
	if (desc->tp_numbers)
		qsort(desc->tp_numbers, desc->tp_number_count, sizeof *desc->tp_numbers, compare_u16);
}

void tl_tfile_finish_description(struct tl_ctx *ctx, struct tfile_desc *desc)
{
	struct tl_location start = tl_at_text(TFILE_HEADER_SIZE, 1, 1);
	if (desc->r.count == 0)
		tl_report(ctx, RULE_TFILE_R_MISSING, &start,
			  MSG_TFILE_R_MISSING);
	if (desc->status.count == 0)
		tl_report(ctx, RULE_TFILE_STATUS_MISSING, &start,
			  MSG_TFILE_STATUS_MISSING);
	check_tsvs(ctx, desc);
	check_locations(ctx, desc);
	if (desc->tsv_numbers)
		qsort(desc->tsv_numbers, desc->tsv_count, sizeof *desc->tsv_numbers, compare_u32);
	if (desc->tdesc)
		tl_tfile_tdesc_finish(ctx, desc->tdesc, desc);
}

bool tl_tfile_tp_defined(const struct tfile_desc *desc, uint16_t number)
{
	return desc->tp_numbers &&
	       bsearch(&number, desc->tp_numbers, desc->tp_number_count, sizeof number, compare_u16);
}

bool tl_tfile_tsv_defined(const struct tfile_desc *desc, uint32_t number)
{
	return desc->tsv_numbers &&
	       bsearch(&number, desc->tsv_numbers, desc->tsv_count, sizeof number, compare_u32);
}
