/* The table-driven sequence decoder against the reference that compares
 * codes one by one: thousands of random transition tables (fixed and
 * skewed codes up to 256 ways, zero-bit states, groups of several edges,
 * edges without a row, duplicate and prefix-violating codes) and random
 * sequences (walks of the table, then sometimes damaged: a character
 * changed, EDGE_COUNT off by a few, trailing bits), literal and with
 * repeats; and every chunk of every DCFG-trace in the corpus. Both
 * decoders must end in the same state and report the same diagnostics
 * (rule, location, message), captured through a context as tracelint
 * shows them. The fast decoder's step tables (several codes a lookup) are
 * built for every table; their bound is checked too. */
#define _POSIX_C_SOURCE 200809L
#include <atf-c.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validators/core/context.h"
#include "validators/dcfg/trace_decode.h"

/* The diagnostics of one decode, one line each. */
struct log {
	char text[8192];
	size_t n;
	unsigned count;
};

static void record(const struct tl_diagnostic *d, void *user)
{
	struct log *l = user;
	l->count++;
	if (l->n < sizeof l->text)
		l->n += (size_t)snprintf(l->text + l->n, sizeof l->text - l->n, "%s %llu %u:%u %s: %s\n", d->rule->id,
					 (unsigned long long)d->loc.offset, d->loc.line, d->loc.column,
					 d->loc.pointer ? d->loc.pointer : "-", d->message);
}

/* Decodes one chunk with `v`'s document, reporting into `l`. */
static void decode_logged(const struct tl_json_check *v, const struct tl_dcfg_seq *s, const struct tl_dcfg_ttable *t, const struct tl_dcfg_dict *d,
			  struct tl_dcfg_chunk *c, struct log *l)
{
	struct tl_options opts;
	tl_options_init(&opts);
	opts.on_diag = record;
	opts.user = l;
	struct tl_result result = { 0 };
	struct tl_ctx ctx = { .opts = &opts, .result = &result, .path = "t.trace.json" };
	tl_rule_policy_resolve(&opts, ctx.severity);
	struct tl_json_check lv = *v;
	lv.ctx = &ctx;
	lv.failed = false;
	memset(l, 0, sizeof *l);
	tl_dcfg_decode_chunk(&lv, s, t, d, c);
}

/* A document with one sequence string, for the decoders' diagnostics to
 * point into; returns the string's node. */
static uint32_t seq_doc(struct tl_json_check *doc)
{
	static const char where[] = "{\"SEQ\": \"x\"}";
	ATF_REQUIRE(tl_jv_parse(doc, (const uint8_t *)where, strlen(where), NULL, 0));
	uint32_t node = tl_json_obj_get(&doc->doc, 0, "SEQ");
	ATF_REQUIRE(node != JNONE);
	return node;
}

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return n ? (uint32_t)((r->s >> 11) % n) : 0;
}

#define MAX_STATES 24
#define MAX_CODES 300

struct code {
	uint32_t bits;
	uint8_t len;
	uint64_t next[3];
	uint32_t nnext;
};

struct model {
	uint32_t nstates;
	struct code codes[MAX_STATES][MAX_CODES];
	uint32_t ncodes[MAX_STATES];
};

/* A random prefix-free code of n words, skewed: leaves split at random depths. */
static uint32_t skewed_code(struct rng *r, struct code *out, uint32_t n)
{
	uint32_t count = 1;
	out[0].bits = 0;
	out[0].len = 0;
	while (count < n) {
		uint32_t i = rnd(r, 3) ? count - 1 - rnd(r, count < 4 ? count : 4) : rnd(r, count);
		if (out[i].len >= 20)
			break;
		out[count] = out[i];
		out[i].bits <<= 1;
		out[i].len++;
		out[count].bits = (out[count].bits << 1) | 1;
		out[count].len++;
		count++;
	}
	return count;
}

static void make_model(struct rng *r, struct model *m)
{
	static const uint32_t widths[] = { 2, 3, 4, 16, 64, 256 };
	m->nstates = 1 + rnd(r, MAX_STATES);
	for (uint32_t s = 0; s < m->nstates; s++) {
		struct code *c = m->codes[s];
		uint32_t n, kind = rnd(r, 10);
		if (kind == 0) {
			n = 1; /* a zero-bit state */
			c[0].len = 0;
			c[0].bits = 0;
		} else if (kind < 5) {
			uint32_t w = widths[rnd(r, 6)], len = 0;
			while ((1u << len) < w)
				len++;
			n = w - rnd(r, 2) * rnd(r, w / 2 + 1); /* sometimes not every code is used */
			for (uint32_t i = 0; i < n; i++) {
				c[i].bits = i;
				c[i].len = (uint8_t)len;
			}
		} else
			n = skewed_code(r, c, 1 + rnd(r, rnd(r, 2) ? 16 : 256));
		/* Damage: a duplicate, a prefix of another code, a random code. */
		for (uint32_t k = rnd(r, 8) == 0 ? 1 + rnd(r, 3) : 0; k && n < MAX_CODES; k--) {
			const struct code *o = &c[rnd(r, n)];
			c[n] = *o;
			uint32_t how = rnd(r, 3);
			if (how == 1 && o->len)
				c[n].len = (uint8_t)rnd(r, o->len), c[n].bits = o->bits >> (o->len - c[n].len);
			else if (how == 2)
				c[n].len = (uint8_t)(1 + rnd(r, 24)), c[n].bits = rnd(r, UINT32_MAX) & ((1u << c[n].len) - 1);
			n++;
		}
		for (uint32_t i = 0; i < n; i++) {
			c[i].nnext = rnd(r, 8) ? 1 : 2 + rnd(r, 2);
			for (uint32_t j = 0; j < c[i].nnext; j++)
				c[i].next[j] = 1 + rnd(r, m->nstates + (rnd(r, 50) == 0)); /* now and then an edge without a row */
		}
		m->ncodes[s] = n;
	}
}

static void build(const struct model *m, struct tl_dcfg_ttable *t, bool reference, bool pairing)
{
	memset(t, 0, sizeof *t);
	t->reference = reference;
	struct tl_json_check v = { 0 };
	for (uint32_t s = 0; s < m->nstates; s++)
		for (uint32_t i = 0; i < m->ncodes[s]; i++) {
			const struct code *c = &m->codes[s][i];
			ATF_REQUIRE(tl_dcfg_ttable_add(t, s + 1, c->bits, c->len, c->next, c->nnext, s * MAX_CODES + i));
		}
	tl_dcfg_ttable_finish(&v, t);
	if (pairing && t->nnext) {
		t->next_instr = calloc(t->nnext, sizeof *t->next_instr);
		ATF_REQUIRE(t->next_instr);
		for (uint32_t i = 0; i < t->nnext; i++)
			t->next_instr[i] = t->next_ids[i] * 7 + 1;
	}
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

struct bits {
	char *text;
	uint32_t n, cap;
	uint64_t acc;
	uint32_t nacc;
};

static void put_bits(struct bits *b, uint32_t v, uint8_t len)
{
	for (int i = len - 1; i >= 0; i--) {
		b->acc = (b->acc << 1) | ((v >> i) & 1);
		if (++b->nacc == 6) {
			if (b->n + 1 >= b->cap) {
				b->cap = b->cap ? b->cap * 2 : 256;
				b->text = realloc(b->text, b->cap);
				ATF_REQUIRE(b->text);
			}
			b->text[b->n++] = b64[b->acc & 63];
			b->acc = 0;
			b->nacc = 0;
		}
	}
}

/* A walk of the model from state `first`, as bits: the codes chosen, the edges they emit. */
static uint64_t walk(struct rng *r, const struct model *m, uint32_t first, uint32_t steps, struct bits *b)
{
	uint64_t edges = 1;
	uint32_t s = first;
	for (uint32_t k = 0; k < steps && s < m->nstates; k++) {
		const struct code *c = &m->codes[s][rnd(r, m->ncodes[s])];
		put_bits(b, c->bits, c->len);
		edges += c->nnext;
		s = (uint32_t)c->next[c->nnext - 1] - 1;
	}
	if (b->nacc)
		put_bits(b, rnd(r, 4) ? 0 : 1, (uint8_t)(6 - b->nacc)); /* padding, now and then not zero */
	return edges;
}

/* The sequence as items: literal runs, some of them wrapped in a repeat. */
static void make_seq(struct rng *r, const struct bits *b, struct tl_dcfg_seq *s)
{
	s->text = (const uint8_t *)b->text;
	s->items = calloc(2 * (size_t)b->n + 2, sizeof *s->items);
	ATF_REQUIRE(s->items);
	s->n = 0;
	for (uint32_t at = 0; at < b->n;) {
		uint32_t len = 1 + rnd(r, b->n - at < 40 ? b->n - at : 40);
		if (rnd(r, 6) == 0) {
			struct tl_dcfg_seq_item *rep = &s->items[s->n++];
			rep->kind = IT_REP;
			rep->len = 1;
			rep->reps = 1 + rnd(r, rnd(r, 2) ? 3 : 100000);
		}
		struct tl_dcfg_seq_item *lit = &s->items[s->n++];
		lit->kind = IT_LIT;
		lit->start = at;
		lit->len = len;
		lit->bits = 6 * (uint64_t)len;
		at += len;
	}
	tl_dcfg_seq_bits(s, NULL);
}

static bool same_result(const struct tl_dcfg_chunk *a, const struct tl_dcfg_chunk *b)
{
	return a->ok == b->ok && a->edges_done == b->edges_done && a->last_edge == b->last_edge && a->instr == b->instr &&
	       a->instr_known == b->instr_known && a->counts_known == b->counts_known;
}

ATF_TC_WITHOUT_HEAD(random_tables_and_sequences);
ATF_TC_BODY(random_tables_and_sequences, tc)
{
	struct rng r = { 0x9e3779b97f4a7c15ull };
	static struct model m;
	struct tl_json_check doc = { 0 };
	uint32_t seq_node = seq_doc(&doc);
	uint32_t decoded = 0, failed = 0, cases = 0, with_tables = 0, with_steps = 0, with_chars = 0, reports = 0;
	for (uint32_t round = 0; round < 1500; round++) {
		make_model(&r, &m);
		bool pairing = rnd(&r, 4) == 0;
		struct tl_dcfg_ttable ref, lut;
		build(&m, &ref, true, pairing);
		build(&m, &lut, false, pairing);
		ATF_REQUIRE(ref.lut == NULL);
		with_tables += lut.lut != NULL;
		with_steps += lut.steps != NULL;
		with_chars += lut.char_next != NULL;
		for (uint32_t k = 0; k < 4; k++, cases++) {
			struct bits b = { 0 };
			uint32_t first = rnd(&r, m.nstates);
			uint64_t count = walk(&r, &m, first, rnd(&r, 2) ? rnd(&r, 20) : rnd(&r, 2000), &b);
			if (rnd(&r, 5) == 0 && b.n)
				b.text[rnd(&r, b.n)] = b64[rnd(&r, 64)];
			if (rnd(&r, 5) == 0)
				count = count + rnd(&r, 7) - (count > 3 ? 3 : count);
			if (rnd(&r, 10) == 0)
				put_bits(&b, 0, 6);
			struct tl_dcfg_seq s = { 0 };
			make_seq(&r, &b, &s);
			struct tl_dcfg_chunk cr = { 0 }, cl = { 0 };
			cr.edge_count = cl.edge_count = count;
			cr.first_edge = cl.first_edge = first + 1;
			cr.node = cl.node = seq_node;
			static struct log lr, ll;
			decode_logged(&doc, &s, &ref, NULL, &cr, &lr);
			decode_logged(&doc, &s, &lut, NULL, &cl, &ll);
			if (!same_result(&cr, &cl) || lr.n != ll.n || memcmp(lr.text, ll.text, lr.n))
				ATF_CHECK_MSG(false, "round %u case %u: reference ok=%d edges=%llu last=%llu, diagnostics:\n%s"
					      "tables ok=%d edges=%llu last=%llu, diagnostics:\n%s",
					      round, k, cr.ok, (unsigned long long)cr.edges_done, (unsigned long long)cr.last_edge, lr.text,
					      cl.ok, (unsigned long long)cl.edges_done, (unsigned long long)cl.last_edge, ll.text);
			decoded += cr.ok;
			failed += !cr.ok;
			reports += lr.count;
			free(s.items);
			free(b.text);
		}
		tl_dcfg_ttable_free(&ref);
		tl_dcfg_ttable_free(&lut);
	}
	/* Both outcomes must be common, or the comparison proves little. */
	ATF_CHECK_MSG(decoded > cases / 4 && failed > cases / 10, "%u of %u decoded, %u failed", decoded, cases, failed);
	ATF_CHECK_MSG(with_tables > 1400, "only %u of 1500 tables had lookup tables", with_tables);
	ATF_CHECK_MSG(with_steps == with_tables, "%u of %u tables with lookup tables had step tables", with_steps, with_tables);
	ATF_CHECK_MSG(reports > cases / 10, "only %u diagnostics in %u cases", reports, cases);
	ATF_CHECK_MSG(with_chars > 500, "only %u of 1500 tables had character tables", with_chars);
	tl_json_free(&doc.doc);
}

/* The corpus: every chunk of every process of every DCFG-trace case that
 * parses as JSON, decoded with both tables. */
static uint32_t child(struct tl_json_check *v, uint32_t node, uint32_t i)
{
	uint32_t c = jn(&v->doc, node)->first;
	while (c != JNONE && i--)
		c = jnext(v, c);
	return c;
}

static uint32_t column(struct tl_json_check *v, uint32_t table, const char *name)
{
	uint32_t head = child(v, table, 0), i = 0;
	if (head == JNONE || jn(&v->doc, head)->type != J_ARR)
		return UINT32_MAX;
	for (uint32_t c = jn(&v->doc, head)->first; c != JNONE; c = jnext(v, c), i++)
		if (jn(&v->doc, c)->type == J_STR && tl_json_str_eq(&v->doc, c, name))
			return i;
	return UINT32_MAX;
}

/* A cell of a row, JNONE when the row is not an array or too short. */
static uint32_t cell(struct tl_json_check *v, uint32_t row, uint32_t col)
{
	if (col == UINT32_MAX || jn(&v->doc, row)->type != J_ARR)
		return JNONE;
	return child(v, row, col);
}

static bool is(struct tl_json_check *v, uint32_t node, enum tl_json_type type)
{
	return node != JNONE && jn(&v->doc, node)->type == type;
}

static void table_of(struct tl_json_check *v, uint32_t tbl, struct tl_dcfg_ttable *tt, bool reference)
{
	memset(tt, 0, sizeof *tt);
	tt->reference = reference;
	for (uint32_t r = child(v, tbl, 1); r != JNONE; r = jnext(v, r)) {
		uint32_t c0 = cell(v, r, 0), c1 = cell(v, r, 1), c2 = cell(v, r, 2);
		uint64_t cur, next[64];
		if (!is(v, c0, J_NUM) || !is(v, c1, J_STR) || !is(v, c2, J_ARR) || jn(&v->doc, c1)->count > 32 ||
		    !tl_jv_int(v, c0, 0, UINT64_MAX, "edge", &cur))
			continue;
		uint32_t bits = 0, n = 0, len = jn(&v->doc, c1)->count;
		for (uint32_t i = 0; i < len; i++)
			bits = (bits << 1) | (uint32_t)(jstr(&v->doc, c1)[i] == '1');
		for (uint32_t c = jn(&v->doc, c2)->first; c != JNONE && n < 64; c = jnext(v, c))
			if (is(v, c, J_NUM) && tl_jv_int(v, c, 0, UINT64_MAX, "edge", &next[n]))
				n++;
		if (n)
			ATF_REQUIRE(tl_dcfg_ttable_add(tt, cur, bits, (uint8_t)len, next, n, r));
	}
	tl_dcfg_ttable_finish(v, tt);
}

static uint32_t compare_file(const char *path, uint32_t *reported)
{
	FILE *f = fopen(path, "rb");
	ATF_REQUIRE(f != NULL);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *data = malloc((size_t)size + 1);
	ATF_REQUIRE(data != NULL && fread(data, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	struct tl_json_check v = { 0 };
	uint32_t chunks = 0;
	uint32_t procs = tl_jv_parse(&v, data, (size_t)size, NULL, 0) && jn(&v.doc, 0)->type == J_OBJ ? tl_json_obj_get(&v.doc, 0, "PROCESSES") : JNONE;
	if (procs != JNONE && !is(&v, procs, J_ARR))
		procs = JNONE;
	uint32_t c_dict = procs == JNONE ? UINT32_MAX : column(&v, procs, "STRING_DICTIONARY"),
		 c_table = procs == JNONE ? UINT32_MAX : column(&v, procs, "TRANSITION_TABLE"),
		 c_threads = procs == JNONE ? UINT32_MAX : column(&v, procs, "THREAD_DATA");
	for (uint32_t p = procs == JNONE ? JNONE : child(&v, procs, 1); p != JNONE; p = jnext(&v, p)) {
		uint32_t dict_obj = cell(&v, p, c_dict), tbl = cell(&v, p, c_table), threads = cell(&v, p, c_threads);
		if (!is(&v, tbl, J_ARR) || !is(&v, threads, J_ARR))
			continue;
		struct tl_dcfg_dict d = { 0 };
		if (is(&v, dict_obj, J_OBJ))
			tl_dcfg_dict_read(&v, dict_obj, &d);
		struct tl_dcfg_ttable ref, lut;
		table_of(&v, tbl, &ref, true);
		table_of(&v, tbl, &lut, false);
		uint32_t c_data = column(&v, threads, "TRACE_DATA");
		for (uint32_t t = child(&v, threads, 1); t != JNONE; t = jnext(&v, t)) {
			uint32_t data_tbl = cell(&v, t, c_data);
			if (!is(&v, data_tbl, J_ARR))
				continue;
			uint32_t c_count = column(&v, data_tbl, "EDGE_COUNT"), c_first = column(&v, data_tbl, "FIRST_EDGE_ID"),
				 c_seq = column(&v, data_tbl, "EDGE_ID_SEQUENCE");
			for (uint32_t ch = child(&v, data_tbl, 1); ch != JNONE; ch = jnext(&v, ch)) {
				uint32_t k2 = cell(&v, ch, c_count), k3 = cell(&v, ch, c_first), k4 = cell(&v, ch, c_seq);
				struct tl_dcfg_chunk cr = { 0 }, cl;
				struct tl_dcfg_seq sq;
				if (!is(&v, k2, J_NUM) || !is(&v, k3, J_NUM) || !is(&v, k4, J_STR) ||
				    !tl_jv_int(&v, k2, 0, UINT64_MAX, "EDGE_COUNT", &cr.edge_count) ||
				    !tl_jv_int(&v, k3, 0, UINT64_MAX, "FIRST_EDGE_ID", &cr.first_edge) ||
				    !tl_dcfg_seq_parse(&v, k4, &d, &sq))
					continue;
				tl_dcfg_seq_bits(&sq, &d);
				cr.node = k4;
				cl = cr;
				static struct log lr, ll;
				decode_logged(&v, &sq, &ref, &d, &cr, &lr);
				decode_logged(&v, &sq, &lut, &d, &cl, &ll);
				ATF_CHECK_MSG(same_result(&cr, &cl) && lr.n == ll.n && !memcmp(lr.text, ll.text, lr.n),
					      "%s: a chunk decodes differently:\n%s---\n%s", path, lr.text, ll.text);
				*reported += lr.count;
				chunks++;
				tl_dcfg_seq_free(&sq);
			}
		}
		tl_dcfg_ttable_free(&ref);
		tl_dcfg_ttable_free(&lut);
		tl_dcfg_dict_free(&d);
	}
	tl_json_free(&v.doc);
	free(data);
	return chunks;
}

ATF_TC_WITHOUT_HEAD(corpus_chunks);
ATF_TC_BODY(corpus_chunks, tc)
{
	static const char *const dirs[] = { "corpus/dcfg-trace/valid", "corpus/dcfg-trace/invalid", "corpus/dcfg-trace/regressions" };
	uint32_t files = 0, chunks = 0, reported = 0;
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char dir[4096];
		snprintf(dir, sizeof dir, "%s/%s", TL_SOURCE_DIR, dirs[i]);
		DIR *dp = opendir(dir);
		ATF_REQUIRE_MSG(dp != NULL, "cannot open %s", dir);
		for (struct dirent *e; (e = readdir(dp)) != NULL;) {
			size_t n = strlen(e->d_name);
			bool sidecar = (n > 9 && !strcmp(e->d_name + n - 9, ".expected")) || (n > 5 && !strcmp(e->d_name + n - 5, ".args")) ||
				       (n > 3 && !strcmp(e->d_name + n - 3, ".md"));
			if (e->d_name[0] == '.' || sidecar)
				continue;
			char path[8192];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			chunks += compare_file(path, &reported);
			files++;
		}
		closedir(dp);
	}
	ATF_CHECK_MSG(files >= 40 && chunks >= 100, "only %u files, %u chunks compared", files, chunks);
	ATF_CHECK_MSG(reported >= 5, "only %u decoder diagnostics in the corpus", reported);
}

/* A table too large for lookup tables of its full width stays bounded:
 * at most LUT_PER_CODE entries a code. */
ATF_TC_WITHOUT_HEAD(lookup_tables_are_bounded);
ATF_TC_BODY(lookup_tables_are_bounded, tc)
{
	struct tl_dcfg_ttable t = { 0 };
	struct tl_json_check v = { 0 };
	uint64_t next = 1;
	/* One long code and one short: the full width would be 2^24 entries. */
	ATF_REQUIRE(tl_dcfg_ttable_add(&t, 1, 0, 1, &next, 1, 0));
	ATF_REQUIRE(tl_dcfg_ttable_add(&t, 1, 0xffffff, 24, &next, 1, 1));
	tl_dcfg_ttable_finish(&v, &t);
	ATF_REQUIRE(t.lref != NULL);
	ATF_CHECK(t.lref[t.states[0].first].bits <= 3);
	ATF_CHECK(!v.failed);
	tl_dcfg_ttable_free(&t);
}

/* A table of `nstates` states of w fixed-length codes each (w a power of
 * two), every code leading to the next state. */
static void fixed_table(struct tl_dcfg_ttable *t, uint32_t nstates, uint32_t w)
{
	struct tl_json_check v = { 0 };
	uint8_t len = 0;
	while ((1u << len) < w)
		len++;
	memset(t, 0, sizeof *t);
	for (uint32_t st = 0; st < nstates; st++)
		for (uint32_t i = 0; i < w; i++) {
			uint64_t next = 1 + (st + i) % nstates;
			ATF_REQUIRE(tl_dcfg_ttable_add(t, st + 1, i, len, &next, 1, st * w + i));
		}
	tl_dcfg_ttable_finish(&v, t);
	ATF_REQUIRE(!v.failed);
}

static uint64_t step_entries(const struct tl_dcfg_ttable *t)
{
	uint64_t n = 0;
	for (uint32_t st = 0; st < t->nstates; st++)
		n += t->lref[t->states[st].first].sbits ? (uint64_t)1 << t->lref[t->states[st].first].sbits : 0;
	return n;
}

/* Step tables: as wide as two codes when the budget allows, never wider
 * than useful, and within STEP_BUDGET (or the lookup tables' own width). */
ATF_TC_WITHOUT_HEAD(step_tables_are_bounded);
ATF_TC_BODY(step_tables_are_bounded, tc)
{
	struct tl_dcfg_ttable t;
	fixed_table(&t, 4, 64); /* 6-bit codes: two a step */
	ATF_REQUIRE(t.steps != NULL);
	ATF_CHECK_EQ(t.lref[t.states[0].first].sbits, 12);
	ATF_CHECK_EQ(t.step_chain[0], 2);
	ATF_CHECK_EQ(SE_LEN(t.steps[0]), 12);
	tl_dcfg_ttable_free(&t);
	fixed_table(&t, 4, 256); /* 8-bit codes: a second one never fits in 12 bits */
	ATF_CHECK_EQ(t.lref[t.states[0].first].sbits, 8);
	tl_dcfg_ttable_free(&t);
	fixed_table(&t, 4, 2); /* 1-bit codes: twelve a step */
	ATF_CHECK_EQ(t.lref[t.states[0].first].sbits, 12);
	ATF_CHECK_EQ(t.step_chain[0], 12);
	tl_dcfg_ttable_free(&t);
	fixed_table(&t, 3000, 64); /* the budget narrows every state to its lookup width */
	ATF_CHECK(step_entries(&t) <= STEP_BUDGET + 2 * (uint64_t)t.n);
	ATF_CHECK_EQ(t.lref[t.states[0].first].sbits, 6);
	tl_dcfg_ttable_free(&t);
	fixed_table(&t, 40000, 2);
	ATF_CHECK(step_entries(&t) <= STEP_BUDGET + 2 * (uint64_t)t.n);
	tl_dcfg_ttable_free(&t);
}

/* Character tables: a row per state and unfinished code, entries taking
 * every code a character completes, only for codes of at most 6 bits, and
 * at most CHAR_MAX_ROWS rows. */
ATF_TC_WITHOUT_HEAD(char_tables);
ATF_TC_BODY(char_tables, tc)
{
	struct tl_dcfg_ttable t;
	fixed_table(&t, 4, 64); /* one code a character, nothing pending */
	ATF_REQUIRE(t.char_next != NULL);
	ATF_CHECK_EQ(t.nchar_rows, 4);
	for (uint32_t e = 0; e < 4 * 64; e++)
		ATF_CHECK_EQ(t.char_chain[e], 1);
	uint32_t first = t.states[0].first;
	ATF_REQUIRE(t.lref[first].chars != CHAR_NONE);
	uint32_t root = t.char_enter[(size_t)t.lref[first].chars * CHAR_PENDING];
	/* Character 5 takes code 000101 of state 0: to state 1 + (0 + 5) % 4. */
	const uintptr_t *to = (const uintptr_t *)t.char_next[(size_t)root * 64 + 5];
	uint32_t r = (uint32_t)((to - t.char_next) / 64);
	ATF_CHECK_EQ(t.char_state[r], t.states[tl_dcfg_idmap_get(&t.state_of, 2)].first);
	ATF_CHECK_EQ(t.char_pend_len[r], 0);
	tl_dcfg_ttable_free(&t);

	fixed_table(&t, 4, 16); /* 4-bit codes: a character leaves 2 bits, the next takes two codes */
	ATF_REQUIRE(t.char_next != NULL);
	ATF_CHECK_EQ(t.nchar_rows, 4 * 5);
	uint32_t pending = 0;
	for (uint32_t k = 0; k < t.nchar_rows; k++) {
		pending += t.char_pend_len[k] == 2;
		ATF_CHECK(t.char_pend_len[k] == 0 || t.char_pend_len[k] == 2);
		for (uint32_t c = 0; c < 64; c++)
			ATF_CHECK_EQ(t.char_chain[(size_t)k * 64 + c], t.char_pend_len[k] ? 2 : 1);
	}
	ATF_CHECK_EQ(pending, 16);
	tl_dcfg_ttable_free(&t);

	fixed_table(&t, 4, 256); /* 8-bit codes: longer than a character */
	ATF_CHECK(t.steps != NULL);
	ATF_CHECK(t.char_next == NULL);
	tl_dcfg_ttable_free(&t);

	fixed_table(&t, 3000, 64); /* more states than rows: the rest stop the loop */
	ATF_REQUIRE(t.char_next != NULL);
	ATF_CHECK_EQ(t.nchar_rows, CHAR_MAX_ROWS);
	uint32_t stops = 0;
	for (size_t e = 0; e < (size_t)t.nchar_rows * 64; e++)
		stops += t.char_chain[e] == 0;
	ATF_CHECK(stops > 0);
	tl_dcfg_ttable_free(&t);
}

/* The bench's table shapes, at a size the step tables matter: 16-, 64- and
 * 256-way dispatch with fixed and skewed codes over 4 and 64 states, and
 * states whose codes lead into zero-bit chains longer than a step entry
 * may take (the general step's side path). Each walk is decoded from one
 * literal run (the fast refill), from short runs and repeats, and damaged. */
struct wide {
	uint32_t nstates, per;      /* states, code slots a state */
	struct code *codes;         /* nstates * per */
	uint32_t *n;                /* codes of each state */
	uint32_t chain;             /* zero-bit states after the last wide state, 0: none */
};

static void make_wide(struct rng *r, struct wide *w, uint32_t nstates, uint32_t ways, bool skewed, uint32_t chain)
{
	w->nstates = nstates;
	w->per = ways;
	w->chain = chain;
	w->codes = calloc((size_t)nstates * ways, sizeof *w->codes);
	w->n = calloc(nstates, sizeof *w->n);
	ATF_REQUIRE(w->codes && w->n);
	uint8_t len = 0;
	while ((1u << len) < ways)
		len++;
	for (uint32_t s = 0; s < nstates; s++) {
		struct code *c = &w->codes[(size_t)s * ways];
		if (skewed)
			w->n[s] = skewed_code(r, c, ways);
		else {
			w->n[s] = ways;
			for (uint32_t i = 0; i < ways; i++)
				c[i].bits = i, c[i].len = len;
		}
		for (uint32_t i = 0; i < w->n[s]; i++) {
			c[i].nnext = 1;
			/* Into a chain now and then (its first state is nstates + 1). */
			c[i].next[0] = chain && rnd(r, 4) == 0 ? nstates + 1 : 1 + rnd(r, nstates);
		}
	}
}

static void build_wide(const struct wide *w, struct tl_dcfg_ttable *t, bool reference)
{
	memset(t, 0, sizeof *t);
	t->reference = reference;
	struct tl_json_check v = { 0 };
	for (uint32_t s = 0; s < w->nstates; s++)
		for (uint32_t i = 0; i < w->n[s]; i++) {
			const struct code *c = &w->codes[(size_t)s * w->per + i];
			ATF_REQUIRE(tl_dcfg_ttable_add(t, s + 1, c->bits, c->len, c->next, 1, s * w->per + i));
		}
	/* The chain: zero-bit states, the last back to the first wide state. */
	for (uint32_t k = 0; k < w->chain; k++) {
		uint64_t next = k + 1 < w->chain ? w->nstates + k + 2 : 1;
		ATF_REQUIRE(tl_dcfg_ttable_add(t, w->nstates + k + 1, 0, 0, &next, 1, w->nstates * w->per + k));
	}
	tl_dcfg_ttable_finish(&v, t);
	ATF_REQUIRE(!v.failed);
}

static uint64_t walk_wide(struct rng *r, const struct wide *w, uint32_t steps, struct bits *b)
{
	uint64_t edges = 1;
	uint32_t s = 0;
	for (uint32_t k = 0; k < steps; k++) {
		const struct code *c = &w->codes[(size_t)s * w->per + rnd(r, w->n[s])];
		put_bits(b, c->bits, c->len);
		edges++;
		s = (uint32_t)c->next[0] - 1;
		if (s >= w->nstates) {
			edges += w->chain;
			s = 0;
		}
	}
	if (b->nacc)
		put_bits(b, 0, (uint8_t)(6 - b->nacc));
	return edges;
}

/* The whole text as one literal run (the fast refill's case). */
static void literal_seq(const struct bits *b, struct tl_dcfg_seq *s)
{
	memset(s, 0, sizeof *s);
	s->text = (const uint8_t *)b->text;
	s->items = calloc(1, sizeof *s->items);
	ATF_REQUIRE(s->items);
	s->items[0] = (struct tl_dcfg_seq_item){ .kind = IT_LIT, .start = 0, .len = b->n, .bits = 6 * (uint64_t)b->n };
	s->n = 1;
	tl_dcfg_seq_bits(s, NULL);
}

/* One chunk from edge 1 decoded by both tables: results in cr, cl and
 * diagnostics in lr, ll; whether they agree. */
static bool decoded_alike(const struct tl_json_check *doc, uint32_t node, const struct tl_dcfg_seq *s, const struct tl_dcfg_ttable *ref,
			  const struct tl_dcfg_ttable *lut, uint64_t count, struct tl_dcfg_chunk *cr, struct tl_dcfg_chunk *cl, struct log *lr,
			  struct log *ll)
{
	memset(cr, 0, sizeof *cr);
	memset(cl, 0, sizeof *cl);
	cr->edge_count = cl->edge_count = count;
	cr->first_edge = cl->first_edge = 1;
	cr->node = cl->node = node;
	decode_logged(doc, s, ref, NULL, cr, lr);
	decode_logged(doc, s, lut, NULL, cl, ll);
	return same_result(cr, cl) && lr->n == ll->n && !memcmp(lr->text, ll->text, lr->n);
}

ATF_TC_WITHOUT_HEAD(wide_shapes);
ATF_TC_BODY(wide_shapes, tc)
{
	struct rng r = { 0x2545f4914f6cdd1dull };
	struct tl_json_check doc = { 0 };
	uint32_t seq_node = seq_doc(&doc);
	/* Chains of 3 make the edges a character takes vary (1 or 4), so a
	 * character walk that guessed its start wrong counts differently. */
	static const uint32_t ways[] = { 16, 64, 256 }, states[] = { 4, 64 }, chains[] = { 0, 3, 300 };
	uint32_t cases = 0, literal_ok = 0, tables = 0, wide_steps = 0, wide_chars = 0;
	for (size_t wi = 0; wi < 3; wi++)
		for (size_t si = 0; si < 2; si++)
			for (int skewed = 0; skewed < 2; skewed++)
				for (size_t ci = 0; ci < 3; ci++) {
					struct wide w;
					make_wide(&r, &w, states[si], ways[wi], skewed, chains[ci]);
					struct tl_dcfg_ttable ref, lut;
					build_wide(&w, &ref, true);
					build_wide(&w, &lut, false);
					ATF_REQUIRE(lut.steps != NULL);
					wide_steps += lut.lref[lut.states[0].first].sbits > lut.lref[lut.states[0].first].bits;
					wide_chars += lut.char_next != NULL && lut.lref[lut.states[0].first].chars != CHAR_NONE;
					for (uint32_t k = 0; k < 6; k++, cases++) {
						struct bits b = { 0 };
						uint64_t count = walk_wide(&r, &w, 20000, &b);
						if (k >= 4) { /* damaged: a character changed, EDGE_COUNT off */
							b.text[rnd(&r, b.n)] = b64[rnd(&r, 64)];
							count = count + rnd(&r, 7) - 3;
						}
						struct tl_dcfg_seq s = { 0 };
						if (k % 2 == 0)
							make_seq(&r, &b, &s);
						else
							literal_seq(&b, &s);
						struct tl_dcfg_chunk cr, cl;
						static struct log lr, ll;
						ATF_CHECK_MSG(decoded_alike(&doc, seq_node, &s, &ref, &lut, count, &cr, &cl, &lr, &ll),
							      "%u ways, %u states, %s, chain %u, case %u: reference ok=%d edges=%llu, "
							      "tables ok=%d edges=%llu\n%s---\n%s",
							      ways[wi], states[si], skewed ? "skewed" : "fixed", chains[ci], k, cr.ok,
							      (unsigned long long)cr.edges_done, cl.ok, (unsigned long long)cl.edges_done, lr.text, ll.text);
						literal_ok += (k == 1 || k == 3) && cr.ok;
						free(s.items);
						free(b.text);
					}
					tables++;
					tl_dcfg_ttable_free(&ref);
					tl_dcfg_ttable_free(&lut);
					free(w.codes);
					free(w.n);
				}
	/* Every whole walk in one literal run decodes, and some tables step several codes a lookup. */
	ATF_CHECK_MSG(literal_ok == 2 * tables, "%u of %u undamaged literal walks decoded", literal_ok, 2 * tables);
	ATF_CHECK_MSG(wide_steps >= 4, "only %u tables with step tables wider than their lookup tables", wide_steps);
	/* The 16- and 64-way fixed tables enter the character loop. */
	ATF_CHECK_MSG(wide_chars >= 4, "only %u tables entered through character tables", wide_chars);
	tl_json_free(&doc.doc);
}

/* Character walks whose guessed half never meets the true one: from state
 * s code i leads to state s + i (mod the states), so two walks keep their
 * distance and the guessed half is taken again in whole. */
ATF_TC_WITHOUT_HEAD(char_walks_that_never_meet);
ATF_TC_BODY(char_walks_that_never_meet, tc)
{
	struct rng r = { 0x9e3779b97f4a7c15ull };
	struct tl_json_check doc = { 0 };
	uint32_t seq_node = seq_doc(&doc);
	static const uint32_t ways[] = { 16, 64 };
	uint32_t decoded = 0;
	for (size_t wi = 0; wi < 2; wi++) {
		struct wide w;
		make_wide(&r, &w, 8, ways[wi], false, 0);
		for (uint32_t st = 0; st < w.nstates; st++)
			for (uint32_t i = 0; i < w.n[st]; i++)
				if (w.codes[(size_t)st * w.per + i].next[0] <= w.nstates)
					w.codes[(size_t)st * w.per + i].next[0] = 1 + (st + i) % w.nstates;
		struct tl_dcfg_ttable ref, lut;
		build_wide(&w, &ref, true);
		build_wide(&w, &lut, false);
		ATF_REQUIRE(lut.char_next != NULL);
		for (uint32_t k = 0; k < 4; k++) {
			struct bits b = { 0 };
			uint64_t count = walk_wide(&r, &w, 30000, &b);
			if (k >= 2) { /* damaged in the second half of a block */
				b.text[3000 + rnd(&r, 1000)] = b64[rnd(&r, 64)];
				count += rnd(&r, 3);
			}
			struct tl_dcfg_seq s;
			literal_seq(&b, &s);
			struct tl_dcfg_chunk cr, cl;
			static struct log lr, ll;
			ATF_CHECK_MSG(decoded_alike(&doc, seq_node, &s, &ref, &lut, count, &cr, &cl, &lr, &ll),
				      "%u ways, case %u: reference ok=%d edges=%llu last=%llu, tables ok=%d edges=%llu last=%llu\n%s---\n%s",
				      ways[wi], k, cr.ok, (unsigned long long)cr.edges_done, (unsigned long long)cr.last_edge, cl.ok,
				      (unsigned long long)cl.edges_done, (unsigned long long)cl.last_edge, lr.text, ll.text);
			decoded += k < 2 && cr.ok;
			free(s.items);
			free(b.text);
		}
		tl_dcfg_ttable_free(&ref);
		tl_dcfg_ttable_free(&lut);
		free(w.codes);
		free(w.n);
	}
	ATF_CHECK_EQ(decoded, 4);
	tl_json_free(&doc.doc);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, random_tables_and_sequences);
	ATF_TP_ADD_TC(tp, lookup_tables_are_bounded);
	ATF_TP_ADD_TC(tp, step_tables_are_bounded);
	ATF_TP_ADD_TC(tp, char_tables);
	ATF_TP_ADD_TC(tp, char_walks_that_never_meet);
	ATF_TP_ADD_TC(tp, wide_shapes);
	ATF_TP_ADD_TC(tp, corpus_chunks);
	return atf_no_error();
}
