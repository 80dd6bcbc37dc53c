/* Aligned working memory for packed panels.
 *
 * 64 bytes is a cache line and the widest vector (AVX-512); packed panels start there so the
 * micro-kernels' loads never split a line. Built on plain malloc (the original pointer is kept just
 * below the aligned block) so it compiles under strict C99 / C++ on any platform. A test-only switch
 * makes allocation fail, so the tests can prove that TG_ERR_NOMEM leaves C untouched.
 */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#ifdef TGEMM_TESTING
int tg__test_fail_alloc;
#endif

TG__PRIVATE void *tg__alloc(size_t bytes)
{
    void *raw;
    uintptr_t aligned;
#ifdef TGEMM_TESTING
    if (tg__test_fail_alloc) return NULL;
#endif
    if (bytes > SIZE_MAX - 64 - sizeof(void *)) return NULL;
    raw = malloc(bytes + 64 + sizeof(void *));
    if (!raw) return NULL;
    aligned = ((uintptr_t)raw + sizeof(void *) + 63) & ~(uintptr_t)63;
    ((void **)aligned)[-1] = raw;
    return (void *)aligned;
}

TG__PRIVATE void tg__free(void *p)
{
    if (p) free(((void **)p)[-1]);
}
