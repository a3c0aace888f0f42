/* XRAY-FUNCTION-ID-UNDEFINED: with --instr-map, a function id must be one the
 * binary's sleds define (1..N, N functions in sled order). */
#include "xray.h"

#include <inttypes.h>

void tl_xray_check_function_id(struct tl_ctx *ctx, const struct xray_instr_map *map, uint32_t id,
			    uint64_t offset, int64_t index)
{
	if (!map || id == 0 || id <= map->functions)
		return;
	struct tl_location at = tl_at_record(offset, index);
	tl_report(ctx, RULE_XRAY_FUNCTION_ID_UNDEFINED, &at,
		  MSG_XRAY_FUNCTION_ID_UNDEFINED,
		  map->functions, map->binary, id);
}
