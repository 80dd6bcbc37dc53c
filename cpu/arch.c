/* Which micro-kernel family runs: the best the CPU has, or the one TGEMM_ARCH forces.
 *
 * One binary runs on any x86-64 (and any other architecture through the generic kernels): the AVX2
 * and AVX-512 code carries its own target attributes and is only called after the CPU said it has
 * the instructions (AVX-512 also needs AVX2 and FMA: its kernels use them). Forcing lets the tests
 * run every family on one machine. The environment is read once per process.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

TG__PRIVATE tg__arch tg__arch_selected(void)
{
    static int cached = -2;
    int arch = TG__LOAD_ACQUIRE(&cached);
    if (arch != -2) return (tg__arch)arch;
    {
        const char *env = getenv("TGEMM_ARCH");
        int has_avx2 = tg__cpu()->avx2_fma, has_avx512 = has_avx2 && tg__cpu()->avx512f;
        if (!env || !*env)
            arch = has_avx512 ? TG__ARCH_AVX512 : has_avx2 ? TG__ARCH_AVX2 : TG__ARCH_GENERIC;
        else if (strcmp(env, "generic") == 0) arch = TG__ARCH_GENERIC;
        else if (strcmp(env, "avx2") == 0) arch = has_avx2 ? TG__ARCH_AVX2 : TG__ARCH_INVALID;
        else if (strcmp(env, "avx512") == 0) arch = has_avx512 ? TG__ARCH_AVX512 : TG__ARCH_INVALID;
        else arch = TG__ARCH_INVALID;
    }
    TG__STORE_RELEASE(&cached, arch);
    return (tg__arch)arch;
}

TGEMM_DEF const char *tg_cpu_arch(void)
{
    switch (tg__arch_selected()) {
    case TG__ARCH_AVX512: return "avx512";
    case TG__ARCH_AVX2: return "avx2";
    case TG__ARCH_GENERIC: return "generic";
    default: return "unsupported (TGEMM_ARCH names a family this CPU lacks)";
    }
}
