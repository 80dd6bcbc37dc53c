/* The message for a bad leading dimension, the one GEMM argument check with a formatted message:
 * kept out of the inline checks (gemm_args.h), so that a valid call never sets up its buffer.
 */
#include <stdint.h>
#include <stdio.h>

#include "internal.h"

TG__PRIVATE TG__NOINLINE int tg__ld_error(const char *fn, int pos, const char *name, int64_t ld,
                                          int64_t vectors, int64_t len, const char *what)
{
    char expected[160];
    if (ld < tg__max1(len))
        snprintf(expected, sizeof expected, "must be >= max(1, %lld) for %s", (long long)len, what);
    else
        snprintf(expected, sizeof expected,
                 "%lld x %lld with this leading dimension spans more bytes than memory can address",
                 (long long)vectors, (long long)len);
    return tg__arg_error(fn, pos, name, ld, expected);
}
