#! /usr/bin/env atf-sh
# Messages are the catalogs' data: every report call names a template of the
# rule catalogs (specs/, "## Messages") instead of writing its message, and
# every template is used (messages_check.py says how calls are found).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
CHECK="$SRCDIR/tests/core/messages_check.py"

atf_test_case sources_use_templates
sources_use_templates_head() {
	atf_set descr "no report call under validators/ writes a literal message, and every catalog template is used"
	atf_set require.progs python3
}
sources_use_templates_body() {
	atf_check -o empty python3 "$CHECK" "$SRCDIR"
}

# A small tree: a report function, a catalog with two rules and three templates.
make_tree() {
	mkdir -p tree/validators/x tree/specs
	cat > tree/validators/x/report.h <<'C'
void tl_report(struct tl_ctx *ctx, enum tl_rule_id rule, const struct tl_location *loc,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
C
	cat > tree/specs/x.md <<'MD'
| ID | Severity | Rule | Source |
|----|----------|------|--------|
| XRAY-A | error | A. | s |
| XRAY-B | error | B. | s |

## Messages

| Message | Rules | Template |
|---------|-------|----------|
| XRAY-A | XRAY-A | `expected a, found %u` |
| XRAY-B | XRAY-B | `expected b, found %<PRIu64>` |
| XRAY-B-2 | XRAY-B | `expected b once, found it twice` |
MD
}

atf_test_case finds_literals_and_unused
finds_literals_and_unused_head() {
	atf_set descr "a literal message at a call site, a template no code uses, one of another rule, and one no catalog has are each reported"
	atf_set require.progs python3
}
finds_literals_and_unused_body() {
	make_tree
	cat > tree/validators/x/a.c <<'C'
/* a comment naming tl_report(ctx, RULE_XRAY_A, &loc, "not a call") */
static void check(struct tl_ctx *ctx, struct tl_location loc)
{
	tl_report(ctx, RULE_XRAY_A, &loc, MSG_XRAY_A, 1u);
	tl_report(ctx, RULE_XRAY_B, &loc,
		  "expected b, found %" PRIu64, (uint64_t)2);
	tl_report(ctx, RULE_XRAY_A, &loc, MSG_XRAY_B_2);
	tl_report(ctx, RULE_XRAY_A, &loc, MSG_XRAY_C);
}
C
	atf_check -s exit:1 -o save:out python3 "$CHECK" tree
	cat > expected <<'OUT'
literal validators/x/a.c:5: tl_report( ... "expected b, found %" PRIu64) writes its message instead of naming a catalog template
foreign validators/x/a.c:7: MSG_XRAY_B_2 is not a template of XRAY-A
undefined validators/x/a.c:8: MSG_XRAY_C is in no catalog's Messages table
unused MSG_XRAY_B: no code under validators/ uses this catalog template
OUT
	atf_check -o file:expected cat out
}

atf_test_case rendered_messages
rendered_messages_head() {
	atf_set descr "a wrapper passes on a rendered message; with a rule of its own it names the templates that rendered it"
	atf_set require.progs python3
}
rendered_messages_body() {
	make_tree
	cat > tree/validators/x/a.c <<'C'
static void wrapper(struct tl_ctx *ctx, enum tl_rule_id rule, struct tl_location loc, const char *msg)
{
	tl_report(ctx, rule, &loc, TL_MSG_RENDERED, msg);
	/* rendered from MSG_XRAY_A or MSG_XRAY_B */
	tl_report(ctx, pick ? RULE_XRAY_A : RULE_XRAY_B, &loc, TL_MSG_RENDERED, msg);
	tl_report(ctx, RULE_XRAY_B, &loc, TL_MSG_RENDERED, msg);
	/* rendered from MSG_XRAY_B_2 */
	tl_report(ctx, RULE_XRAY_A, &loc, TL_MSG_RENDERED, msg);
}

static void render(char *msg, size_t len)
{
	snprintf(msg, len, MSG_XRAY_A, 1u);
	snprintf(msg, len, MSG_XRAY_B, (uint64_t)1);
	snprintf(msg, len, MSG_XRAY_B_2);
}
C
	atf_check -s exit:1 -o save:out python3 "$CHECK" tree
	cat > expected <<'OUT'
foreign validators/x/a.c:6: TL_MSG_RENDERED with XRAY-B (a rule's message is its catalog template)
foreign validators/x/a.c:8: TL_MSG_RENDERED with XRAY-A (a rule's message is its catalog template)
OUT
	atf_check -o file:expected cat out
}

atf_test_case generated_macros
generated_macros_head() {
	atf_set descr "gen-rules.awk turns each template into a MSG_ macro, <PRI...> into that macro, and refuses templates of rules no catalog has"
}
generated_macros_body() {
	make_tree
	sed -i 's/found %<PRIu64>`/found %<PRIu64> "quoted"`/' tree/specs/x.md
	atf_check -o save:h awk -v emit=messages -f "$SRCDIR/validators/core/gen-rules.awk" tree/specs/x.md
	atf_check -o inline:'#define MSG_XRAY_B "expected b, found %" PRIu64 " \\"quoted\\""\n' grep 'MSG_XRAY_B ' h
	atf_check -o inline:'#define MSG_XRAY_A "expected a, found %u"\n' grep 'MSG_XRAY_A ' h
	echo '| XRAY-C | XRAY-NONE | `x` |' >> tree/specs/x.md
	atf_check -s not-exit:0 -o ignore -e match:"XRAY-NONE, which no catalog defines" \
		awk -v emit=messages -f "$SRCDIR/validators/core/gen-rules.awk" tree/specs/x.md
}

atf_init_test_cases() {
	atf_add_test_case sources_use_templates
	atf_add_test_case finds_literals_and_unused
	atf_add_test_case rendered_messages
	atf_add_test_case generated_macros
}
