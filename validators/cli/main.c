/* tracelint: the command-line front end, a thin layer over libtracelint. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The closing count of a run over several paths, on standard error so that
 * the report itself (stdout) stays one document in every style. */
struct tally {
	size_t valid, invalid, unreadable, skipped;
};

static void print_tally(const struct tally *t)
{
	fprintf(stderr, "tracelint: %zu file%s: %zu valid, %zu invalid, %zu unreadable, %zu skipped "
		"(format not recognised)\n", t->valid + t->invalid + t->unreadable + t->skipped,
		t->valid + t->invalid + t->unreadable + t->skipped == 1 ? "" : "s", t->valid, t->invalid,
		t->unreadable, t->skipped);
}

static int validate_all(struct cli *c)
{
	size_t stdin_count = c->files_from && strcmp(c->files_from, "-") == 0;
	for (size_t i = 0; i < c->path_count; i++)
		stdin_count += strcmp(c->paths[i], "-") == 0;
	if (stdin_count > 1)
		return cli_usage_error("%s", "standard input ('-') named more than once");
	if (c->nul_separated && !c->files_from)
		return cli_usage_error("%s", "-0 applies to --files-from");
	struct cli_targets targets = { 0 };
	bool listed = cli_expand(&targets, c->paths, c->path_count);
	if (listed && c->files_from && !cli_expand_list(&targets, c->files_from, c->nul_separated)) {
		fprintf(stderr, "tracelint: cannot read the paths of --files-from %s: %s\n", c->files_from,
			strerror(errno));
		cli_targets_free(&targets);
		return EXIT_USAGE;
	}
	if (!listed) {
		cli_targets_free(&targets);
		fprintf(stderr, "tracelint: out of memory\n");
		return EXIT_USAGE;
	}

	struct tl_writer *w = tl_writer_new(c->style, stdout, c->quiet);
	if (!w) {
		cli_targets_free(&targets);
		fprintf(stderr, "tracelint: out of memory\n");
		return EXIT_USAGE;
	}
	c->opts.on_diag = tl_writer_diag;
	c->opts.user = w;
	int exit_code = EXIT_VALID;
	struct tally tally = { 0 };
	bool walked = false;
	for (size_t i = 0; i < targets.count; i++) {
		const struct cli_target *t = &targets.items[i];
		struct tl_result result;
		char err[1024] = "";
		walked |= t->walked;
		enum tl_format_id found;
		if (t->walked && c->opts.format == TL_FORMAT_AUTO &&
		    tl_detect_path(t->path, &found, err, sizeof err) == TL_E_UNKNOWN_FORMAT) {
			/* a file of no known format found by a walk is skipped, not reported */
			tally.skipped++;
			continue;
		}
		tl_writer_begin(w, t->path);
		enum tl_status s = tl_validate_path(t->path, &c->opts, &result, err, sizeof err);
		tl_writer_end(w, &result, s, err);
		if (s != TL_OK) {
			exit_code = EXIT_USAGE;
			tally.unreadable++;
		} else if (!result.valid) {
			tally.invalid++;
			if (exit_code == EXIT_VALID)
				exit_code = EXIT_INVALID;
		} else {
			tally.valid++;
		}
	}
	cli_targets_free(&targets);
	if (tl_writer_finish(w) != 0) {
		fprintf(stderr, "tracelint: cannot write the report: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	/* -q keeps to one line a path, but a walk must say what it skipped */
	if (walked || (!c->quiet && (c->path_count > 1 || c->files_from)))
		print_tally(&tally);
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
		else if (c.path_count == 0 && !c.files_from)
			rc = cli_usage_error("%s", "no PATH given");
		else
			rc = validate_all(&c);
	}
	cli_free(&c);
	return rc;
}
