/* Reads the xray_instr_map section of an ELF binary (our own reader: every
 * field goes through the bounds-checked cursor, so a malformed or hostile
 * binary is refused with a reason, never read out of bounds) and counts the
 * function ids it defines, the way the XRay runtime numbers them: sleds in
 * section order, a new id each time the sled's function address changes. */
#include "xray_instr_map.h"

#include "cursor.h"
#include "input.h"
#include "invariant.h"
#include "xray_layout.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* compiler-rt's sled kinds: entry, exit, tail exit, entry with argument,
 * custom event, typed event (llvm-xray 14 knows only 0..4; decision D14). */
#define SLED_KIND_MAX 5

struct elf {
	const uint8_t *data;
	size_t size;
	bool big;
	bool is64;
	unsigned word;          /* 4 or 8: the size of an address */
	uint16_t machine;
	uint64_t shoff;
	uint64_t shnum;
	uint64_t shentsize;
	uint64_t shstrndx;
};

struct section {
	uint32_t name;
	uint32_t type;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
};

static bool fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return false;
}

/* A cursor over [offset, offset + size) of the file, if it lies inside. */
static bool file_range(const struct elf *e, uint64_t offset, uint64_t size, struct tl_cursor *c)
{
	return tl_cursor_at(c, e->data, e->size, offset, size);
}

static bool read_word(struct tl_cursor *c, const struct elf *e, uint64_t *v)
{
	return tl_cursor_uint(c, e->word, e->big, v);
}

static bool read_header(struct elf *e, char *err, size_t errlen)
{
	struct tl_cursor c;
	const uint8_t *ident;
	tl_cursor_init(&c, e->data, e->size, 0);
	if (!tl_cursor_bytes(&c, EI_NIDENT, &ident) || ident[EI_MAG0] != ELFMAG0 ||
	    ident[EI_MAG1] != ELFMAG1 || ident[EI_MAG2] != ELFMAG2 || ident[EI_MAG3] != ELFMAG3)
		return fail(err, errlen, "not an ELF file (no \\x7fELF magic at offset 0)");
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return fail(err, errlen, "expected ELF class 1 or 2 at offset 4, found %u",
			    (unsigned)ident[EI_CLASS]);
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB)
		return fail(err, errlen, "expected ELF byte order 1 or 2 at offset 5, found %u",
			    (unsigned)ident[EI_DATA]);
	e->is64 = ident[EI_CLASS] == ELFCLASS64;
	e->big = ident[EI_DATA] == ELFDATA2MSB;
	e->word = e->is64 ? 8 : 4;
	uint16_t type = 0, shentsize = 0, shnum = 0, shstrndx = 0;
	uint32_t version = 0;
	uint64_t entry = 0, phoff = 0, shoff = 0;
	/* e_flags, e_ehsize, e_phentsize, e_phnum: 10 bytes not needed here. */
	bool ok = tl_cursor_u16(&c, e->big, &type) && tl_cursor_u16(&c, e->big, &e->machine) &&
		  tl_cursor_u32(&c, e->big, &version) && read_word(&c, e, &entry) &&
		  read_word(&c, e, &phoff) && read_word(&c, e, &shoff) && tl_cursor_skip(&c, 10) &&
		  tl_cursor_u16(&c, e->big, &shentsize) && tl_cursor_u16(&c, e->big, &shnum) &&
		  tl_cursor_u16(&c, e->big, &shstrndx);
	if (!ok)
		return fail(err, errlen, "the %s ELF header is cut short (file of %zu bytes)",
			    e->is64 ? "64-byte" : "52-byte", e->size);
	if (type == ET_REL)
		return fail(err, errlen, "a relocatable object file; give the linked executable "
			    "or shared object (its sleds are not resolved yet)");
	if (type != ET_EXEC && type != ET_DYN)
		return fail(err, errlen, "expected an ELF executable or shared object (type 2 or 3), "
			    "found type %u", (unsigned)type);
	if (shoff == 0)
		return fail(err, errlen, "no section header table (e_shoff is 0)");
	if (shentsize < (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(err, errlen, "expected section headers of at least %zu bytes, found "
			    "e_shentsize %u", e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr),
			    (unsigned)shentsize);
	e->shoff = shoff;
	e->shentsize = shentsize;
	e->shnum = shnum;
	e->shstrndx = shstrndx;
	return true;
}

static bool read_section(const struct elf *e, uint64_t index, struct section *s)
{
	struct tl_cursor c;
	uint64_t at, flags;
	if (!tl_mul_u64(index, e->shentsize, &at) || !tl_add_u64(at, e->shoff, &at) ||
	    !file_range(e, at, e->shentsize, &c))
		return false;
	/* e_shentsize is at least a section header's size (read_header): these
	 * reads cannot fail */
	(void)tl_cursor_u32(&c, e->big, &s->name);
	(void)tl_cursor_u32(&c, e->big, &s->type);
	(void)read_word(&c, e, &flags);
	(void)read_word(&c, e, &s->addr);
	(void)read_word(&c, e, &s->offset);
	(void)read_word(&c, e, &s->size);
	return true;
}

/* Section 0 holds the real count and string-table index when they do not
 * fit the ELF header's 16-bit fields (extended numbering). */
static bool read_section_table(struct elf *e, char *err, size_t errlen)
{
	struct tl_cursor c;
	if (!file_range(e, e->shoff, e->shentsize, &c))
		return fail(err, errlen, "the section header table at offset %" PRIu64
			    " lies outside the %zu-byte file", e->shoff, e->size);
	uint32_t name = 0, type = 0, link = 0;
	uint64_t flags = 0, addr = 0, offset = 0, size = 0;
	/* a whole section header (read_header checked e_shentsize): these reads
	 * cannot fail */
	(void)tl_cursor_u32(&c, e->big, &name);
	(void)tl_cursor_u32(&c, e->big, &type);
	(void)read_word(&c, e, &flags);
	(void)read_word(&c, e, &addr);
	(void)read_word(&c, e, &offset);
	(void)read_word(&c, e, &size);
	(void)tl_cursor_u32(&c, e->big, &link);
	if (e->shnum == 0)
		e->shnum = size;
	if (e->shstrndx == SHN_XINDEX)
		e->shstrndx = link;
	uint64_t bytes, end;
	if (!tl_mul_u64(e->shnum, e->shentsize, &bytes) || !tl_add_u64(e->shoff, bytes, &end) ||
	    end > e->size)
		return fail(err, errlen, "the section header table (%" PRIu64 " entries of %" PRIu64
			    " bytes at offset %" PRIu64 ") lies outside the %zu-byte file",
			    e->shnum, e->shentsize, e->shoff, e->size);
	if (e->shstrndx >= e->shnum)
		return fail(err, errlen, "the section name table index %" PRIu64
			    " is not below the section count %" PRIu64, e->shstrndx, e->shnum);
	return true;
}

/* True when the section's name in the string table is exactly want. */
static bool name_is(const struct elf *e, const struct section *names, uint32_t name,
		    const char *want)
{
	size_t len = strlen(want) + 1; /* with its terminating NUL */
	struct tl_cursor c;
	const uint8_t *p;
	if (name >= names->size || !file_range(e, names->offset, names->size, &c) ||
	    !tl_cursor_skip(&c, name) || !tl_cursor_bytes(&c, len, &p))
		return false;
	return memcmp(p, want, len) == 0;
}

/* The section named want, if present; false with a reason when it is unusable. */
static bool find_section(const struct elf *e, const struct section *names, const char *want,
			 struct section *out, bool *found, char *err, size_t errlen)
{
	*found = false;
	for (uint64_t i = 1; i < e->shnum; i++) {
		struct section s;
		bool read = read_section(e, i, &s); /* i < shnum: read_section_table checked the table */
		if (TL_NEVER(!read))
			return fail(err, errlen, "section header %" PRIu64 " cannot be read", i);
		if (!name_is(e, names, s.name, want))
			continue;
		struct tl_cursor c;
		if (s.type == SHT_NOBITS || !file_range(e, s.offset, s.size, &c))
			return fail(err, errlen, "the %s section (%" PRIu64 " bytes at offset %"
				    PRIu64 ") lies outside the %zu-byte file", want, s.size,
				    s.offset, e->size);
		*out = s;
		*found = true;
		return true;
	}
	return true;
}

static uint32_t relative_relocation(uint16_t machine)
{
	switch (machine) {
	case EM_X86_64: return R_X86_64_RELATIVE;
	case EM_386: return R_386_RELATIVE;
	case EM_AARCH64: return R_AARCH64_RELATIVE;
	case EM_ARM: return R_ARM_RELATIVE;
	case EM_PPC64: return R_PPC64_RELATIVE;
	case EM_RISCV: return R_RISCV_RELATIVE;
	case EM_MIPS: return R_MIPS_REL32;
	default: return 258 == machine ? 3 : 0; /* EM_LOONGARCH: R_LARCH_RELATIVE */
	}
}

/* Older sled versions hold absolute addresses, which a position-independent
 * binary leaves as 0 in the file and has the loader fill in from RELATIVE
 * relocations with an addend (.rela.dyn): take the function field from there. */
static bool apply_relocations(const struct elf *e, const struct section *map,
			      unsigned entry_size, uint64_t *function, char *err, size_t errlen)
{
	uint32_t relative = relative_relocation(e->machine);
	unsigned rela_size = e->is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
	for (uint64_t i = 1; i < e->shnum; i++) {
		struct section s;
		struct tl_cursor c;
		bool read = read_section(e, i, &s); /* i < shnum: read_section_table checked the table */
		if (TL_NEVER(!read))
			return fail(err, errlen, "section header %" PRIu64 " cannot be read", i);
		if (s.type != SHT_RELA)
			continue; /* SHT_REL keeps the addend in place: the file value is right */
		if (!file_range(e, s.offset, s.size, &c) || s.size % rela_size != 0)
			return fail(err, errlen, "relocation section %" PRIu64 " (%" PRIu64
				    " bytes at offset %" PRIu64 ") is outside the file or not a "
				    "whole number of %u-byte entries", i, s.size, s.offset, rela_size);
		while (tl_cursor_left(&c) >= rela_size) {
			uint64_t where = 0, info = 0, addend = 0;
			(void)read_word(&c, e, &where); /* a whole entry is left */
			(void)read_word(&c, e, &info);
			(void)read_word(&c, e, &addend);
			uint32_t type = e->is64 ? (uint32_t)info : (uint32_t)(info & 0xff);
			if (type != relative || where < map->addr || where - map->addr >= map->size)
				continue;
			uint64_t within = where - map->addr;
			if (within % entry_size != e->word)
				continue; /* not a function field */
			uint64_t sled = within / entry_size;
			if (function[sled] == 0)
				function[sled] = e->is64 ? addend : (uint32_t)addend;
		}
	}
	return true;
}

/* Reads every sled's function field (absolute, after relocation) and counts
 * the changes of function along the section. */
static bool count_functions(const struct elf *e, const struct section *map,
			    struct xray_instr_map *out, char *err, size_t errlen)
{
	unsigned entry_size = e->is64 ? 32 : 16;
	if (map->size % entry_size != 0)
		return fail(err, errlen, "expected the xray_instr_map section to hold whole "
			    "%u-byte sled entries, found %" PRIu64 " bytes", entry_size, map->size);
	uint64_t sleds = map->size / entry_size;
	/* An empty map defines no id at all: every record would be "expected
	 * 1..0"; the binary is simply not instrumented (found by the fuzzer). */
	if (sleds == 0)
		return fail(err, errlen, "expected sled entries in the xray_instr_map section, "
			    "found an empty section (no instrumented function)");
	struct tl_cursor c;
	bool inside = file_range(e, map->offset, map->size, &c); /* find_section checked it */
	if (TL_NEVER(!inside))
		return fail(err, errlen, "the xray_instr_map section lies outside the file");
	/* Bounded by the file's size: the section lies inside it. */
	uint64_t *function = calloc(sleds, sizeof *function);
	uint8_t *version = calloc(sleds, 1);
	if (!function || !version) {
		free(function);
		free(version);
		return fail(err, errlen, "out of memory for %" PRIu64 " sleds", sleds);
	}
	for (uint64_t i = 0; i < sleds; i++) {
		/* whole entries of a section inside the file: these reads cannot fail */
		struct tl_cursor entry = { 0 };
		uint64_t address = 0;
		uint8_t kind = 0, always = 0;
		(void)tl_cursor_sub(&c, entry_size, &entry);
		(void)read_word(&entry, e, &address);
		(void)read_word(&entry, e, &function[i]);
		(void)tl_cursor_u8(&entry, &kind);
		(void)tl_cursor_u8(&entry, &always);
		(void)tl_cursor_u8(&entry, &version[i]);
		if (kind > SLED_KIND_MAX) {
			fail(err, errlen, "sled %" PRIu64 " of xray_instr_map has kind %u, "
			     "expected 0..%u", i, (unsigned)kind, SLED_KIND_MAX);
			free(function);
			free(version);
			return false;
		}
	}
	bool ok = apply_relocations(e, map, entry_size, function, err, errlen);
	uint64_t mask = e->is64 ? UINT64_MAX : UINT32_MAX, functions = 0, current = 0;
	for (uint64_t i = 0; ok && i < sleds; i++) {
		/* From version 2 the field is relative to its own address. */
		uint64_t f = function[i];
		if (version[i] >= 2)
			f += map->addr + i * entry_size + e->word;
		f &= mask;
		if (i == 0 || f != current)
			functions++;
		current = f;
	}
	free(function);
	free(version);
	if (!ok)
		return false; /* apply_relocations said why */
	if (functions > XRAY_FUNCTION_ID_MAX)
		return fail(err, errlen, "%" PRIu64 " functions: more than 28-bit ids can name",
			    functions);
	out->sleds = sleds;
	out->functions = (uint32_t)functions;
	return true;
}

bool tl_xray_instr_map_parse(const uint8_t *data, size_t size, struct xray_instr_map *map,
			  char *err, size_t errlen)
{
	struct elf e = { 0 };
	struct section names, instr, index;
	bool found;
	e.data = data;
	e.size = size;
	if (err && errlen)
		*err = '\0';
	map->functions = 0;
	map->sleds = 0;
	map->has_fn_idx = false;
	if (!read_header(&e, err, errlen) || !read_section_table(&e, err, errlen))
		return false;
	struct tl_cursor c;
	if (!read_section(&e, e.shstrndx, &names) || names.type == SHT_NOBITS ||
	    !file_range(&e, names.offset, names.size, &c))
		return fail(err, errlen, "the section name table (section %" PRIu64
			    ") lies outside the file", e.shstrndx);
	if (!find_section(&e, &names, "xray_instr_map", &instr, &found, err, errlen))
		return false;
	if (!found)
		return fail(err, errlen, "no xray_instr_map section (not built with "
			    "-fxray-instrument, or the section was stripped)");
	if (!count_functions(&e, &instr, map, err, errlen))
		return false;
	if (!find_section(&e, &names, "xray_fn_idx", &index, &found, err, errlen))
		return false;
	if (found) {
		/* The runtime numbers functions by this index when it is present: one
		 * entry of two words per function. It must agree with the sleds. */
		uint64_t entry = 2u * e.word, count = index.size / entry;
		if (index.size % entry != 0 || count != map->functions)
			return fail(err, errlen, "the xray_fn_idx section (%" PRIu64 " bytes, "
				    "%u-byte entries) does not index the %" PRIu32 " functions "
				    "of xray_instr_map", index.size, (unsigned)entry,
				    map->functions);
		map->has_fn_idx = true;
	}
	return true;
}

bool tl_xray_instr_map_load(const char *path, struct xray_instr_map *map, char *err,
			 size_t errlen)
{
	struct tl_input in;
	char why[512];
	map->binary = path;
	if (!tl_input_open(&in, path, why, sizeof why))
		return fail(err, errlen, "--instr-map=%s: %s", path, why);
	bool ok = !in.is_directory &&
		  tl_xray_instr_map_parse(in.data, in.size, map, why, sizeof why);
	if (in.is_directory)
		snprintf(why, sizeof why, "is a directory, not an ELF binary");
	if (tl_input_changed(&in)) {
		ok = false;
		snprintf(why, sizeof why, "it changed (shrank) while being read");
	}
	tl_input_close(&in);
	map->binary = path;
	if (!ok)
		return fail(err, errlen, "--instr-map=%s: %s", path, why);
	return true;
}
