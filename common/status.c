/* Status codes as text, and the thread-local message that says why a call failed.
 *
 * The message lives in a thread-local buffer so calls from many threads never see each other's
 * errors; nothing here prints, allocates or exits.
 */
#include <stdio.h>

#include "internal.h"

static TG__THREAD_LOCAL char tg__message[320];

TGEMM_DEF const char *tg_strerror(int status)
{
    switch (status) {
    case TG_OK: return "success";
    case TG_ERR_ARG: return "invalid argument";
    case TG_ERR_NOMEM: return "out of memory";
    case TG_ERR_UNSUPPORTED: return "unsupported by this build or machine";
    case TG_ERR_DEVICE: return "device (CUDA) error";
    default: return "unknown status";
    }
}

TGEMM_DEF const char *tg_last_error(void) { return tg__message; }

TG__PRIVATE int tg__arg_error(const char *fn, int pos, const char *name, int64_t value,
                              const char *expected)
{
    snprintf(tg__message, sizeof tg__message, "%s: parameter %d (%s) = %lld: %s", fn, pos, name,
             (long long)value, expected);
    return TG_ERR_ARG;
}

TG__PRIVATE int tg__fail(int status, const char *fn, const char *what)
{
    snprintf(tg__message, sizeof tg__message, "%s: %s: %s", fn, tg_strerror(status), what);
    return status;
}
