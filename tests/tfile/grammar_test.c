/* The tfile payload grammars, case by case: each row puts one description
 * line into an otherwise valid trace and names the only rule it must
 * trigger (or none). The corpus has one file per rule; these tables pin the
 * edges of each grammar (accepted forms gdb writes, near misses). */
#include <atf-c.h>

#include <stdio.h>
#include <string.h>

#include "tracelint.h"

struct row {
	const char *line;
	const char *rule; /* the one rule reported, or NULL for none */
};

struct seen {
	int count;
	char rules[8][48];
	char first_message[256];
};

static void collect(const struct tl_diagnostic *d, void *user)
{
	struct seen *s = user;
	if (s->count == 0)
		snprintf(s->first_message, sizeof s->first_message, "%s", d->message);
	if (s->count < 8)
		snprintf(s->rules[s->count], sizeof s->rules[0], "%s", d->rule->id);
	s->count++;
}

/* A small valid trace: one tracepoint, two variables, one frame with R (16
 * bytes), M and V blocks, little-endian. A status line in extra replaces the
 * trace's own; any other line is appended to the description. */
static size_t build(char *buf, size_t cap, const char *extra)
{
	const char *status = "status 0;tstop::0;tframes:1;tcreated:1;tfree:10;tsize:20";
	if (strncmp(extra, "status ", 7) == 0) {
		status = extra;
		extra = "";
	}
	static const unsigned char frame[] = {
		1, 0, 43, 0, 0, 0,                                  /* tpnum 1, 43 bytes */
		'R', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		'M', 0x60, 0x40, 0x40, 0, 0, 0, 0, 0, 2, 0, 0xaa, 0xbb,
		'V', 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,                                         /* end marker */
	};
	int n = snprintf(buf, cap,
			 "\x7fTRACE0\nR 10\n%s\n"
			 "tsv 1:0:1:74726163655f74696d657374616d70\ntsv 2:0:0:68697473\n"
			 "tp T1:401000:E:0:0\ntp Z1:401000:at:0:4:6d61696e\n%s%s\n",
			 status, extra, extra[0] ? "\n" : "");
	ATF_REQUIRE(n > 0 && (size_t)n + sizeof frame < cap);
	memcpy(buf + n, frame, sizeof frame);
	return (size_t)n + sizeof frame;
}

static void check_rows(const struct row *rows, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		char buf[4096];
		size_t size = build(buf, sizeof buf, rows[i].line);
		struct tl_options opts;
		tl_options_init(&opts);
		opts.format = TL_FORMAT_TFILE;
		struct seen s;
		memset(&s, 0, sizeof s);
		opts.on_diag = collect;
		opts.user = &s;
		struct tl_result result;
		ATF_REQUIRE_EQ(tl_validate_buffer(buf, size, "t.tf", &opts, &result, NULL, 0), TL_OK);
		if (!rows[i].rule) {
			ATF_CHECK_MSG(s.count == 0, "\"%s\": expected no diagnostic, got %s (%s)",
				      rows[i].line, s.rules[0], s.first_message);
		} else {
			ATF_CHECK_MSG(s.count == 1 && strcmp(s.rules[0], rows[i].rule) == 0,
				      "\"%s\": expected only %s, got %d diagnostics, first %s (%s)",
				      rows[i].line, rows[i].rule, s.count, s.count ? s.rules[0] : "-",
				      s.first_message);
		}
	}
}

#define CHECK_ROWS(rows) check_rows(rows, sizeof rows / sizeof rows[0])

ATF_TC_WITHOUT_HEAD(base_is_valid);
ATF_TC_BODY(base_is_valid, tc)
{
	static const struct row rows[] = { { "", NULL } };
	CHECK_ROWS(rows);
}

ATF_TC_WITHOUT_HEAD(status_grammar);
ATF_TC_BODY(status_grammar, tc)
{
	static const struct row rows[] = {
		/* Forms gdb 13.1 wrote (tfile_write_status). */
		{ "status 0;tstop::0;tframes:1;tcreated:a;tfree:4f9d40;tsize:500000;starttime:3b276dad;"
		  "stoptime:3b2783cb;notes:;username:", NULL },
		{ "status 0;tpasscount:2;tframes:1", NULL },
		{ "status 0;tfull:0;tframes:1;tsize:c8", NULL },
		{ "status 0;tstop:636f6c6c6563746564:0;tframes:1;notes:7468;username:616c696365", NULL },
		{ "status 1;tnotrun:0;tframes:1;disconn:1;circular:1", NULL },
		{ "status 0;tstop:0;tframes:1", NULL },                  /* old tstop form */
		{ "status 0;terror:6f6f7073:3;tframes:1", NULL },
		{ "status 0;tunknown:0;tframes:1", NULL },
		{ "status 0;tdisconnected:0;tframes:1", NULL },
		/* Near misses. */
		{ "status 0;terror:3;tframes:1", "TFILE-STATUS-REASON-ARGS" },
		{ "status 0;tfull:0:1;tframes:1", "TFILE-STATUS-REASON-ARGS" },
		{ "status 0;tstop::;tframes:1", "TFILE-STATUS-REASON-ARGS" },
		{ "status 0;tstop:abc:0;tframes:1", "TFILE-STATUS-TEXT" },
		{ "status 0;tframes:1", "TFILE-STATUS-REASON" },
		{ "status 0;tstop::0;tfull:0;tframes:1", "TFILE-STATUS-REASON" },
		{ "status 0", "TFILE-STATUS-REASON" },
		{ "status 0;", "TFILE-STATUS-SYNTAX" },
		{ "status 0;tstop::0;tframes", "TFILE-STATUS-SYNTAX" },
		{ "status 0;tstop::0;:1;tframes:1", "TFILE-STATUS-SYNTAX" },
		{ "status 01;tstop::0;tframes:1", "TFILE-STATUS-RUNNING" },
		{ "status ;tstop::0", "TFILE-STATUS-RUNNING" },
		{ "status 0;tstop::0;tframes:1;tsize:", "TFILE-STATUS-NUMBER" },
		{ "status 0;tstop::0;tframes:1;tsize:1_0", "TFILE-STATUS-NUMBER" },
		{ "status 0;tstop::0;tframes:1;starttime:fffffffffffffffff", "TFILE-STATUS-NUMBER" },
		{ "status 0;tstop::0;tframes:1;starttime:ffffffffffffffff", NULL },
		{ "status 0;tstop::0;tframes:1;tframes:1", "TFILE-STATUS-KEY-REPEATED" },
		{ "status 0;tstop::0;tframes:1;tfr:1", "TFILE-STATUS-KEY" },
		{ "status 0;tstop::0;tframes:2", "TFILE-STATUS-TFRAMES" },
		{ "status 0;tstop::0;tframes:1;tcreated:0", "TFILE-STATUS-TCREATED" },
		{ "status 0;tstop::0;tframes:1;tfree:21;tsize:20", "TFILE-STATUS-TFREE" },
	};
	CHECK_ROWS(rows);
}

ATF_TC_WITHOUT_HEAD(tsv_grammar);
ATF_TC_BODY(tsv_grammar, tc)
{
	static const struct row rows[] = {
		{ "tsv 3:fffffffffffffffb:0:6e6567", NULL },       /* $neg = -5, as gdb writes it */
		{ "tsv 3:123456789abcdef0:0:77696465", NULL },
		{ "tsv 7fffffff:0:0:6d6178", NULL },
		{ "tsv 80000000:0:0:6d6178", "TFILE-TSV-SYNTAX" },  /* beyond a V block's i32 */
		{ "tsv 3:1123456789abcdef0:0:77696465", "TFILE-TSV-SYNTAX" }, /* 17 digits */
		{ "tsv 3::0:6e6567", "TFILE-TSV-SYNTAX" },
		{ "tsv 3:0:1:6e656", "TFILE-TSV-SYNTAX" },          /* odd-length name */
		{ "tsv 3:0:1:6e65zz", "TFILE-TSV-SYNTAX" },
		{ "tsv 3:0:1:0a0b", "TFILE-TSV-NAME" },
		{ "tsv 2:0:0:6f74686572", "TFILE-TSV-DUPLICATE-NUMBER" },
		{ "tsv 9:0:0:68697473", "TFILE-TSV-DUPLICATE-NAME" },
	};
	CHECK_ROWS(rows);
}

ATF_TC_WITHOUT_HEAD(tp_grammar);
ATF_TC_BODY(tp_grammar, tc)
{
	static const struct row rows[] = {
		{ "tp A1:401000:R0fffffffffffffffffffffffffffffffffffff", NULL },
		{ "tp A1:401000:M-1,404060,40", NULL },
		{ "tp A1:401000:M6,10,8", NULL },
		{ "tp A1:401000:X0000000F,26000622100222ec16080222040c27", NULL },
		{ "tp A1:401000:R3M-1,404060,4X1,27", NULL },         /* chained actions */
		{ "tp A1:401000:X0000000F,2600", "TFILE-TP-ACTION" },  /* short bytecode */
		{ "tp A1:401000:M-1,404060", "TFILE-TP-ACTION" },
		{ "tp A1:401000:", "TFILE-TP-ACTION" },
		{ "tp A1:401000:R", "TFILE-TP-ACTION" },
		{ "tp Z1:401000:cmd:0:10:7768696c652d7374657070696e672034", NULL },
		{ "tp Z1:401000:cond:0:c:28692025203329203d3d2030", NULL },
		{ "tp Z1:401000:cmd:0:1:656", "TFILE-TP-Z-SYNTAX" },
		{ "tp Z1:401000:cmd:0:1", "TFILE-TP-Z-SYNTAX" },
		{ "tp Z1:401000:cmd:0:4:6d61696e", NULL },
		{ "tp Z1:401000:cmd:0:3:6d61696e", "TFILE-TP-Z-LENGTH" },
		{ "tp V1:401000:10:25220", NULL },                    /* decimal digits, read as hex */
		{ "tp V1:401000:10:", "TFILE-TP-V-SYNTAX" },
		{ "tp V1:401000:1:2:3", "TFILE-TP-V-SYNTAX" },
		{ "tp T2:402000:D:0:0", NULL },
		{ "tp T2:402000:E:4:3:F0", NULL },
		{ "tp T2:402000:E:0:0:F5:F5", "TFILE-TP-T-SYNTAX" },  /* an option twice */
		{ "tp T2:402000:E:0:0:", "TFILE-TP-T-SYNTAX" },
		{ "tp T2:402000:E:0", "TFILE-TP-T-SYNTAX" },
		{ "tp T2:402000:e:0:0", "TFILE-TP-T-SYNTAX" },
		{ "tp T2:402000:E:0:0:X0,", "TFILE-TP-T-SYNTAX" },
		{ "tp T0:402000:E:0:0", "TFILE-TP-NUMBER" },
		{ "tp T7fff:402000:E:0:0", NULL },
		{ "tp T2:11223344556677889:E:0:0", "TFILE-TP-PREFIX" }, /* 17 address digits */
		{ "tp T2", "TFILE-TP-PREFIX" },
		{ "tp ", "TFILE-TP-PREFIX" },
		{ "tp q1:401000:", "TFILE-TP-PREFIX" },
		{ "tp Q1:401000:", "TFILE-TP-PIECE" },
		{ "tp V3:403000:0:0", "TFILE-TP-NO-T" },
	};
	CHECK_ROWS(rows);
}

ATF_TC_WITHOUT_HEAD(r_and_framing);
ATF_TC_BODY(r_and_framing, tc)
{
	static const struct row rows[] = {
		{ "R 10", "TFILE-R-DUPLICATE" },
		{ "tdesc <target><architecture>i386:x86-64</architecture></target>", NULL },
		{ "tdesc <target><architecture>s390:64-bit</architecture></target>", NULL },
		{ "tdesc <target>", "TFILE-TDESC-XML" },
		{ "tdesc <target><architecture>vax11</architecture></target>", "TFILE-TDESC-ARCH" },
		{ "tdesc <feature/>", "TFILE-TDESC-ROOT" },
		{ "tdesc <target>\t<architecture>i386:x86-64</architecture></target>", NULL },
		{ "x", "TFILE-LINE-PREFIX" },
	};
	CHECK_ROWS(rows);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, base_is_valid);
	ATF_TP_ADD_TC(tp, status_grammar);
	ATF_TP_ADD_TC(tp, tsv_grammar);
	ATF_TP_ADD_TC(tp, tp_grammar);
	ATF_TP_ADD_TC(tp, r_and_framing);
	return atf_no_error();
}
