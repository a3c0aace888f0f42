/* Path patterns of config files, as .gitignore writes them: '*', '?' and
 * [...] within one path component, '**' for any number of components. */
#ifndef TL_CLI_GLOB_H
#define TL_CLI_GLOB_H

#include <stdbool.h>

/* path is relative to the directory the pattern belongs to ("a/b/c.xray").
 * A pattern without '/' matches any component of the path ("*.tmp",
 * "build"); one with '/' is anchored at that directory: "traces/x*.xray",
 * "/big", "traces/" + "**" + "/be*.tf". A pattern that matches a directory
 * matches everything below it. */
bool cli_glob_match(const char *pattern, const char *path);

#endif
