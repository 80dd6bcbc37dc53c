/* The AVX2+FMA micro-kernels (kernel_avx2.inc): 6 x 16 for float, 6 x 8 for double.
 *
 * Built without -mavx2: each kernel carries target("avx2,fma"), so the library and the single header
 * compile for any x86-64 and arch.c only calls these after the CPU said it has AVX2 and FMA. On other
 * architectures this file is empty and the generic kernels serve.
 */
#include "cpu.h"

#ifdef TG__X86
#include <immintrin.h>

#define TG__T float
#define TG__FN(x) x##_avx2_s
#include "tile.inc"
#define TG__V __m256
#define TG__W 8
#define TG__LOADU _mm256_loadu_ps
#define TG__STOREU _mm256_storeu_ps
#define TG__BCAST _mm256_broadcast_ss
#define TG__FMA _mm256_fmadd_ps
#define TG__MUL _mm256_mul_ps
#define TG__SET1 _mm256_set1_ps
#define TG__ZERO _mm256_setzero_ps
#include "kernel_avx2.inc"
#undef TG__T
#undef TG__FN
#undef TG__V
#undef TG__W
#undef TG__LOADU
#undef TG__STOREU
#undef TG__BCAST
#undef TG__FMA
#undef TG__MUL
#undef TG__SET1
#undef TG__ZERO

#define TG__T double
#define TG__FN(x) x##_avx2_d
#include "tile.inc"
#define TG__V __m256d
#define TG__W 4
#define TG__LOADU _mm256_loadu_pd
#define TG__STOREU _mm256_storeu_pd
#define TG__BCAST _mm256_broadcast_sd
#define TG__FMA _mm256_fmadd_pd
#define TG__MUL _mm256_mul_pd
#define TG__SET1 _mm256_set1_pd
#define TG__ZERO _mm256_setzero_pd
#include "kernel_avx2.inc"
#undef TG__T
#undef TG__FN
#undef TG__V
#undef TG__W
#undef TG__LOADU
#undef TG__STOREU
#undef TG__BCAST
#undef TG__FMA
#undef TG__MUL
#undef TG__SET1
#undef TG__ZERO

TG__PRIVATE const tg__kernel *tg__kernel_avx2(size_t es)
{
    return es == sizeof(float) ? &tg__kernel_desc_avx2_s : &tg__kernel_desc_avx2_d;
}
#endif /* TG__X86 */
