/* What the CPU offers: SIMD features for picking micro-kernels, cache sizes for picking block sizes.
 *
 * Read once per process (the answer never changes) and published with release/acquire ordering;
 * two first callers may both fill in the same values. Cache sizes come from the OS where it tells (glibc's sysconf), else fall back to sizes
 * common on current x86 cores, which only cost speed, never correctness.
 */
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include "internal.h"

#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
static int64_t tg__sysconf_or(int name, int64_t fallback)
{
    long v = sysconf(name);
    return v > 0 ? (int64_t)v : fallback;
}
#endif

TG__PRIVATE const tg__cpuinfo *tg__cpu(void)
{
    static tg__cpuinfo info;
    static int ready;
    if (TG__LOAD_ACQUIRE(&ready)) return &info;
#if defined(TG__X86) && defined(__GNUC__)
    __builtin_cpu_init();
    info.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    info.avx512f = __builtin_cpu_supports("avx512f");
#endif
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    info.l1d = tg__sysconf_or(_SC_LEVEL1_DCACHE_SIZE, 32 << 10);
    info.l2 = tg__sysconf_or(_SC_LEVEL2_CACHE_SIZE, 512 << 10);
    info.l3 = tg__sysconf_or(_SC_LEVEL3_CACHE_SIZE, 8 << 20);
#else
    info.l1d = 32 << 10;
    info.l2 = 512 << 10;
    info.l3 = 8 << 20;
#endif
    TG__STORE_RELEASE(&ready, 1);
    return &info;
}
