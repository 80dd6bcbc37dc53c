/* The AVX2 elementwise runs (elementwise_avx2.inc) for float (8 lanes) and double (4 lanes).
 *
 * Built without -mavx2, like the GEMM kernels: the vector body carries target("avx2,fma") and
 * elementwise.c calls it only when tg__arch_selected() says AVX2. On other architectures this file
 * is empty and the portable runs serve. The transcendental activations that follow the operation
 * are the vector ones of elementwise_act_avx2.c. */
#include "elementwise.h"

#ifdef TG__X86
#include <immintrin.h>

#define TG__T float
#define TG__FN(x) x##_s
#define TG__S(e) ((e)->sf)
#define TG__ACT tg__ew_act_avx2_s
#define TG__V __m256
#define TG__W 8
#define TG__LOADU _mm256_loadu_ps
#define TG__STOREU _mm256_storeu_ps
#define TG__STREAM _mm256_stream_ps
#define TG__ADD _mm256_add_ps
#define TG__SUB _mm256_sub_ps
#define TG__MUL _mm256_mul_ps
#define TG__FMA _mm256_fmadd_ps
#define TG__MAX _mm256_max_ps
#define TG__SET1 _mm256_set1_ps
#define TG__ZERO _mm256_setzero_ps
#include "elementwise_avx2.inc"

#define TG__T double
#define TG__FN(x) x##_d
#define TG__S(e) ((e)->sd)
#define TG__ACT tg__ew_act_avx2_d
#define TG__V __m256d
#define TG__W 4
#define TG__LOADU _mm256_loadu_pd
#define TG__STOREU _mm256_storeu_pd
#define TG__STREAM _mm256_stream_pd
#define TG__ADD _mm256_add_pd
#define TG__SUB _mm256_sub_pd
#define TG__MUL _mm256_mul_pd
#define TG__FMA _mm256_fmadd_pd
#define TG__MAX _mm256_max_pd
#define TG__SET1 _mm256_set1_pd
#define TG__ZERO _mm256_setzero_pd
#include "elementwise_avx2.inc"

#endif /* TG__X86 */
