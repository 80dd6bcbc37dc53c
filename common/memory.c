/* Aligned working memory for packed panels.
 *
 * 64 bytes is a cache line and the widest vector (AVX-512); packed panels start there so the
 * micro-kernels' loads never split a line. Built on plain malloc (the original pointer and the
 * size are kept just below the aligned block) so it compiles under strict C99 / C++ on any
 * platform. A test-only switch makes allocation fail, so the tests can prove that TG_ERR_NOMEM
 * leaves C untouched.
 *
 * The last block freed is kept for the next call instead of going back to malloc: a block of
 * packed panels is megabytes, which malloc hands back to the system on free, and taking it again
 * costs a page fault and a cleared page every 4 KiB (7% of a 300^3 or 600^3 dgemm in the page-fault
 * handler). One block is kept, the largest a call needed lately, so a process holds at most one
 * call's panels; each call takes one block (tg__alloc) and returns it (tg__free). The slot is
 * swapped atomically, so concurrent calls each get their own block and never share one.
 */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#ifdef TGEMM_TESTING
int tg__test_fail_alloc;
#endif

/* Below the aligned block: the pointer malloc returned, then the usable size. */
typedef struct {
    void *raw;
    size_t bytes;
} tg__block;

static tg__block *tg__head(void *p) { return (tg__block *)p - 1; }

#if defined(__GNUC__) || defined(__clang__)
static void *tg__kept;
#define TG__SWAP_KEPT(p) __atomic_exchange_n(&tg__kept, (p), __ATOMIC_ACQ_REL)
#else
#define TG__SWAP_KEPT(p) (p) /* no atomics known: keep nothing */
#endif

TG__PRIVATE void *tg__alloc(size_t bytes)
{
    void *raw, *kept;
    uintptr_t aligned;
#ifdef TGEMM_TESTING
    if (tg__test_fail_alloc) return NULL;
#endif
    kept = TG__SWAP_KEPT(NULL);
    if (kept && tg__head(kept)->bytes >= bytes) return kept;
    if (kept) free(tg__head(kept)->raw); /* too small: replaced by this call's size */
    if (bytes > SIZE_MAX - 64 - sizeof(tg__block)) return NULL;
    raw = malloc(bytes + 64 + sizeof(tg__block));
    if (!raw) return NULL;
    aligned = ((uintptr_t)raw + sizeof(tg__block) + 63) & ~(uintptr_t)63;
    tg__head((void *)aligned)->raw = raw;
    tg__head((void *)aligned)->bytes = bytes;
    return (void *)aligned;
}

TG__PRIVATE void tg__free(void *p)
{
    void *older;
    if (!p) return;
    older = TG__SWAP_KEPT(p);
    if (older) free(tg__head(older)->raw);
}
