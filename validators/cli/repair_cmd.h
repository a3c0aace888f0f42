/* tracelint repair: salvage a damaged trace (validators/repair/). */
#ifndef TL_REPAIR_CMD_H
#define TL_REPAIR_CMD_H

/* argv[0] is "repair". Exit: 0 nothing to repair, 1 repaired, 2 usage or
 * I/O error, 3 nothing salvageable. */
int cli_repair(int argc, char **argv);

#endif
