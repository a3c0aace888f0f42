/* Fuzz target: the ELF reader behind --instr-map (validators/xray/
 * xray_instr_map.h), which parses a binary the user names and so must be as
 * hard as the trace readers. A refusal must say why; an accepted map must
 * define ids for at most as many functions as it has sleds, at least one. */
#include "validators/xray/xray_instr_map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xray_instr_map map;
	char err[512];
	memset(&map, 0, sizeof map);
	err[0] = '\0';
	if (tl_xray_instr_map_parse(data, size, &map, err, sizeof err)) {
		if (map.functions == 0 || map.functions > map.sleds)
			abort();
	} else if (err[0] == '\0' || !memchr(err, '\0', sizeof err)) {
		abort();
	}
	return 0;
}
