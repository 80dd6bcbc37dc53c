/* The AVX2 elementwise runs (elementwise_avx2.inc) for float (8 lanes) and double (4 lanes).
 *
 * Built without -mavx2, like the GEMM kernels: the vector body carries target("avx2,fma") and
 * elementwise.c calls it only when tg__arch_selected() says AVX2. On other architectures this file
 * is empty and the portable runs serve. The transcendental activations are the vector functions of
 * elementwise_act_avx2.h, fused into the operation's loop. */
#include "elementwise.h"

#ifdef TG__X86
#include <immintrin.h>

#include "elementwise_act_avx2.h"

#define TG__T float
#define TG__FN(x) x##_s
#define TG__S(e) ((e)->sf)
#define TG__GELU_TANH tg__ew_gelu_tanh_s
#define TG__GELU_ERF tg__ew_gelu_erf_s
#define TG__SIGMOID tg__ew_sigmoid_s
#define TG__SILU tg__ew_silu_s
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
#define TG__GELU_TANH tg__ew_gelu_tanh_d
#define TG__GELU_ERF tg__ew_gelu_erf_d
#define TG__SIGMOID tg__ew_sigmoid_d
#define TG__SILU tg__ew_silu_d
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
