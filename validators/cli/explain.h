/* The rules' explanations and corpus examples, generated from specs/ and
 * corpus/ into the program (--explain, the rule pages). */
#ifndef TL_CLI_EXPLAIN_H
#define TL_CLI_EXPLAIN_H

struct cli_explanation {
	const char *id, *why, *fix;
};
struct cli_example {
	const char *id;
	const char *path;      /* the corpus case, relative to the source tree */
	const char *location;  /* as its .expected gives it: offset, or line:column */
	const char *excerpt;   /* the bytes or the line there, as --context shows them */
};

/* NULL when the catalog has none for the rule. */
const struct cli_explanation *cli_explanation_of(const char *id);
const struct cli_example *cli_example_of(const char *id);

struct cli;
/* --explain: the paths are rule IDs or globs; text or JSON (-o json). */
int cli_explain(const struct cli *c);

#endif
