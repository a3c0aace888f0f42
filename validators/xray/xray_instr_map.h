/* The instrumentation map of an XRay-instrumented ELF binary (--instr-map):
 * how many function ids its sleds define. The runtime hands out ids 1..N in
 * sled order, so the set of defined ids is one range and checking an id is
 * one compare (specs/xray.md, decision D14). */
#ifndef TL_XRAY_INSTR_MAP_H
#define TL_XRAY_INSTR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xray_instr_map {
	uint32_t functions;     /* ids 1..functions are defined */
	uint64_t sleds;         /* entries of xray_instr_map */
	bool has_fn_idx;        /* the binary has an xray_fn_idx section */
	const char *binary;     /* path, for messages */
};

/* Reads the map from the bytes of an ELF file (ELF32 or ELF64, either byte
 * order). Returns false with the reason in err when the bytes are not ELF,
 * are malformed, or hold no usable xray_instr_map section. */
bool tl_xray_instr_map_parse(const uint8_t *data, size_t size, struct xray_instr_map *map,
			  char *err, size_t errlen);

/* Opens path and parses it; err names the binary and the problem. */
bool tl_xray_instr_map_load(const char *path, struct xray_instr_map *map, char *err,
			 size_t errlen);

#endif
