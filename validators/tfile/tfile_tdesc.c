/* tdesc lines: the target description XML, one line per payload. The lines
 * are streamed into expat as they come; XML line N is the N-th tdesc line,
 * which maps expat's positions back to the file. */
#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "tfile.h"
#include "grow.h"

struct tdesc_line { uint32_t line; uint64_t offset; };

struct tfile_tdesc {
	XML_Parser parser;
	struct tl_ctx *ctx;
	struct tdesc_line *lines;
	size_t count, cap;
	bool failed;          /* an XML error was reported: stop feeding */
	bool root_checked;
	int depth;
	bool in_architecture;
	char architecture[64];
	size_t architecture_len;
};

/* Architecture families GDB knows (bfd names before ':'), with their byte
 * order when it is fixed: 1 little, 2 big, 0 either. */
static const struct { const char *name; int endian; bool bits32; } arches[] = {
	{ "i386", 1, false }, { "i8086", 1, true }, { "aarch64", 1, false }, { "arm", 0, true },
	{ "riscv", 1, false }, { "loongarch", 1, false }, { "powerpc", 0, false },
	{ "rs6000", 2, false }, { "s390", 2, false }, { "mips", 0, false }, { "sparc", 2, false },
	{ "m68k", 2, true }, { "ia64", 1, false }, { "alpha", 1, false }, { "hppa", 2, false },
	{ "sh", 0, true }, { "nios2", 0, true }, { "msp430", 1, true }, { "xtensa", 0, true },
	{ "or1k", 2, true }, { "arc", 0, true }, { "csky", 1, true }, { "tic6x", 0, true },
	{ "m32r", 0, true }, { "mn10300", 1, true }, { "rx", 0, true }, { "v850", 1, true },
	{ "bfin", 1, true }, { "ft32", 1, true }, { "frv", 2, true }, { "lm32", 2, true },
	{ "moxie", 0, true }, { "cris", 1, true }, { "h8300", 2, true }, { "avr", 1, true },
	{ "z80", 1, true }, { "iq2000", 2, true }, { "microblaze", 0, true }, { "m32c", 1, true },
	{ "m68hc11", 2, true }, { "m68hc12", 2, true }, { "pru", 1, true }, { "vax", 1, true },
	{ "bpf", 0, false }, { "amdgcn", 1, false }, { "kvx", 1, false },
};

static struct tl_location position(const struct tfile_tdesc *x)
{
	XML_Size xml_line = XML_GetCurrentLineNumber(x->parser);
	XML_Size xml_col = XML_GetCurrentColumnNumber(x->parser);
	if (x->count == 0)
		return tl_at_text(0, 1, 1);
	size_t i = xml_line >= 1 && xml_line <= x->count ? (size_t)xml_line - 1 : x->count - 1;
	/* "tdesc " is 6 bytes: the payload starts at column 7. */
	return tl_at_text(x->lines[i].offset + 6 + xml_col, x->lines[i].line, 7 + (uint32_t)xml_col);
}

static void on_start(void *user, const XML_Char *name, const XML_Char **attrs)
{
	struct tfile_tdesc *x = user;
	(void)attrs;
	if (x->depth++ == 0 && !x->root_checked) {
		x->root_checked = true;
		if (strcmp(name, "target") != 0) {
			struct tl_location loc = position(x);
			tl_report(x->ctx, RULE_TFILE_TDESC_ROOT, &loc,
				  MSG_TFILE_TDESC_ROOT, name);
		}
	}
	const char *colon = strchr(name, ':');
	if (strcmp(name, "xi:include") == 0 || (colon && strcmp(colon + 1, "include") == 0)) {
		struct tl_location loc = position(x);
		tl_report(x->ctx, RULE_TFILE_TDESC_INCLUDE, &loc,
			  MSG_TFILE_TDESC_INCLUDE, name);
	}
	if (strcmp(name, "architecture") == 0) {
		x->in_architecture = true;
		x->architecture_len = 0;
	}
}

static void on_end(void *user, const XML_Char *name)
{
	struct tfile_tdesc *x = user;
	(void)name;
	x->depth--;
	x->in_architecture = false;
}

static void on_text(void *user, const XML_Char *s, int len)
{
	struct tfile_tdesc *x = user;
	if (!x->in_architecture)
		return;
	for (int i = 0; i < len && x->architecture_len + 1 < sizeof x->architecture; i++)
		x->architecture[x->architecture_len++] = s[i];
	x->architecture[x->architecture_len] = '\0';
}

struct tfile_tdesc *tl_tfile_tdesc_new(void)
{
	struct tfile_tdesc *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->parser = XML_ParserCreate(NULL);
	if (!x->parser) {
		free(x);
		return NULL;
	}
	XML_SetUserData(x->parser, x);
	XML_SetElementHandler(x->parser, on_start, on_end);
	XML_SetCharacterDataHandler(x->parser, on_text);
	return x;
}

static void report_xml_error(struct tfile_tdesc *x)
{
	x->failed = true;
	if (XML_GetErrorCode(x->parser) == XML_ERROR_NO_MEMORY) {
		tl_out_of_memory(x->ctx);
		return;
	}
	struct tl_location loc = position(x);
	tl_report(x->ctx, RULE_TFILE_TDESC_XML, &loc,
		  MSG_TFILE_TDESC_XML, XML_ErrorString(XML_GetErrorCode(x->parser)));
	x->failed = true;
}

void tl_tfile_tdesc_line(struct tl_ctx *ctx, struct tfile_tdesc *x, const struct tfile_text *t)
{
	x->ctx = ctx;
	if (x->failed)
		return;
	struct tdesc_line *grown = tl_grow_array(x->lines, &x->cap, x->count, sizeof *grown, 64);
	if (!grown) {
		x->failed = true;
		tl_out_of_memory(ctx);
		return;
	}
	x->lines = grown;
	x->lines[x->count++] = (struct tdesc_line){ t->line, t->offset - 6 };
	/* expat takes int lengths: feed a huge (already reported) line in pieces. */
	for (size_t done = 0; done < t->len;) {
		size_t n = t->len - done > (1u << 20) ? (1u << 20) : t->len - done;
		if (XML_Parse(x->parser, (const char *)t->p + done, (int)n, 0) != XML_STATUS_OK) {
			report_xml_error(x);
			return;
		}
		done += n;
	}
	if (XML_Parse(x->parser, "\n", 1, 0) != XML_STATUS_OK)
		report_xml_error(x);
}

void tl_tfile_tdesc_finish(struct tl_ctx *ctx, struct tfile_tdesc *x, struct tfile_desc *desc)
{
	x->ctx = ctx;
	if (!x->failed && XML_Parse(x->parser, "", 0, 1) != XML_STATUS_OK)
		report_xml_error(x);
	if (x->architecture_len == 0)
		return;
	char family[sizeof x->architecture];
	size_t n = strcspn(x->architecture, ":");
	memcpy(family, x->architecture, n);
	family[n] = '\0';
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++) {
		if (strcmp(family, arches[i].name) != 0)
			continue;
		desc->arch_endian = arches[i].endian;
		/* "i386:x86-64" and friends name the 64-bit variant after the colon. */
		desc->arch_32bit = arches[i].bits32 || (strcmp(x->architecture, "i386") == 0);
		return;
	}
	char q[80];
	struct tl_location loc = tl_at_text(x->lines[0].offset, x->lines[0].line, 1);
	tl_report(ctx, RULE_TFILE_TDESC_ARCH, &loc,
		  MSG_TFILE_TDESC_ARCH,
		  tl_quote(q, sizeof q, (const uint8_t *)x->architecture, x->architecture_len));
}

void tl_tfile_tdesc_free(struct tfile_tdesc *x)
{
	XML_ParserFree(x->parser);
	free(x->lines);
	free(x);
}
