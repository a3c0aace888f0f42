/* tracelint: validators for trace file formats (LLVM XRay, Intel DCFG and
 * DCFG-trace, UMTracer, GDB tfile).
 *
 * The library validates one input at a time and hands every diagnostic to a
 * callback as it is found, so an embedding tool decides what to do with it.
 * Nothing here aborts or prints; all state lives in the caller's objects. */
#ifndef TRACELINT_H
#define TRACELINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The release: TRACELINT_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 + PATCH,
 * for #if tests; tl_version() says which library a program runs with. */
#define TRACELINT_VERSION_MAJOR 0
#define TRACELINT_VERSION_MINOR 1
#define TRACELINT_VERSION_PATCH 0
#define TRACELINT_VERSION "0.1.0"
#define TRACELINT_VERSION_NUMBER \
	(TRACELINT_VERSION_MAJOR * 10000 + TRACELINT_VERSION_MINOR * 100 + TRACELINT_VERSION_PATCH)

/* What the shared library exports: these declarations and nothing else (it
 * is built with -fvisibility=hidden and a version script). */
#if defined(__GNUC__) && __GNUC__ >= 4
#define TL_API __attribute__((visibility("default")))
#else
#define TL_API
#endif

enum tl_format_id {
	TL_FORMAT_AUTO = 0,
	TL_FORMAT_XRAY,
	TL_FORMAT_DCFG,
	TL_FORMAT_DCFG_TRACE,
	TL_FORMAT_UMTRACE,
	TL_FORMAT_TFILE,
	TL_FORMAT_COUNT
};

enum tl_severity { TL_NOTE = 0, TL_WARNING = 1, TL_ERROR = 2 };

enum tl_endian { TL_ENDIAN_AUTO = 0, TL_ENDIAN_LITTLE, TL_ENDIAN_BIG };

/* One entry of the rule catalog (generated from specs/<format>.md). */
struct tl_rule_info {
	const char *id;        /* stable ID, e.g. "TFILE-HEADER-MAGIC" */
	enum tl_severity severity;
	const char *format;    /* "tfile", "xray", "dcfg", ..., or "core" */
	const char *summary;   /* one-line statement of the rule */
	const char *source;    /* seed section, tool behaviour or decision it comes from */
};

/* Where a diagnostic points. offset is always set; the rest when they apply. */
struct tl_location {
	uint64_t offset;       /* bytes from the start of the file (or member) */
	uint32_t line;         /* 1-based, 0 when the location is binary */
	uint32_t column;       /* 1-based, 0 when the location is binary */
	int64_t record;        /* record or frame index, -1 when none */
	const char *member;    /* file inside a trace directory, or NULL */
	const char *pointer;   /* RFC 6901 JSON Pointer, or NULL */
};

/* What a diagnostic is about, taken from the input when it is reported
 * (tl_options.context), so that a report can show it without reading the
 * input again: compressed files and standard input included. A later release
 * may add fields at the end; struct_size says how many the library filled. */
struct tl_diag_context {
	size_t struct_size;    /* sizeof (struct tl_diag_context) of the library */
	uint64_t field_offset; /* first byte of the field the rule is about */
	uint64_t field_size;   /* its bytes, at least 1 */
	const char *record;    /* its record decoded ("record: kind=function-exit
				* func=8 tsc_delta=41"), or "" */
	/* The input's bytes around the location: for a binary location the
	 * 16-byte rows holding the field (at most 48 bytes), for a text one the
	 * line from its first byte (at most 4096 bytes, no line end). */
	uint64_t bytes_offset; /* where bytes start in the file (or member) */
	const uint8_t *bytes;
	size_t byte_count;
};

struct tl_diagnostic {
	const struct tl_rule_info *rule;
	enum tl_severity severity;
	struct tl_location loc;
	const char *message;   /* says what was expected and what was found */
	/* With tl_options.context, else NULL; lives only during the call. */
	const struct tl_diag_context *context;
};

/* Called for every reported diagnostic; the pointers live only during the call. */
typedef void (*tl_diag_fn)(const struct tl_diagnostic *diag, void *user);

/* Rule control: what a setting does to the rules its pattern matches. */
enum tl_rule_action {
	TL_RULE_DEFAULT = 0,   /* the catalog's severity (re-enables a rule turned off) */
	TL_RULE_OFF,           /* neither reported nor counted */
	TL_RULE_NOTE,
	TL_RULE_WARNING,
	TL_RULE_ERROR
};

/* pattern: a rule ID ("XRAY-FDR-EXTENTS-EOF"), a glob over IDs ("XRAY-FDR-*",
 * fnmatch syntax), or a format name ("xray", "json", "core") for all its rules. */
struct tl_rule_setting {
	const char *pattern;
	enum tl_rule_action action;
};

/* Set up by tl_options_init(), which records the size of the struct the
 * program was compiled with: a newer library reads the fields that program
 * knows and uses defaults for the rest, so fields can be added at the end. */
struct tl_options {
	size_t struct_size;        /* set by tl_options_init; do not change */
	enum tl_format_id format;  /* TL_FORMAT_AUTO: detect by content */
	enum tl_endian endian;     /* binary formats whose files do not say */
	const char *pair_path;     /* DCFG for a DCFG-trace (--pair), or NULL */
	const char *instr_map_path; /* XRay-instrumented ELF binary (--instr-map), or NULL */
	unsigned max_errors;       /* stop reporting after this many; 0 = no limit */
	bool werror;               /* warnings make the verdict invalid */
	tl_diag_fn on_diag;        /* may be NULL */
	void *user;
	/* Applied in order to every rule; the last setting that matches wins. */
	const struct tl_rule_setting *rule_settings;
	size_t rule_setting_count;
	/* Most bytes spooled from standard input ("-"); 0 = the default, 4 GiB;
	 * UINT64_MAX = no limit but the file system's (and ulimit -f). */
	uint64_t stdin_limit;
	/* Threads one validation may use (bzip2 decoded by blocks); 0 = the
	 * TRACELINT_THREADS environment variable, else every core the process
	 * may run on. The result is the same whatever the number. */
	unsigned threads;
	/* Most memory the reader of one JSON document (DCFG, DCFG-trace) may
	 * hold; 0 = the default, 4 GiB. Past it, or past 1000 times the size of
	 * the file as given once over 64 MiB (a small compressed file that
	 * would take far more), the file ends with TL-RESOURCE-LIMIT and no
	 * verdict (TL_E_IO). */
	uint64_t max_memory;
	/* Baselines: asked about every diagnostic counted, also those past
	 * max_errors (which are not delivered), before it is delivered; true when
	 * a baseline already holds it. A known diagnostic is counted as before
	 * and in result->known_*, and goes to on_known instead of on_diag: the
	 * counts, the error limit and `truncated` are those of a run without a
	 * baseline, only the verdict leaves known diagnostics out. NULL: none is
	 * known. The TL-MAX-ERRORS note is never asked about. */
	bool (*is_known)(const struct tl_diagnostic *diag, void *user);
	tl_diag_fn on_known;       /* may be NULL: known diagnostics are not delivered */
	/* Every diagnostic delivered carries its context (struct tl_diag_context):
	 * the field, the decoded record and the bytes around it. */
	bool context;
};

#define TL_MAX_MEMORY_DEFAULT ((uint64_t)4 << 30)

struct tl_result {
	enum tl_format_id format;  /* the format validated (after detection) */
	bool valid;
	uint64_t errors;           /* found, including those not reported */
	uint64_t warnings;
	uint64_t notes;
	bool truncated;            /* reporting stopped at max_errors */
	char detail[128];          /* e.g. "little-endian (detected)", or "" */
	/* Of errors, warnings and notes, those opts->is_known found in a baseline;
	 * valid counts the others only. */
	uint64_t known_errors;
	uint64_t known_warnings;
	uint64_t known_notes;
};

/* Status of a validation call, separate from the verdict in tl_result. */
enum tl_status {
	TL_OK = 0,             /* validated; see result->valid */
	TL_E_IO = 1,           /* PATH could not be opened or read */
	TL_E_UNKNOWN_FORMAT,   /* auto-detection found no format */
	TL_E_USAGE             /* bad options (e.g. --pair without a DCFG-trace, an unusable --instr-map) */
};

TL_API void tl_options_init_sized(struct tl_options *opts, size_t struct_size);
#define tl_options_init(opts) tl_options_init_sized((opts), sizeof *(opts))

/* Validate a file, a UMTracer trace directory, or "-" (standard input).
 * On TL_E_IO / TL_E_UNKNOWN_FORMAT, err (if not NULL) receives a message. */
TL_API enum tl_status tl_validate_path_sized(const char *path, const struct tl_options *opts,
					   struct tl_result *result, size_t result_size, char *err,
					   size_t errlen);
#define tl_validate_path(path, opts, result, err, errlen) \
	tl_validate_path_sized((path), (opts), (result), sizeof *(result), (err), (errlen))

/* The format of a file or trace directory, by content (as TL_FORMAT_AUTO
 * chooses it), without validating it: TL_E_UNKNOWN_FORMAT when none fits. */
TL_API enum tl_status tl_detect_path(const char *path, enum tl_format_id *format, char *err,
				     size_t errlen);

/* Validate bytes already in memory. name is used in diagnostics only. */
TL_API enum tl_status tl_validate_buffer_sized(const void *data, size_t size, const char *name,
					     const struct tl_options *opts, struct tl_result *result,
					     size_t result_size, char *err, size_t errlen);
#define tl_validate_buffer(data, size, name, opts, result, err, errlen) \
	tl_validate_buffer_sized((data), (size), (name), (opts), (result), sizeof *(result), (err), \
				 (errlen))

/* A trace directory held in memory (e.g. by a fuzzer): its member files by name. */
struct tl_member {
	const char *name;      /* e.g. "exec.vtable" */
	const void *data;
	size_t size;
};

TL_API enum tl_status tl_validate_members_sized(const struct tl_member *members, size_t count,
					      const char *name, const struct tl_options *opts,
					      struct tl_result *result, size_t result_size, char *err,
					      size_t errlen);
#define tl_validate_members(members, count, name, opts, result, err, errlen) \
	tl_validate_members_sized((members), (count), (name), (opts), (result), sizeof *(result), \
				  (err), (errlen))

/* Output writers: the three report styles of the tracelint CLI, for embedders too.
 * Feed tl_writer_diag from tl_options.on_diag (with the writer as user). Every
 * style writes as diagnostics arrive; JSON keeps a path's diagnostics in a
 * temporary file ($TMPDIR) until its counts are known, so memory does not
 * grow with their number. */
enum tl_output_style { TL_OUTPUT_TEXT = 0, TL_OUTPUT_JSON, TL_OUTPUT_SARIF };
struct tl_writer;
TL_API struct tl_writer *tl_writer_new(enum tl_output_style style, void *stdio_file, bool quiet);
TL_API void tl_writer_begin(struct tl_writer *w, const char *path);
TL_API void tl_writer_diag(const struct tl_diagnostic *diag, void *writer);
/* status != TL_OK: the path could not be validated; message says why. */
TL_API void tl_writer_end(struct tl_writer *w, const struct tl_result *result,
		   enum tl_status status, const char *message);
/* Ends the document (JSON, SARIF) and frees the writer: 0, or -1 with errno
 * set when the report could not be written whole. */
TL_API int tl_writer_finish(struct tl_writer *w);
/* Baselines: with set_baseline, SARIF results carry baselineState "new";
 * tl_writer_known (fed from tl_options.on_known) hands over a diagnostic the
 * baseline already holds, which SARIF keeps as "unchanged" with an external
 * suppression and the text and JSON styles leave out; the JSON style adds
 * each path's known_errors, known_warnings and known_notes. */
TL_API void tl_writer_set_baseline(struct tl_writer *w, bool active);
TL_API void tl_writer_known(struct tl_writer *w, const struct tl_diagnostic *diag);
/* SARIF: artifact URIs relative to dir (uriBaseId SRCROOT, declared in
 * originalUriBaseIds) for every path below it. false when dir cannot be
 * resolved (errno set). */
TL_API bool tl_writer_set_source_root(struct tl_writer *w, const char *dir);
/* SARIF: each rule's helpUri is base + "<RULE-ID>.md" (the rule pages make
 * install writes to share/doc/tracelint/rules/, where a team publishes them);
 * by default the project's rule catalogs. false: no memory. */
TL_API bool tl_writer_set_help_base(struct tl_writer *w, const char *base);
/* Text: under each diagnostic, the bytes around a binary offset (hex and
 * ASCII, the offending field marked; XRay and tfile records decoded on a
 * line below) or the line with a caret at the column, from the context the
 * diagnostic carries (tl_options.context; none without it); and ANSI colours
 * as gcc uses them. Both off by default; tracelint turns them on for a
 * terminal. */
TL_API void tl_writer_set_context(struct tl_writer *w, bool context);
TL_API void tl_writer_set_color(struct tl_writer *w, bool color);

/* Format names as used on the command line: "xray", "dcfg", "dcfg-trace",
 * "umtrace", "tfile". */
TL_API const char *tl_format_name(enum tl_format_id format);
TL_API enum tl_format_id tl_format_from_name(const char *name); /* TL_FORMAT_COUNT if unknown */

/* The rule catalog. */
TL_API size_t tl_rule_count(void);
TL_API const struct tl_rule_info *tl_rule_at(size_t index);
TL_API const struct tl_rule_info *tl_rule_find(const char *id);
/* True when a rule setting's pattern matches the rule; tl_rule_pattern_matches
 * counts the catalog's rules it matches (0: a misspelt ID or glob). */
TL_API bool tl_rule_matches(const char *pattern, const struct tl_rule_info *rule);
TL_API size_t tl_rule_pattern_matches(const char *pattern);
/* The severity a rule is reported with under opts' settings; false when off. */
TL_API bool tl_rule_effective(const struct tl_options *opts, const struct tl_rule_info *rule,
		       enum tl_severity *severity);

TL_API const char *tl_severity_name(enum tl_severity severity);

/* A 16-hex-digit key that identifies a diagnostic across runs and unrelated
 * edits of the file (for baselines): path (as given, "./" and "//" folded),
 * rule, member, JSON Pointer, else the message with its digits masked. No
 * byte offset or record index is part of it. buf should hold 17 bytes. */
TL_API void tl_diagnostic_fingerprint(char *buf, size_t len, const char *path,
			       const struct tl_diagnostic *diag);

/* The library a program runs with: "0.1.0", and its TRACELINT_VERSION_NUMBER. */
TL_API const char *tl_version(void);
TL_API int tl_version_number(void);

/* Streaming, for producers: feed a trace as it is written, in chunks of any
 * size, then finish. The result and the diagnostics (through opts->on_diag)
 * are those of validating the whole file at once, whatever the chunking.
 * The bytes are kept in an unlinked temporary file ($TMPDIR), not in
 * memory, up to opts->stdin_limit (default 4 GiB). With the format given,
 * diagnostics arrive from tl_stream_feed as soon as the bytes they are about
 * are complete: each buffer of an XRay FDR trace of version 2-5 (what
 * compiler-rt writes), and the header, the description and each frame of a
 * GDB tfile when opts->endian gives its byte order. The rest arrive from
 * tl_stream_finish: XRay basic mode and version 1 and a tfile's frames of
 * detected byte order (their framing depends on the whole file), DCFG,
 * DCFG-trace and UMTracer tables, compressed bytes, and TL_FORMAT_AUTO.
 * name is used in diagnostics. NULL (with err) when the temporary file
 * cannot be made. */
struct tl_stream;
TL_API struct tl_stream *tl_stream_new(enum tl_format_id format, const char *name,
				       const struct tl_options *opts, char *err, size_t errlen);
/* TL_E_IO when the bytes cannot be kept (disk full, --stdin-limit's limit
 * of opts, ulimit -f); the stream then only accepts tl_stream_finish/free. */
TL_API enum tl_status tl_stream_feed(struct tl_stream *stream, const void *data, size_t size);
/* Validates what was fed; the stream is freed in every case. */
TL_API enum tl_status tl_stream_finish_sized(struct tl_stream *stream, struct tl_result *result,
					     size_t result_size, char *err, size_t errlen);
#define tl_stream_finish(stream, result, err, errlen) \
	tl_stream_finish_sized((stream), (result), sizeof *(result), (err), (errlen))
/* Abandons a stream without validating it. */
TL_API void tl_stream_free(struct tl_stream *stream);
/* Threads: one call at a time on a stream. tl_stream_feed,
 * tl_stream_finish_sized and tl_stream_free on the same stream must not
 * overlap (finish and free release it, so a call racing them reads freed
 * memory): a caller feeding from one thread and finishing from another
 * holds a lock across each call, as the Python binding's Stream does.
 * Different streams, and every other call of this header, may run on any
 * number of threads at once. */

#ifdef __cplusplus
}
#endif
#endif
