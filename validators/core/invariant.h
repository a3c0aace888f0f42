/* Defensive branches, marked in the manner of SQLite's ALWAYS() and NEVER().
 *
 * TL_ALWAYS(X) and TL_NEVER(X) wrap the condition of a check that an earlier
 * check or an invariant already settles: a read of bytes already known to be
 * there, a bound an earlier test enforces. Release builds keep the check (a
 * compare, and a broken invariant stays a clean failure, not a crash); the
 * sanitizer build (TL_ASSERT_INVARIANTS, set by SANITIZE=1) aborts when the
 * invariant breaks, so the suite would see it; the coverage build
 * (TL_COVERAGE, set by `make coverage-suite`) compiles the settled value, so
 * a branch no input can take is not counted as untaken. X must have no side
 * effects: the coverage build does not evaluate it. */
#ifndef TL_INVARIANT_H
#define TL_INVARIANT_H

#if defined(TL_COVERAGE)
/* sizeof names X's variables without evaluating it: no unused-variable warning, no branch */
#define TL_ALWAYS(X) ((void)sizeof(X), 1)
#define TL_NEVER(X) ((void)sizeof(X), 0)
#elif defined(TL_ASSERT_INVARIANTS)
#include <assert.h>
#define TL_ALWAYS(X) ((X) ? 1 : (assert(!"TL_ALWAYS(" #X ")"), 0))
#define TL_NEVER(X) ((X) ? (assert(!"TL_NEVER(" #X ")"), 1) : 0)
#else
#define TL_ALWAYS(X) ((X) ? 1 : 0)
#define TL_NEVER(X) ((X) ? 1 : 0)
#endif

#endif
