/* The AVX2 elementwise runs (elementwise_avx2.inc) for float (8 lanes) and double (4 lanes).
 *
 * Built without -mavx2, like the GEMM kernels: the vector body carries target("avx2,fma") and
 * elementwise.c calls it only when tg__arch_selected() says AVX2. On other architectures this file
 * is empty and the portable runs serve. Float arrays also get vector sigmoid, SiLU and GELU tanh. */
#include <math.h>

#include "elementwise.h"

#ifdef TG__X86
#include <immintrin.h>

/* ---- the logistic activations of float arrays, four lanes of double at a time ----
 * Sigmoid, SiLU and GELU tanh are all x-times-or-not a logistic function s(v) = 1 / (1 + exp(-v)),
 * computed without overflow as (v >= 0 ? 1 : e) / (1 + e) with e = exp(-|v|). In double, the float
 * result keeps the scalar functions' quality (correctly rounded nearly always; the tests hold it to
 * the same bound) while running ~10x faster. GELU erf needs erfc and stays with the scalar code. */

/* exp(t) for t <= 0, to about 1 ulp of double: t = n ln2 + r with |r| <= ln2 / 2, exp(r) by its
 * Taylor series to r^12 (the next term is below 2^-52), times 2^n built in the exponent bits. t is
 * first raised to -700 (exp = 1e-304, still normal), which no float result can tell from 0; NaN
 * passes through (max returns its second operand when one is NaN). */
__attribute__((target("avx2,fma"))) static __m256d tg__ew_exp_neg(__m256d t)
{
    static const double c[13] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
                                 1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800,
                                 1.0 / 39916800, 1.0 / 479001600};
    __m256d n, r, p;
    __m256i bits;
    int k;
    t = _mm256_max_pd(_mm256_set1_pd(-700.0), t);
    n = _mm256_round_pd(_mm256_mul_pd(t, _mm256_set1_pd(1.4426950408889634)),
                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r = _mm256_fnmadd_pd(n, _mm256_set1_pd(6.93147180369123816490e-01), t); /* ln2 = hi + lo */
    r = _mm256_fnmadd_pd(n, _mm256_set1_pd(1.90821492927058770002e-10), r);
    p = _mm256_set1_pd(c[12]);
    for (k = 11; k >= 0; k--) p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(c[k]));
    bits = _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(n)),
                                              _mm256_set1_epi64x(1023)), 52);
    return _mm256_mul_pd(p, _mm256_castsi256_pd(bits));
}

/* z[i] = act(z[i]) for float z; sigmoid, SiLU and GELU tanh in vectors, the rest and the tail by
 * the scalar functions. */
__attribute__((target("avx2,fma"))) static void tg__ew_act_avx2_s(tg_act act, int64_t n, float *z)
{
    const __m256d sign = _mm256_set1_pd(-0.0), one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
    const __m256d a2 = _mm256_set1_pd(2 * 0.7978845608028654), b2 = _mm256_set1_pd(2 * 0.035677408136300125);
    const __m256d ninf = _mm256_set1_pd(-INFINITY);
    int64_t i = 0;
    if (act == TG_ACT_SIGMOID || act == TG_ACT_SILU || act == TG_ACT_GELU_TANH) {
        for (; i + 4 <= n; i += 4) {
            __m256d x = _mm256_cvtps_pd(_mm_loadu_ps(z + i)), v = x, e, s;
            if (act == TG_ACT_GELU_TANH) /* v = 2u = 2 sqrt(2/pi) (x + 0.044715 x^3) */
                v = _mm256_mul_pd(x, _mm256_fmadd_pd(_mm256_mul_pd(x, x), b2, a2));
            e = tg__ew_exp_neg(_mm256_or_pd(v, sign)); /* exp(-|v|) */
            s = _mm256_div_pd(_mm256_blendv_pd(e, one, _mm256_cmp_pd(v, zero, _CMP_GE_OQ)),
                              _mm256_add_pd(one, e));
            if (act != TG_ACT_SIGMOID) /* x s(v), and -0 at -Inf (where -Inf * tiny would stay -Inf) */
                s = _mm256_blendv_pd(_mm256_mul_pd(x, s), sign, _mm256_cmp_pd(x, ninf, _CMP_EQ_OQ));
            _mm_storeu_ps(z + i, _mm256_cvtpd_ps(s));
        }
    }
    tg__ew_act_s(act, n - i, z + i);
}

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
#define TG__ACT tg__ew_act_d
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
