/* placeholder replaced below */
#include <stdio.h>
#include "repair.h"
enum tl_repair_outcome tl_repair_json(struct tl_repair_job *job)
{
	snprintf(job->report->reason, sizeof job->report->reason, "not yet");
	return TL_REPAIR_NONE_LEFT;
}
