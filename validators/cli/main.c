/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			rc = cli_list_rules(&c);
		else if (c.path_count == 0)
			rc = cli_usage_error("%s", "no PATH given");
		else
			rc = validate_all(&c);
	}
	cli_free(&c);
	return rc;
}
