/* The report: a summary matrix (our verdict against the reader's outcome),
 * one line per disagreement, and the mutation campaign, as Markdown or JSON. */
#include <stdio.h>
#include <string.h>

#include "validators/conform/conform.h"

/* Markdown table cells: no pipe, no backtick surprises. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '`')
			fputc('\'', f);
		else
			fputc(*s, f);
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void outcome_text(char *buf, size_t len, const struct run_result *r)
{
	switch (r->outcome) {
	case RUN_CRASHED:
		snprintf(buf, len, "crashed (signal %d)", r->code);
		break;
	case RUN_TIMEOUT:
		snprintf(buf, len, "timeout");
		break;
	default:
		snprintf(buf, len, "%s (exit %d)", run_outcome_name(r->outcome), r->code);
		break;
	}
}

static void count_rows(const struct report *r, unsigned matrix[2][RUN_OUTCOME_COUNT],
		       unsigned dis[DIS_COUNT])
{
	memset(matrix, 0, sizeof(unsigned) * 2 * RUN_OUTCOME_COUNT);
	memset(dis, 0, sizeof(unsigned) * DIS_COUNT);
	for (size_t i = 0; i < r->n_rows; i++) {
		matrix[r->rows[i].ours.reject][r->rows[i].run.outcome]++;
		dis[r->rows[i].dis]++;
	}
}

static void md_campaign(FILE *f, const struct campaign *c, const struct explanations *ex)
{
	fprintf(f, "\n## Differential campaign\n\n");
	fprintf(f, "%u mutants (of %u requested%s) of %u valid cases, `--seed=%llu`, mutator: %s; "
		   "%u rejected by tracelint; %.1f s (%.1f mutants/s).",
		c->done, c->requested, c->time_limited ? "; stopped at --max-time" : "", c->seeds, c->seed, c->mutator, c->oracle_reject, c->seconds,
		c->seconds > 0 ? c->done / c->seconds : 0.0);
	if (c->no_oracle[0])
		fprintf(f, " tracelint was not asked (%s): only crashes and hangs are judged.", c->no_oracle);
	else if (c->oracle_failed)
		fprintf(f, " tracelint could not validate %u mutants: for those only crashes and hangs count.",
			c->oracle_failed);
	fprintf(f, "\n\n| agree | lenient | strict | crash | hang |\n|---:|---:|---:|---:|---:|\n");
	fprintf(f, "| %u | %u | %u | %u | %u |\n", c->dis_count[DIS_AGREE], c->dis_count[DIS_LENIENT],
		c->dis_count[DIS_STRICT], c->dis_count[DIS_CRASH], c->dis_count[DIS_HANG]);
	if (!c->n_groups) {
		fprintf(f, "\nNo disagreement.\n");
		return;
	}
	fprintf(f, "\nBy class and the rule tracelint cites (or the signal):\n\n"
		   "| class | rule / signal | mutants | kept |%s\n|---|---|---:|---:|%s\n",
		ex ? " why |" : "", ex ? "---|" : "");
	for (size_t i = 0; i < c->n_groups; i++) {
		const struct find_group *g = &c->groups[i];
		fprintf(f, "| %s | ", disagreement_name(g->dis));
		md_cell(f, g->key);
		fprintf(f, " | %u | %u |", g->count, g->kept);
		if (ex) {
			const char *why = explanation_for(ex, g->dis, NULL, g->key);
			fputc(' ', f);
			md_cell(f, why ? why : "**unexplained**");
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fprintf(f, "\nKept mutants, minimised (in `%s`):\n\n"
		   "| file | class | rule | bytes (from) | seed case | reader | reader's first message line |%s\n"
		   "|---|---|---|---:|---|---|---|%s\n", c->out_dir, ex ? " why |" : "", ex ? "---|" : "");
	for (size_t i = 0; i < c->n_finds; i++) {
		const struct mutant_find *m = &c->finds[i];
		char out[64];
		outcome_text(out, sizeof out, &m->run);
		fprintf(f, "| %s | %s | %s | %zu (%zu) | %s | %s | ", m->file, disagreement_name(m->dis),
			m->ours.reject ? m->ours.rule : "-", m->min_size, m->size, m->seed_case, out);
		md_cell(f, m->run.message);
		fputs(" |", f);
		if (ex) {
			/* A mutant shares the reason of the case it came from or of the rule it breaks. */
			const char *why = explanation_for(ex, m->dis, m->seed_case, m->key);
			fputc(' ', f);
			md_cell(f, why ? why : "**unexplained**");
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}

static void md_corpus(FILE *f, const struct report *r);

/* --content: how many valid cases were compared, and the first difference of each that differs. */
static void content_counts(const struct report *r, unsigned *compared, unsigned *differ)
{
	*compared = *differ = 0;
	for (size_t i = 0; i < r->n_rows; i++) {
		*compared += r->rows[i].content != CONTENT_NOT_COMPARED;
		*differ += r->rows[i].content == CONTENT_DIFFERS;
	}
}

static void md_content(FILE *f, const struct report *r)
{
	unsigned compared, differ;
	content_counts(r, &compared, &differ);
	fprintf(f, "\n## Content\n\nValid cases the reader accepted whose decoded content was compared "
		   "with their expected content: %u; decoded differently: %u.\n", compared, differ);
	if (!differ)
		return;
	fprintf(f, "\n| case | first difference |%s\n|---|---|%s\n", r->explain ? " why |" : "",
		r->explain ? "---|" : "");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct corpus_row *row = &r->rows[i];
		if (row->content != CONTENT_DIFFERS)
			continue;
		fputs("| ", f);
		md_cell(f, row->c->name);
		fputs(" | ", f);
		md_cell(f, row->content_diff);
		fputs(" |", f);
		if (r->explain) {
			const char *why = content_explanation(r->explain, row->c->name);
			fputc(' ', f);
			md_cell(f, why ? why : "**unexplained**");
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}
static const char *row_explanation(const struct report *r, const struct corpus_row *row);

unsigned report_disagreements(const struct report *r)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->n_rows; i++)
		n += r->rows[i].dis != DIS_AGREE;
	if (r->campaign)
		n += r->campaign->done - r->campaign->dis_count[DIS_AGREE];
	return n;
}

unsigned report_unexplained(const struct report *r)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->n_rows; i++)
		n += r->rows[i].dis != DIS_AGREE && !row_explanation(r, &r->rows[i]);
	for (size_t i = 0; i < r->n_rows; i++)
		n += r->rows[i].content == CONTENT_DIFFERS &&
		     !content_explanation(r->explain, r->rows[i].c->name);
	const struct campaign *c = r->campaign;
	for (size_t i = 0; c && i < c->n_groups; i++)
		if (!explanation_for(r->explain, c->groups[i].dis, NULL, c->groups[i].key))
			n += c->groups[i].count;
	return n;
}

void report_markdown(FILE *f, const struct report *r)
{
	fprintf(f, "# Conformance: `");
	md_cell(f, r->reader->command);
	fprintf(f, "` on the %s corpus\n\n", r->format);
	fprintf(f, "Written by tracelint-conform (tracelint %s). Reader accepted when its exit status is",
		TRACELINT_VERSION);
	for (size_t i = 0; i < r->reader->n_accept_rc; i++)
		fprintf(f, "%s %d", i ? "," : "", r->reader->accept_rc[i]);
	fprintf(f, "; timeout %g s. Corpus: %s.\n", r->reader->timeout, r->corpus_desc);
	if (r->broken[0]) {
		fprintf(f, "\n## The reader command looks broken\n\n");
		md_cell(f, r->broken);
		fprintf(f, "\n\nNo disagreement is counted: check the command (run it by hand on one "
			   "valid case), then run the kit again.\n");
		return;
	}
	if (r->corpus_run)
		md_corpus(f, r);
	if (r->content_run)
		md_content(f, r);
	if (r->campaign)
		md_campaign(f, r->campaign, r->explain);
}

/* Our rule for a row, "-" when we accept or name no rule. */
static const char *row_rule(const struct corpus_row *row)
{
	return row->ours.reject && row->ours.rule[0] ? row->ours.rule : "-";
}

static const char *row_explanation(const struct report *r, const struct corpus_row *row)
{
	if (row->dis == DIS_AGREE)
		return NULL;
	const char *why = explanation_for(r->explain, row->dis, row->c->name, row->ours.reject ? row->ours.rule : NULL);
	/* readers may differ on an "either" case: its sidecar says why */
	if (!why && (row->dis == DIS_STRICT || row->dis == DIS_LENIENT))
		why = case_intent_explanation(row->c);
	return why;
}

static void md_corpus(FILE *f, const struct report *r)
{
	unsigned matrix[2][RUN_OUTCOME_COUNT], dis[DIS_COUNT];
	count_rows(r, matrix, dis);
	fprintf(f, "\n## Corpus: %zu cases\n\n", r->n_rows);
	fprintf(f, "| tracelint \\ reader | accepted | rejected | crashed | sanitizer | timeout |\n"
		   "|---|---:|---:|---:|---:|---:|\n");
	static const char *const row_names[2] = { "accepts", "rejects" };
	for (int v = 0; v < 2; v++) {
		fprintf(f, "| %s |", row_names[v]);
		for (int o = 0; o < RUN_OUTCOME_COUNT; o++)
			fprintf(f, " %u |", matrix[v][o]);
		fputc('\n', f);
	}
	fprintf(f, "\nAgree: %u. Lenient (reader accepts what tracelint rejects): %u. "
		   "Strict (reader rejects what tracelint accepts): %u. Crash: %u. Hang: %u.\n",
		dis[DIS_AGREE], dis[DIS_LENIENT], dis[DIS_STRICT], dis[DIS_CRASH], dis[DIS_HANG]);
	unsigned disagreements = (unsigned)r->n_rows - dis[DIS_AGREE], unexplained = 0;
	if (r->explain) {
		for (size_t i = 0; i < r->n_rows; i++)
			unexplained += r->rows[i].dis != DIS_AGREE && !row_explanation(r, &r->rows[i]);
		fprintf(f, "Explained: %u of %u disagreements%s\n", disagreements - unexplained, disagreements,
			unexplained ? " (the others are marked **unexplained**)." : ".");
	}
	if (!disagreements && !r->list_all)
		return;
	fprintf(f, "\n| case | class | rule | at | tracelint's message | reader | reader's first message line |%s\n"
		   "|---|---|---|---|---|---|---|%s\n", r->explain ? " why |" : "", r->explain ? "---|" : "");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct corpus_row *row = &r->rows[i];
		if (row->dis == DIS_AGREE && !r->list_all)
			continue;
		char out[64];
		outcome_text(out, sizeof out, &row->run);
		fprintf(f, "| ");
		md_cell(f, row->c->name);
		fprintf(f, " | %s | %s | ", disagreement_name(row->dis), row_rule(row));
		md_cell(f, row->ours.reject && row->ours.where[0] ? row->ours.where : "-");
		fputs(" | ", f);
		md_cell(f, row->ours.reject && row->ours.message[0] ? row->ours.message : "-");
		fprintf(f, " | %s | ", out);
		md_cell(f, row->run.message);
		fputs(" |", f);
		if (r->explain) {
			const char *why = row_explanation(r, row);
			fputc(' ', f);
			md_cell(f, why ? why : row->dis == DIS_AGREE ? "" : "**unexplained**");
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}

static void json_run(FILE *f, const struct run_result *run)
{
	fprintf(f, "\"outcome\":\"%s\",\"%s\":%d,\"message\":", run_outcome_name(run->outcome),
		run->outcome == RUN_CRASHED ? "signal" : "exit", run->code);
	json_string(f, run->message);
}

static void json_campaign(FILE *f, const struct campaign *c, const struct explanations *ex)
{
	fprintf(f, ",\"campaign\":{\"seed\":%llu,\"requested\":%u,\"mutants\":%u,\"seeds\":%u,"
		   "\"mutator\":", c->seed, c->requested, c->done, c->seeds);
	json_string(f, c->mutator);
	fprintf(f, ",\"time_limited\":%s", c->time_limited ? "true" : "false");
	fprintf(f, ",\"no_oracle\":");
	json_string(f, c->no_oracle);
	fprintf(f, ",\"tracelint_rejected\":%u,\"tracelint_failed\":%u,\"seconds\":%.3f,\"counts\":{",
		c->oracle_reject, c->oracle_failed, c->seconds);
	for (int d = 0; d < DIS_COUNT; d++)
		fprintf(f, "%s\"%s\":%u", d ? "," : "", disagreement_name((enum disagreement)d), c->dis_count[d]);
	fprintf(f, "},\"groups\":[");
	for (size_t i = 0; i < c->n_groups; i++) {
		fprintf(f, "%s{\"class\":\"%s\",\"key\":", i ? "," : "", disagreement_name(c->groups[i].dis));
		json_string(f, c->groups[i].key);
		fprintf(f, ",\"mutants\":%u,\"kept\":%u", c->groups[i].count, c->groups[i].kept);
		const char *why = explanation_for(ex, c->groups[i].dis, NULL, c->groups[i].key);
		if (why) {
			fputs(",\"explanation\":", f);
			json_string(f, why);
		}
		fputc('}', f);
	}
	fprintf(f, "],\"out\":");
	json_string(f, c->out_dir);
	fprintf(f, ",\"kept\":[");
	for (size_t i = 0; i < c->n_finds; i++) {
		const struct mutant_find *m = &c->finds[i];
		fprintf(f, "%s{\"file\":", i ? "," : "");
		json_string(f, m->file);
		fprintf(f, ",\"mutant\":%u,\"class\":\"%s\",\"rule\":", m->index, disagreement_name(m->dis));
		json_string(f, m->ours.reject ? m->ours.rule : "");
		fputs(",\"at\":", f);
		json_string(f, m->ours.reject ? m->ours.where : "");
		fputs(",\"tracelint_message\":", f);
		json_string(f, m->ours.reject ? m->ours.message : "");
		fprintf(f, ",\"size\":%zu,\"original_size\":%zu,\"seed_case\":", m->min_size, m->size);
		json_string(f, m->seed_case);
		fputc(',', f);
		json_run(f, &m->run);
		fputc('}', f);
	}
	fprintf(f, "]}");
}

void report_json(FILE *f, const struct report *r)
{
	unsigned matrix[2][RUN_OUTCOME_COUNT], dis[DIS_COUNT];
	count_rows(r, matrix, dis);
	fprintf(f, "{\"tracelint\":\"%s\",\"format\":", TRACELINT_VERSION);
	json_string(f, r->format);
	fprintf(f, ",\"reader\":");
	json_string(f, r->reader->command);
	fprintf(f, ",\"accept_rc\":[");
	for (size_t i = 0; i < r->reader->n_accept_rc; i++)
		fprintf(f, "%s%d", i ? "," : "", r->reader->accept_rc[i]);
	fprintf(f, "],\"timeout\":%g,\"corpus\":", r->reader->timeout);
	json_string(f, r->corpus_desc);
	fprintf(f, ",\"cases\":%zu,\"matrix\":{", r->n_rows);
	static const char *const row_names[2] = { "accepts", "rejects" };
	for (int v = 0; v < 2; v++) {
		fprintf(f, "%s\"%s\":{", v ? "," : "", row_names[v]);
		for (int o = 0; o < RUN_OUTCOME_COUNT; o++)
			fprintf(f, "%s\"%s\":%u", o ? "," : "", run_outcome_name((enum run_outcome)o), matrix[v][o]);
		fputc('}', f);
	}
	fprintf(f, "},\"counts\":{");
	for (int d = 0; d < DIS_COUNT; d++)
		fprintf(f, "%s\"%s\":%u", d ? "," : "", disagreement_name((enum disagreement)d), dis[d]);
	fprintf(f, "},\"disagreements\":%u,\"unexplained\":%u,\"broken_command\":",
		report_disagreements(r), report_unexplained(r));
	if (r->broken[0])
		json_string(f, r->broken);
	else
		fputs("null", f);
	fprintf(f, ",\"results\":[");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct corpus_row *row = &r->rows[i];
		fprintf(f, "%s{\"case\":", i ? "," : "");
		json_string(f, row->c->name);
		fprintf(f, ",\"kind\":\"%s\",\"intent\":\"%s\",", case_kind_name(row->c->kind),
			case_intent_name(row->c->intent));
		if (row->c->intent_why) {
			fputs("\"intent_why\":", f);
			json_string(f, row->c->intent_why);
			fputc(',', f);
		}
		fprintf(f, "\"tracelint\":\"%s\",\"rule\":", row->ours.reject ? "rejects" : "accepts");
		json_string(f, row->ours.rule);
		fputs(",\"at\":", f);
		json_string(f, row->ours.where);
		fputs(",\"tracelint_message\":", f);
		json_string(f, row->ours.message);
		fprintf(f, ",\"class\":\"%s\",", disagreement_name(row->dis));
		json_run(f, &row->run);
		const char *why = row_explanation(r, row);
		if (why) {
			fputs(",\"explanation\":", f);
			json_string(f, why);
		}
		if (row->content != CONTENT_NOT_COMPARED) {
			fprintf(f, ",\"content\":\"%s\"", row->content == CONTENT_SAME ? "same" : "differs");
			if (row->content == CONTENT_DIFFERS) {
				fputs(",\"content_diff\":", f);
				json_string(f, row->content_diff);
				const char *cwhy = content_explanation(r->explain, row->c->name);
				if (cwhy) {
					fputs(",\"content_explanation\":", f);
					json_string(f, cwhy);
				}
			}
		}
		fputc('}', f);
	}
	fputc(']', f);
	if (r->content_run) {
		unsigned compared, differ;
		content_counts(r, &compared, &differ);
		fprintf(f, ",\"content\":{\"compared\":%u,\"differ\":%u}", compared, differ);
	}
	if (r->campaign)
		json_campaign(f, r->campaign, r->explain);
	fputs("}\n", f);
}
