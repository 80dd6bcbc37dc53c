/* The suite as one translation unit against tgemm.h with TGEMM_STATIC: every library function is
 * static, private to this file (tests/tests.mk checks that no tg_ symbol is visible in the binary).
 * main.c defines TGEMM_IMPLEMENTATION (TGT_HEADER is set) and comes first, so the header's
 * implementation is in before the other files use it. The header is included once before that for
 * its declarations alone, as a user's own header would: the implementation still follows (it has a
 * guard of its own). */
#define _POSIX_C_SOURCE 200112L /* pthread barriers (callers.c) under strict -std= modes */
#define _DEFAULT_SOURCE         /* mmap's MAP_ANONYMOUS (matrices.c), which comes after stdio.h */
#define TGEMM_STATIC
#include "tgemm.h"
#include "main.c"
#include "matrices.c"
#include "differential.c"
#include "bad_args.c"
#include "threads.c"
#include "callers.c"
