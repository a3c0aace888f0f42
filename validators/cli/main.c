/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rules of one format, or of all; DCFG-trace includes the pair rules and
 * every JSON format includes the shared JSON rules. */
static bool rule_listed(const struct tl_rule_info *r, enum tl_format_id f)
{
	if (f == TL_FORMAT_AUTO)
		return true;
	const char *name = tl_format_name(f);
	if (strcmp(r->format, name) == 0 || strcmp(r->format, "core") == 0)
		return true;
	return strcmp(r->format, "json") == 0 &&
	       (f == TL_FORMAT_DCFG || f == TL_FORMAT_DCFG_TRACE);
}

static int list_rules(const struct cli *c)
{
	for (size_t i = 0; i < tl_rule_count(); i++) {
		const struct tl_rule_info *r = tl_rule_at(i);
		if (rule_listed(r, c->opts.format))
			printf("%-28s %-7s %-10s %s (%s)\n", r->id, tl_severity_name(r->severity),
			       r->format, r->summary, r->source);
	}
	return EXIT_VALID;
}

static int validate_all(struct cli *c)
{
	size_t stdin_count = 0;
	for (size_t i = 0; i < c->path_count; i++)
		stdin_count += strcmp(c->paths[i], "-") == 0;
	if (stdin_count > 1)
		return cli_usage_error("%s", "standard input ('-') named more than once");

	struct tl_writer *w = tl_writer_new(c->style, stdout, c->quiet);
	if (!w) {
		fprintf(stderr, "tracelint: out of memory\n");
		return EXIT_USAGE;
	}
	c->opts.on_diag = tl_writer_diag;
	c->opts.user = w;
	int exit_code = EXIT_VALID;
	for (size_t i = 0; i < c->path_count; i++) {
		struct tl_result result;
		char err[1024] = "";
		tl_writer_begin(w, c->paths[i]);
		enum tl_status s = tl_validate_path(c->paths[i], &c->opts, &result, err, sizeof err);
		tl_writer_end(w, &result, s, err);
		if (s != TL_OK)
			exit_code = EXIT_USAGE;
		else if (!result.valid && exit_code == EXIT_VALID)
			exit_code = EXIT_INVALID;
	}
	if (tl_writer_finish(w) != 0) {
		fprintf(stderr, "tracelint: cannot write the report: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	return exit_code;
}

int main(int argc, char **argv)
{
	struct cli c;
	memset(&c, 0, sizeof c);
	tl_options_init(&c.opts);
	int rc = cli_parse(&c, argc, argv);
	if (rc < 0) {
		if (c.list_rules)
			rc = list_rules(&c);
		else if (c.path_count == 0)
			rc = cli_usage_error("%s", "no PATH given");
		else
			rc = validate_all(&c);
	}
	cli_free(&c);
	return rc;
}
