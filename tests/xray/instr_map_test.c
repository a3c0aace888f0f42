/* The ELF reader behind --instr-map (xray_instr_map.c), on images built here:
 * ELF32 and ELF64 in both byte orders, PC-relative (version 2) sleds and
 * older absolute ones resolved through RELATIVE relocations, and malformed
 * images (cut short, tables and sections outside the file, sizes that are
 * not whole entries, huge counts), which must be refused with a reason. */
#include <atf-c.h>

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "validators/xray/xray_instr_map.h"

#define IMAGE_SIZE 0x800
#define STRTAB_AT 0x100
#define MAP_AT 0x200
#define RELA_AT 0x400
#define INDEX_AT 0x500
#define SHDRS_AT 0x600
#define MAP_ADDR 0x10000u

static const char names[] = "\0xray_instr_map\0.rela.dyn\0xray_fn_idx\0.shstrtab";
enum { NAME_MAP = 1, NAME_RELA = 16, NAME_INDEX = 26, NAME_STRTAB = 38 };

struct image {
	uint8_t b[IMAGE_SIZE];
	bool is64, big;
	unsigned sleds;
	uint64_t map_size;          /* sh_size of xray_instr_map */
};

static void put(struct image *im, size_t at, uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		im->b[at + (im->big ? width - 1 - i : i)] = (uint8_t)(v >> (8 * i));
}

static unsigned word(const struct image *im) { return im->is64 ? 8 : 4; }
static unsigned entry(const struct image *im) { return im->is64 ? 32 : 16; }

/* Section header idx: name, type, addr, offset, size (the rest 0). */
static void section(struct image *im, unsigned idx, uint32_t name, uint32_t type, uint64_t addr,
		    uint64_t offset, uint64_t size)
{
	unsigned w = word(im);
	size_t at = SHDRS_AT + idx * (im->is64 ? 64 : 40);
	put(im, at, name, 4);
	put(im, at + 4, type, 4);
	put(im, at + 8 + w, addr, w);
	put(im, at + 8 + 2 * w, offset, w);
	put(im, at + 8 + 3 * w, size, w);
}

/* Sled i belongs to function i / 2 + 1 (three functions, two sleds each). */
static uint64_t function_address(unsigned sled) { return 0x1000u + 0x40u * (sled / 2); }

static void sled(struct image *im, unsigned i, uint8_t kind, uint8_t version, bool relocated)
{
	unsigned w = word(im);
	size_t at = MAP_AT + i * entry(im);
	uint64_t self = MAP_ADDR + i * entry(im);
	uint64_t fn = function_address(i);
	if (version >= 2)
		fn -= self + w; /* relative to the field's own address */
	else if (relocated)
		fn = 0;         /* left for the loader: see the relocations */
	put(im, at, version >= 2 ? 0x20u : self, w);
	put(im, at + w, fn, w);
	im->b[at + 2 * w] = kind;
	im->b[at + 2 * w + 2] = version;
}

/* A well-formed executable: 6 sleds of 3 functions, 4 sections. */
static void build(struct image *im, bool is64, bool big, uint8_t version, bool relocated)
{
	memset(im, 0, sizeof *im);
	im->is64 = is64;
	im->big = big;
	im->sleds = 6;
	memcpy(im->b, ELFMAG, SELFMAG);
	im->b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	im->b[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	im->b[EI_VERSION] = EV_CURRENT;
	unsigned w = word(im);
	put(im, 16, ET_DYN, 2);
	put(im, 18, is64 ? EM_X86_64 : EM_386, 2);
	put(im, 20, EV_CURRENT, 4);
	size_t after = 24 + 3 * w + 4; /* e_flags */
	put(im, 24 + 2 * w, SHDRS_AT, w);
	put(im, after + 6, is64 ? 64 : 40, 2);  /* e_shentsize */
	put(im, after + 8, 4, 2);               /* e_shnum */
	put(im, after + 10, 3, 2);              /* e_shstrndx */
	memcpy(im->b + STRTAB_AT, names, sizeof names);
	for (unsigned i = 0; i < im->sleds; i++)
		sled(im, i, (uint8_t)(i % 2), version, relocated);
	im->map_size = im->sleds * entry(im);
	section(im, 1, NAME_MAP, SHT_PROGBITS, MAP_ADDR, MAP_AT, im->map_size);
	/* RELATIVE relocations of every function field (and one of an address field). */
	unsigned rela = is64 ? 24 : 12;
	uint32_t type = is64 ? R_X86_64_RELATIVE : R_386_RELATIVE;
	for (unsigned i = 0; i < im->sleds; i++) {
		size_t at = RELA_AT + i * rela;
		put(im, at, MAP_ADDR + i * entry(im) + w, w);
		put(im, at + w, type, w);
		put(im, at + 2 * w, function_address(i), w);
	}
	put(im, RELA_AT + 6 * rela, MAP_ADDR, w);
	put(im, RELA_AT + 6 * rela + w, type, w);
	put(im, RELA_AT + 6 * rela + 2 * w, 0x999, w);
	section(im, 2, NAME_RELA, SHT_RELA, 0, RELA_AT, 7 * rela);
	section(im, 3, NAME_STRTAB, SHT_STRTAB, 0, STRTAB_AT, sizeof names);
}

/* Parses the first size bytes from a heap block of exactly that size, so ASan
 * catches any read past the end. */
static bool parse(const struct image *im, size_t size, struct xray_instr_map *map, char *err,
		  size_t errlen)
{
	uint8_t *copy = malloc(size ? size : 1);
	ATF_REQUIRE(copy);
	memcpy(copy, im->b, size);
	bool ok = tl_xray_instr_map_parse(copy, size, map, err, errlen);
	free(copy);
	return ok;
}

static void require_refused(const struct image *im, size_t size, const char *why)
{
	struct xray_instr_map map;
	char err[256] = "";
	ATF_CHECK_MSG(!parse(im, size, &map, err, sizeof err), "accepted: %s", why);
	ATF_CHECK_MSG(err[0] != '\0', "refused without a reason: %s", why);
}

static const char *what(const struct image *im)
{
	return im->is64 ? (im->big ? "ELF64 big-endian" : "ELF64 little-endian")
			: (im->big ? "ELF32 big-endian" : "ELF32 little-endian");
}

ATF_TC_WITHOUT_HEAD(counts_functions_in_every_layout);
ATF_TC_BODY(counts_functions_in_every_layout, tc)
{
	struct image im;
	for (int layout = 0; layout < 4; layout++) {
		bool is64 = layout & 1, big = layout & 2;
		struct xray_instr_map map;
		char err[256] = "";
		/* Version 2: PC-relative fields. Version 0 with absolute fields in place. */
		build(&im, is64, big, 2, false);
		ATF_CHECK_MSG(parse(&im, sizeof im.b, &map, err, sizeof err), "%s: %s", what(&im), err);
		ATF_CHECK_EQ_MSG(map.functions, 3u, "%s v2", what(&im));
		ATF_CHECK_EQ(map.sleds, 6u);
		build(&im, is64, big, 0, false);
		ATF_CHECK(parse(&im, sizeof im.b, &map, err, sizeof err));
		ATF_CHECK_EQ_MSG(map.functions, 3u, "%s v0", what(&im));
	}
}

ATF_TC_WITHOUT_HEAD(relative_relocations_fill_zero_fields);
ATF_TC_BODY(relative_relocations_fill_zero_fields, tc)
{
	struct image im;
	struct xray_instr_map map;
	char err[256];
	for (int layout = 0; layout < 4; layout++) {
		build(&im, layout & 1, layout & 2, 1, true);
		ATF_CHECK_MSG(parse(&im, sizeof im.b, &map, err, sizeof err), "%s", err);
		ATF_CHECK_EQ_MSG(map.functions, 3u, "%s", what(&im));
		/* Without the relocations every function field is 0: one function. */
		section(&im, 2, NAME_RELA, SHT_PROGBITS, 0, RELA_AT, 0);
		ATF_CHECK(parse(&im, sizeof im.b, &map, err, sizeof err));
		ATF_CHECK_EQ(map.functions, 1u);
	}
}

ATF_TC_WITHOUT_HEAD(relative_relocation_of_each_machine);
ATF_TC_BODY(relative_relocation_of_each_machine, tc)
{
	/* Each machine's RELATIVE type resolves the zero fields (3 functions);
	 * another machine's type leaves them 0 (one function). */
	static const struct {
		uint16_t machine;
		uint32_t relative;
	} machines[] = { { EM_AARCH64, R_AARCH64_RELATIVE }, { EM_ARM, R_ARM_RELATIVE },
			 { EM_PPC64, R_PPC64_RELATIVE }, { EM_RISCV, R_RISCV_RELATIVE },
			 { EM_MIPS, R_MIPS_REL32 }, { 258, 3 } };
	struct image im;
	struct xray_instr_map map;
	char err[256];
	for (size_t m = 0; m < sizeof machines / sizeof machines[0]; m++) {
		build(&im, true, false, 1, true);
		put(&im, 18, machines[m].machine, 2);
		for (unsigned i = 0; i < im.sleds; i++)
			put(&im, RELA_AT + i * 24 + 8, machines[m].relative, 8);
		ATF_CHECK_MSG(parse(&im, sizeof im.b, &map, err, sizeof err), "%s", err);
		ATF_CHECK_EQ_MSG(map.functions, 3u, "machine %u", machines[m].machine);
		put(&im, 18, EM_SPARC, 2); /* no RELATIVE type known: fields stay 0 */
		ATF_CHECK(parse(&im, sizeof im.b, &map, err, sizeof err));
		ATF_CHECK_EQ_MSG(map.functions, 1u, "machine %u read as SPARC", machines[m].machine);
	}
}

ATF_TC_WITHOUT_HEAD(reason_buffer_is_optional);
ATF_TC_BODY(reason_buffer_is_optional, tc)
{
	/* Without a buffer, or with one of 0 bytes, the verdict is the same and
	 * nothing is written. */
	struct image im;
	struct xray_instr_map map;
	char err[4] = "abc";
	build(&im, true, false, 2, false);
	ATF_CHECK(parse(&im, sizeof im.b, &map, NULL, 0));
	ATF_CHECK_EQ(map.functions, 3u);
	im.b[0] = 'X';
	ATF_CHECK(!parse(&im, sizeof im.b, &map, NULL, 0));
	ATF_CHECK(!parse(&im, sizeof im.b, &map, err, 0));
	ATF_CHECK_STREQ(err, "abc");
}

ATF_TC_WITHOUT_HEAD(every_truncation_is_refused);
ATF_TC_BODY(every_truncation_is_refused, tc)
{
	struct image im;
	for (int layout = 0; layout < 4; layout++) {
		build(&im, layout & 1, layout & 2, 2, false);
		/* The section table is last: any shorter file loses part of it. */
		size_t end = SHDRS_AT + 4 * (im.is64 ? 64 : 40);
		for (size_t size = 0; size < end; size++)
			require_refused(&im, size, "a truncated image");
	}
}

ATF_TC_WITHOUT_HEAD(tables_and_sections_outside_the_file);
ATF_TC_BODY(tables_and_sections_outside_the_file, tc)
{
	struct image im;
	for (int layout = 0; layout < 4; layout++) {
		bool is64 = layout & 1, big = layout & 2;
		unsigned w = is64 ? 8 : 4;
		size_t shoff_at = 24 + 2 * w, after = 24 + 3 * w + 4;
		build(&im, is64, big, 2, false);
		put(&im, shoff_at, IMAGE_SIZE - 8, w);
		require_refused(&im, sizeof im.b, "section table past the end");
		put(&im, shoff_at, is64 ? UINT64_MAX - 16 : UINT32_MAX - 16, w);
		require_refused(&im, sizeof im.b, "section table offset that overflows");
		build(&im, is64, big, 2, false);
		put(&im, after + 8, 0xffff, 2);
		require_refused(&im, sizeof im.b, "a huge section count");
		build(&im, is64, big, 2, false);
		put(&im, after + 6, 8, 2);
		require_refused(&im, sizeof im.b, "section headers smaller than Shdr");
		build(&im, is64, big, 2, false);
		put(&im, after + 10, 9, 2);
		require_refused(&im, sizeof im.b, "name table index past the count");
		build(&im, is64, big, 2, false);
		section(&im, 1, NAME_MAP, SHT_PROGBITS, MAP_ADDR, MAP_AT,
			is64 ? UINT64_MAX - 31 : UINT32_MAX - 15);
		require_refused(&im, sizeof im.b, "a map of a huge size");
		build(&im, is64, big, 2, false);
		section(&im, 1, NAME_MAP, SHT_PROGBITS, MAP_ADDR, IMAGE_SIZE - 8, 32);
		require_refused(&im, sizeof im.b, "a map past the end");
		build(&im, is64, big, 2, false);
		section(&im, 2, NAME_RELA, SHT_RELA, 0, RELA_AT, is64 ? UINT64_MAX - 23 : UINT32_MAX - 11);
		require_refused(&im, sizeof im.b, "relocations of a huge size");
		build(&im, is64, big, 2, false);
		section(&im, 3, NAME_STRTAB, SHT_STRTAB, 0, IMAGE_SIZE, 0x100);
		require_refused(&im, sizeof im.b, "name table past the end");
	}
}

ATF_TC_WITHOUT_HEAD(sizes_that_are_not_whole_entries);
ATF_TC_BODY(sizes_that_are_not_whole_entries, tc)
{
	struct image im;
	for (int layout = 0; layout < 4; layout++) {
		build(&im, layout & 1, layout & 2, 2, false);
		section(&im, 1, NAME_MAP, SHT_PROGBITS, MAP_ADDR, MAP_AT, im.map_size - 1);
		require_refused(&im, sizeof im.b, "a map that is not whole sled entries");
		build(&im, layout & 1, layout & 2, 2, false);
		section(&im, 2, NAME_RELA, SHT_RELA, 0, RELA_AT, 7);
		require_refused(&im, sizeof im.b, "relocations that are not whole entries");
		build(&im, layout & 1, layout & 2, 2, false);
		put(&im, 24 + 3 * word(&im) + 4 + 8, 5, 2); /* e_shnum: 5, with the index */
		section(&im, 4, NAME_INDEX, SHT_PROGBITS, 0, INDEX_AT, 2 * word(&im) * 3 + 1);
		require_refused(&im, sizeof im.b, "an xray_fn_idx that is not whole entries");
	}
}

ATF_TC_WITHOUT_HEAD(function_index_must_agree);
ATF_TC_BODY(function_index_must_agree, tc)
{
	struct image im;
	struct xray_instr_map map;
	char err[256];
	build(&im, true, false, 2, false);
	put(&im, 24 + 3 * 8 + 4 + 8, 5, 2); /* e_shnum: 5 */
	section(&im, 4, NAME_INDEX, SHT_PROGBITS, 0, INDEX_AT, 3 * 16);
	ATF_CHECK_MSG(parse(&im, sizeof im.b, &map, err, sizeof err), "%s", err);
	ATF_CHECK(map.has_fn_idx);
	ATF_CHECK_EQ(map.functions, 3u);
	section(&im, 4, NAME_INDEX, SHT_PROGBITS, 0, INDEX_AT, 4 * 16);
	require_refused(&im, sizeof im.b, "an index of 4 functions for 3");
}

ATF_TC_WITHOUT_HEAD(what_is_not_an_instrumented_binary);
ATF_TC_BODY(what_is_not_an_instrumented_binary, tc)
{
	struct image im;
	struct xray_instr_map map;
	char err[256];
	build(&im, true, false, 2, false);
	im.b[0] = 'X';
	require_refused(&im, sizeof im.b, "no ELF magic");
	build(&im, true, false, 2, false);
	im.b[EI_CLASS] = 3;
	require_refused(&im, sizeof im.b, "class 3");
	build(&im, true, false, 2, false);
	im.b[EI_DATA] = 0;
	require_refused(&im, sizeof im.b, "byte order 0");
	build(&im, true, false, 2, false);
	put(&im, 16, ET_REL, 2);
	require_refused(&im, sizeof im.b, "a relocatable object");
	build(&im, true, false, 2, false);
	put(&im, 40, 0, 8);
	require_refused(&im, sizeof im.b, "no section table");
	build(&im, true, false, 2, false);
	im.b[STRTAB_AT + NAME_MAP] = 'y';
	ATF_CHECK(!parse(&im, sizeof im.b, &map, err, sizeof err));
	ATF_CHECK(strstr(err, "no xray_instr_map section") != NULL);
	/* The name must end where the wanted one does. */
	build(&im, true, false, 2, false);
	section(&im, 1, NAME_MAP + 1, SHT_PROGBITS, MAP_ADDR, MAP_AT, im.map_size);
	require_refused(&im, sizeof im.b, "a section named ray_instr_map");
}

ATF_TC_WITHOUT_HEAD(sled_kinds);
ATF_TC_BODY(sled_kinds, tc)
{
	struct image im;
	struct xray_instr_map map;
	char err[256];
	/* Kind 5 (typed event), which llvm-xray 14 refuses, is a sled like the others. */
	build(&im, true, false, 2, false);
	im.b[MAP_AT + 32 + 16] = 5;
	ATF_CHECK_MSG(parse(&im, sizeof im.b, &map, err, sizeof err), "%s", err);
	ATF_CHECK_EQ(map.functions, 3u);
	im.b[MAP_AT + 32 + 16] = 6;
	ATF_CHECK(!parse(&im, sizeof im.b, &map, err, sizeof err));
	ATF_CHECK(strstr(err, "kind 6") != NULL);
}

ATF_TC_WITHOUT_HEAD(mutated_images_never_crash);
ATF_TC_BODY(mutated_images_never_crash, tc)
{
	/* Random byte changes anywhere in the headers and tables: each parse either
	 * succeeds with a count bounded by the sleds or refuses with a reason. */
	uint64_t rng = 0x2545f4914f6cdd1du;
	struct image im;
	unsigned refused = 0;
	for (unsigned trial = 0; trial < 4000; trial++) {
		build(&im, trial & 1, trial & 2, (uint8_t)(trial % 3), trial & 4);
		for (int k = 0; k < 4; k++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			size_t at = (size_t)(rng % IMAGE_SIZE);
			/* Aim at the bytes that mean something most of the time. */
			if (rng & 0x100000)
				at = SHDRS_AT + (size_t)(rng >> 24) % (4 * 64);
			else if (rng & 0x200000)
				at = (size_t)(rng >> 24) % 64;
			im.b[at] = (uint8_t)(rng >> 40);
		}
		struct xray_instr_map map;
		char err[256] = "";
		if (parse(&im, sizeof im.b, &map, err, sizeof err))
			ATF_CHECK(map.functions <= map.sleds && map.sleds <= IMAGE_SIZE / 16);
		else
			refused += err[0] != '\0';
	}
	ATF_CHECK(refused > 100);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, counts_functions_in_every_layout);
	ATF_TP_ADD_TC(tp, relative_relocations_fill_zero_fields);
	ATF_TP_ADD_TC(tp, relative_relocation_of_each_machine);
	ATF_TP_ADD_TC(tp, reason_buffer_is_optional);
	ATF_TP_ADD_TC(tp, every_truncation_is_refused);
	ATF_TP_ADD_TC(tp, tables_and_sections_outside_the_file);
	ATF_TP_ADD_TC(tp, sizes_that_are_not_whole_entries);
	ATF_TP_ADD_TC(tp, function_index_must_agree);
	ATF_TP_ADD_TC(tp, what_is_not_an_instrumented_binary);
	ATF_TP_ADD_TC(tp, sled_kinds);
	ATF_TP_ADD_TC(tp, mutated_images_never_crash);
	return atf_no_error();
}
