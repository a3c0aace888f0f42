/* trace.xml: well-formed XML (expat) holding Xed/Version and App/ProcessID under the
 * root, or under root/TraceMetaData in 2015 files (seed section 13). */
#include "umt.h"

#include <expat.h>
#include <string.h>

#define MAX_DEPTH 8
#define MAX_TEXT 64

enum xml_field { F_XED_VERSION, F_PROCESS_ID, F_BITNESS, F_COUNT };
static const char *const field_parent[F_COUNT] = { "Xed", "App", "App" };
static const char *const field_leaf[F_COUNT] = { "Version", "ProcessID", "Bitness" };

struct xml_field_value {
	bool seen;
	char text[MAX_TEXT + 1];
	size_t len;
	uint64_t offset;
	uint32_t line, col;
};

struct xml_state {
	XML_Parser parser;
	unsigned depth;
	char path[MAX_DEPTH][32];
	int capturing; /* field index, or -1 */
	struct xml_field_value v[F_COUNT];
};

/* Depth 1 is the root; fields sit at root/Parent/Leaf or root/TraceMetaData/Parent/Leaf. */
static int field_at(const struct xml_state *s)
{
	unsigned d = s->depth;
	if (d < 3 || d > MAX_DEPTH)
		return -1;
	if (d == 4 && strcmp(s->path[1], "TraceMetaData") != 0)
		return -1;
	if (d > 4)
		return -1;
	for (int f = 0; f < F_COUNT; f++)
		if (!strcmp(s->path[d - 2], field_parent[f]) && !strcmp(s->path[d - 1], field_leaf[f]))
			return f;
	return -1;
}

static void XMLCALL on_start(void *user, const XML_Char *name, const XML_Char **attrs)
{
	(void)attrs;
	struct xml_state *s = user;
	s->depth++;
	if (s->depth <= MAX_DEPTH) {
		size_t n = strlen(name);
		if (n >= sizeof s->path[0])
			n = sizeof s->path[0] - 1;
		memcpy(s->path[s->depth - 1], name, n);
		s->path[s->depth - 1][n] = '\0';
	}
	int f = field_at(s);
	s->capturing = -1;
	if (f >= 0 && !s->v[f].seen) {
		struct xml_field_value *v = &s->v[f];
		v->seen = true;
		v->offset = (uint64_t)XML_GetCurrentByteIndex(s->parser);
		v->line = (uint32_t)XML_GetCurrentLineNumber(s->parser);
		v->col = (uint32_t)XML_GetCurrentColumnNumber(s->parser) + 1;
		s->capturing = f;
	}
}

static void XMLCALL on_end(void *user, const XML_Char *name)
{
	(void)name;
	struct xml_state *s = user;
	if (s->depth)
		s->depth--;
	s->capturing = -1;
}

static void XMLCALL on_text(void *user, const XML_Char *text, int len)
{
	struct xml_state *s = user;
	if (s->capturing < 0 || len <= 0)
		return;
	struct xml_field_value *v = &s->v[s->capturing];
	for (int i = 0; i < len && v->len < MAX_TEXT; i++)
		v->text[v->len++] = text[i];
	v->text[v->len] = '\0';
}

/* Surrounding blanks are allowed; the rest must be decimal digits. */
static bool decimal(const char *text, uint64_t *value, size_t *digits)
{
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	uint64_t x = 0;
	size_t n = 0;
	for (; *p >= '0' && *p <= '9'; p++, n++) {
		uint64_t ten;
		if (!tl_mul_u64(x, 10, &ten) || !tl_add_u64(ten, (uint64_t)(*p - '0'), &x))
			return false;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	*value = x;
	*digits = n;
	return n > 0 && *p == '\0';
}

static void check_fields(struct umt_trace *t, struct xml_state *s, unsigned *bitness)
{
	struct xml_field_value *xed = &s->v[F_XED_VERSION];
	uint64_t value;
	size_t digits;
	char quoted[96];
	if (!xed->seen) {
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_XED_VERSION, 0, 1, 1,
				MSG_UMT_XML_XED_VERSION);
	} else if (!decimal(xed->text, &value, &digits)) {
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_XED_VERSION_SYNTAX, xed->offset, xed->line, xed->col,
				MSG_UMT_XML_XED_VERSION_SYNTAX,
				tl_quote(quoted, sizeof quoted, (const uint8_t *)xed->text, xed->len));
	} else if (digits == 8 && value > 20150121) {
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_XED_VERSION_DATE, xed->offset, xed->line, xed->col,
				MSG_UMT_XML_XED_VERSION_DATE,
				(unsigned long long)value);
	}
	struct xml_field_value *pid = &s->v[F_PROCESS_ID];
	if (!pid->seen)
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_PROCESS_ID, 0, 1, 1,
				MSG_UMT_XML_PROCESS_ID);
	else if (!decimal(pid->text, &value, &digits))
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_PROCESS_ID_SYNTAX, pid->offset, pid->line, pid->col,
				MSG_UMT_XML_PROCESS_ID_SYNTAX,
				tl_quote(quoted, sizeof quoted, (const uint8_t *)pid->text, pid->len));
	struct xml_field_value *bits = &s->v[F_BITNESS];
	if (bits->seen && (!decimal(bits->text, &value, &digits) || (value != 32 && value != 64)))
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_BITNESS, bits->offset, bits->line, bits->col,
				MSG_UMT_XML_BITNESS,
				tl_quote(quoted, sizeof quoted, (const uint8_t *)bits->text, bits->len));
	else if (bits->seen)
		*bitness = (unsigned)value;
}

void tl_umt_check_xml(struct umt_trace *t, unsigned *bitness)
{
	const struct tl_input *in = &t->f[M_XML];
	struct xml_state s;
	memset(&s, 0, sizeof s);
	s.capturing = -1;
	s.parser = XML_ParserCreate(NULL);
	if (!s.parser) {
		tl_out_of_memory(t->ctx);
		return;
	}
	XML_SetUserData(s.parser, &s);
	XML_SetElementHandler(s.parser, on_start, on_end);
	XML_SetCharacterDataHandler(s.parser, on_text);
	/* expat takes int lengths: feed the file in chunks. */
	const size_t chunk = 1u << 20;
	size_t done = 0;
	bool ok = true;
	struct tl_cursor rest = { NULL, 0, 0 }; /* an empty file has no mapping: one final empty chunk */
	bool mapped = tl_cursor_at(&rest, in->data, in->size, 0, in->size);
	do {
		size_t n = in->size - done < chunk ? in->size - done : chunk;
		bool final = done + n == in->size;
		const uint8_t *p = (const uint8_t *)"";
		if (mapped && !tl_cursor_bytes(&rest, n, &p))
			break;
		if (XML_Parse(s.parser, (const char *)p, (int)n, final) == XML_STATUS_ERROR) {
			ok = false;
			break;
		}
		done += n;
	} while (done < in->size);
	if (!ok && XML_GetErrorCode(s.parser) == XML_ERROR_NO_MEMORY) {
		tl_out_of_memory(t->ctx);
	} else if (!ok) {
		XML_Index at = XML_GetCurrentByteIndex(s.parser);
		tl_umt_report_text(t, M_XML, RULE_UMT_XML_SYNTAX, at < 0 ? 0 : (uint64_t)at,
				(uint32_t)XML_GetCurrentLineNumber(s.parser),
				(uint32_t)XML_GetCurrentColumnNumber(s.parser) + 1,
				MSG_UMT_XML_SYNTAX,
				XML_ErrorString(XML_GetErrorCode(s.parser)));
	} else {
		check_fields(t, &s, bitness);
	}
	XML_ParserFree(s.parser);
}
