/* Test knobs: a few limits that tests lower to reach a path on small inputs
 * (a decompression bomb, a full sort buffer, a tiny read window). They are
 * read from the environment at the moment they apply, so the library keeps
 * no mutable state and a host program that never sets them is unaffected. */
#ifndef TL_KNOB_H
#define TL_KNOB_H

#include <stdint.h>

/* The environment variable's value when it is a whole number below
 * ceiling (exclusive; UINT64_MAX for none), else fallback. */
uint64_t tl_knob(const char *name, uint64_t fallback, uint64_t ceiling);

#endif
