/* What the CPU offers: SIMD features for picking micro-kernels, cache sizes for picking block sizes.
 *
 * Read once per process (the answer never changes) and published with release/acquire ordering;
 * two first callers may both fill in the same values. Cache sizes come from Linux's sysfs, which
 * describes the caches as the kernel sees them; glibc's sysconf comes second because on some virtual
 * machines it reports the whole host's L3 (256 MiB where sysfs and the CPU say 32 MiB). Where neither
 * tells, sizes common on current x86 cores serve: a wrong size costs speed, never correctness.
 */
#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include "internal.h"

#if defined(TG__X86) && defined(__GNUC__)
#include <cpuid.h>

/* Whether this is an AMD family 0x19 core (Zen 3 and Zen 4; only Zen 4 has AVX-512), whose 512-bit
 * operations take both halves of its 256-bit units. Every other AVX-512 core is taken to run them
 * at full width, as Zen 5's EPYC parts and Intel's with two 512-bit FMA units do; those with one
 * (some Xeons, Intel's client cores) and Zen 5's mobile parts are not told apart, and the small
 * path's rule for them (small.c) was measured only on a Zen 5 EPYC. */
static int tg__amd_family_19h(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x68747541) return 0; /* "Auth"enticAMD */
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return ((a >> 8) & 0xf) + ((a >> 20) & 0xff) == 0x19;
}
#endif

/* The size in bytes of the level-`level` data (or unified) cache of CPU 0 from sysfs, or 0. */
static int64_t tg__sysfs_cache(int level)
{
#ifdef __linux__
    for (int idx = 0; idx < 8; idx++) {
        char path[96], text[32];
        int lv = 0;
        long long size = 0;
        char unit = 0;
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
        if (!(f = fopen(path, "r"))) return 0;
        if (fscanf(f, "%d", &lv) != 1) lv = 0;
        fclose(f);
        if (lv != level) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", idx);
        if (!(f = fopen(path, "r"))) continue;
        if (!fgets(text, sizeof text, f)) text[0] = 0;
        fclose(f);
        if (strncmp(text, "Instruction", 11) == 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
        if (!(f = fopen(path, "r"))) continue;
        if (fscanf(f, "%lld%c", &size, &unit) < 1) size = 0;
        fclose(f);
        return unit == 'K' ? size << 10 : unit == 'M' ? size << 20 : size;
    }
#else
    (void)level;
#endif
    return 0;
}

/* sysfs, else sysconf, else the fallback. */
static int64_t tg__cache_size(int level, int64_t fallback)
{
    int64_t v = tg__sysfs_cache(level);
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    if (v <= 0) {
        long s = sysconf(level == 1   ? _SC_LEVEL1_DCACHE_SIZE
                         : level == 2 ? _SC_LEVEL2_CACHE_SIZE
                                      : _SC_LEVEL3_CACHE_SIZE);
        v = s > 0 ? (int64_t)s : 0;
    }
#endif
    return v > 0 ? v : fallback;
}

TG__PRIVATE const tg__cpuinfo *tg__cpu(void)
{
    static tg__cpuinfo info;
    static int ready;
    if (TG__LOAD_ACQUIRE(&ready)) return &info;
#if defined(TG__X86) && defined(__GNUC__)
    __builtin_cpu_init();
    info.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    info.avx512f = __builtin_cpu_supports("avx512f");
    info.zmm_split = info.avx512f && tg__amd_family_19h();
    info.intel = __builtin_cpu_is("intel");
#endif
    info.l1d = tg__cache_size(1, 32 << 10);
    info.l2 = tg__cache_size(2, 512 << 10);
    info.l3 = tg__cache_size(3, 8 << 20);
    /* A VM's reported L3 can be the whole socket's, shared by every core and tenant on it (an
     * Intel Emerald Rapids VM of 2 vCPUs reports 260 MiB): what a call can count on keeping there
     * is far less. 32 MiB, one AMD core complex's. */
    info.l3_plan = info.l3 < (32 << 20) ? info.l3 : 32 << 20;
    TG__STORE_RELEASE(&ready, 1);
    return &info;
}
