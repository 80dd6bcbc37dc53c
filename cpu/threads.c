/* The process-wide thread count and how many threads one call uses.
 *
 * The count is the only mutable global state in the library: a plain int written by
 * tg_set_num_threads and read at the start of each call. A call inside a caller's OpenMP parallel
 * region runs on one thread (the caller already uses the cores), and a small call runs on one
 * thread because waking a team costs more than the work.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu.h"

static int tg__num_threads;

TGEMM_DEF void tg_set_num_threads(int n) { TG__STORE_RELEASE(&tg__num_threads, n > 0 ? n : 0); }

TGEMM_DEF int tg_get_num_threads(void)
{
    int n = TG__LOAD_ACQUIRE(&tg__num_threads);
#ifdef _OPENMP
    return n > 0 ? n : omp_get_max_threads();
#else
    (void)n;
    return 1;
#endif
}

TG__PRIVATE int tg__threads_team(void)
{
#ifdef _OPENMP
    return omp_in_parallel() ? 1 : tg_get_num_threads();
#else
    return 1;
#endif
}
