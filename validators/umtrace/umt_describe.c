/* The text context of a UMTracer diagnostic in one of the fixed-size tables
 * (ins, module, thread, address_space): the header field or the row column
 * the offset falls in (the marker spans it) and the header or the row,
 * decoded. Reads the member as the diagnostic is reported and reports nothing;
 * other members keep the one byte at the offset. The column layouts are the
 * row readers' (umt_ins.c, umt_module_row.c, umt_thread.c, umt_address.c). */
#include "umt.h"
#include "format.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum shown_as { SIGNED, UNSIGNED, ADDRESS };

struct column {
	const char *name;
	uint8_t at, width;
	enum shown_as as;
};

struct layout {
	const char *member;
	uint8_t header;          /* 48 with ExtraFP/ExtraSize, else 32 */
	uint8_t row_size;
	const char *record;
	const struct column *cols;
	size_t ncols;
};

static const struct column header_cols[] = {
	{ "HeaderVer", 0, 4, UNSIGNED }, { "RecordVer", 4, 4, UNSIGNED }, { "RowCount", 8, 8, SIGNED },
	{ "RowSize", 16, 8, SIGNED },   { "TableFP", 24, 8, SIGNED },   { "ExtraFP", 32, 8, SIGNED },
	{ "ExtraSize", 40, 8, SIGNED },
};

static const struct column ins_cols[] = {
	{ "Id", 0, 8, SIGNED },       { "Type", 8, 1, UNSIGNED },   { "CS64", 9, 1, UNSIGNED },
	{ "CodeSize", 10, 1, UNSIGNED }, { "Module", 12, 4, SIGNED },  { "Address", 16, 8, ADDRESS },
	{ "DisasmFP", 40, 8, SIGNED }, { "DecodedFP", 48, 8, SIGNED },
};
static const struct column module_cols[] = {
	{ "LoadEid", 0, 8, SIGNED },      { "UnloadEid", 8, 8, SIGNED },      { "StartAddr", 16, 8, ADDRESS },
	{ "EndAddr", 24, 8, ADDRESS },    { "WinNameFP", 32, 8, SIGNED },     { "DeviceNameFP", 40, 8, SIGNED },
};
static const struct column thread_cols[] = {
	{ "Id", 0, 4, SIGNED }, { "FirstEid", 16, 8, SIGNED }, { "LastEid", 24, 8, SIGNED }, { "Count", 32, 8, SIGNED },
};
static const struct column address_cols[] = {
	{ "First", 0, 8, ADDRESS }, { "Last", 8, 8, ADDRESS },
};

#define LAYOUT(m, h, rs, rec, cols) { m, h, rs, rec, cols, sizeof cols / sizeof *cols }
static const struct layout layouts[] = {
	LAYOUT("ins.itable", 48, 64, "insRec", ins_cols),
	LAYOUT("module.itable", 48, 48, "moduleRec", module_cols),
	LAYOUT("thread.itable", 32, 48, "threadRec", thread_cols),
	LAYOUT("address_space.itable", 32, 16, "addressRange", address_cols),
};

static int64_t value(const uint8_t *p, const struct column *c)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < c->width; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return c->as == SIGNED ? tl_sign_extend(v, c->width * 8u) : (int64_t)v;
}

/* "NAME: a=1 b=2 ..." of the columns of p, into out. */
static void decode(char *out, size_t len, const char *name, const uint8_t *p, const struct column *cols,
		   size_t ncols)
{
	int n = snprintf(out, len, "%s:", name);
	for (size_t i = 0; i < ncols && n > 0 && (size_t)n < len; i++) {
		int64_t v = value(p + cols[i].at, &cols[i]);
		char *at = out + n;
		size_t left = len - (size_t)n;
		if (cols[i].as == SIGNED)
			n += snprintf(at, left, " %s=%" PRId64, cols[i].name, v);
		else if (cols[i].as == UNSIGNED)
			n += snprintf(at, left, " %s=%" PRIu64, cols[i].name, (uint64_t)v);
		else
			n += snprintf(at, left, " %s=0x%" PRIx64, cols[i].name, (uint64_t)v);
	}
}

/* Marks the column holding rel (bytes from base), if one does. */
static void mark(struct tl_field_view *view, uint64_t base, uint64_t rel, const struct column *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++) {
		if (rel >= cols[i].at && rel < (uint64_t)cols[i].at + cols[i].width) {
			view->offset = base + cols[i].at;
			view->width = cols[i].width;
			return;
		}
	}
}

void tl_umt_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file, struct tl_field_view *view)
{
	const struct layout *l = NULL;
	for (size_t i = 0; d->loc.member && i < sizeof layouts / sizeof *layouts; i++)
		if (strcmp(d->loc.member, layouts[i].member) == 0)
			l = &layouts[i];
	uint8_t h[48], row[64];
	if (!l || read(file, 0, h, l->header) < l->header)
		return;
	size_t nh = l->header == 48 ? 7 : 5;
	uint64_t off = d->loc.offset;
	if (off < l->header) {
		mark(view, 0, off, header_cols, nh);
		decode(view->fields, sizeof view->fields, "table header", h, header_cols, nh);
		return;
	}
	int64_t rows = value(h + 8, &header_cols[2]), size = value(h + 16, &header_cols[3]),
		fp = value(h + 24, &header_cols[4]);
	/* only a header the validator accepted locates rows */
	if (size != l->row_size || rows < 0 || fp < l->header || off < (uint64_t)fp)
		return;
	uint64_t k = (off - (uint64_t)fp) / l->row_size, start = (uint64_t)fp + k * l->row_size;
	if (k >= (uint64_t)rows || read(file, start, row, l->row_size) < l->row_size)
		return;
	mark(view, start, off - start, l->cols, l->ncols);
	char name[64];
	snprintf(name, sizeof name, "%s %" PRIu64, l->record, k);
	decode(view->fields, sizeof view->fields, name, row, l->cols, l->ncols);
}
