/* LLVM XRay: the names of record kinds and function actions, as llvm-xray
 * prints them; shared by every checker, so they depend on no walker. */
#include "xray.h"

static const char *const kind_names[XRAY_KIND_COUNT] = {
	"NewBuffer", "EndOfBuffer", "NewCPUId", "TSCWrap", "WallClockTime",
	"CustomEventMarker", "CallArgument", "BufferExtents", "TypedEventMarker", "Pid",
};

static const char *const action_names[] = {
	"Entry", "Exit", "Tail_Exit", "Entry_Args", "action 4", "action 5", "action 6", "action 7",
};

const char *tl_xray_kind_name(unsigned kind)
{
	return kind < XRAY_KIND_COUNT ? kind_names[kind] : "an undefined metadata kind";
}

const char *tl_xray_action_name(unsigned action)
{
	return action_names[action & 7];
}
