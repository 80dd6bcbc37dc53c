/* The transcendental activations of the AVX2 family in vectors: GELU (tanh and erf forms), sigmoid
 * and SiLU of float (8 lanes) and double (4 lanes) arrays, all built on one vector exp.
 *
 * Each follows its scalar counterpart in elementwise_act.c and avoids the same two traps:
 *  - no cancellation: GELU tanh, sigmoid and SiLU are x-times-or-not the logistic function
 *    s(v) = 1 / (1 + exp(-v)), taken as (v >= 0 ? 1 : e) / (1 + e) with e = exp(-|v|), so exp never
 *    overflows either; GELU erf is 0.5 x erfc(|x| / sqrt2) for x < 0 and x minus that for x >= 0;
 *  - no amplified argument: exp(t) = 2^n exp(r) with r = t - n ln2 (in float, 2^(n/8) exp(r) with
 *    r = t - n ln2/8), and an error d in t is an error of relative size d in the result. GELU's t
 *    (-2u, or -x^2/2) reaches -90 where results still count, so t is formed to well below its own
 *    ulp: in double for float arrays (t's error ~2^-45; the reduction is done there and only r goes
 *    on in float), and as a double-double for double arrays, whose low part joins r after the
 *    reduction.
 * In double, exp(r), |r| <= ln2/2, is a polynomial of degree 11 with its coefficients scaled by
 * 2^-600; in float, |r| <= ln2/16 and exp(r) is a cubic, times 2^((n mod 8)/8 - 100) from a table of
 * eight that one permute reads (fewer FMAs than a degree-6 polynomial over ln2/2: fp32 sigmoid 1.30
 * -> 1.19 cycles per element in L2, SiLU at 2^27 and 2 threads 63 -> 69% of a copy, within 1 ulp
 * of the old worst errors). The scales are exact and keep everything clear of underflow until the
 * last product by 2^(n + 600) or 2^(floor(n/8) + 100), which is normal for every n the clamped
 * arguments give: one product, rounded once, so results deep in the subnormals keep their value and
 * those below them become 0, not garbage. erfc(y) is exp(-y^2) times erfcx(y), a polynomial in
 * (y - K) / (y + K) (degree 9 in float, 20 in double).
 * tests/elementwise/act_coeffs.py derives the coefficients. Arguments are clamped where exp is 0 in
 * the type anyway; NaN passes through every step (max and min keep their second operand when it is
 * NaN). The scalar functions do the elements of a run's unaligned head and its tail that fill no
 * vector (elementwise_avx2.inc calls the portable run there).
 *
 * Worst error in ulps (as tests/elementwise judge them) over every 17th float of [-20, 10] and 10^7
 * random doubles (test_elementwise --sweep):
 *                  GELU tanh  GELU erf  sigmoid  SiLU
 *      float          4.12      5.11      3.31    4.19
 *      double         3.18      5.76      2.40    3.21
 * (GELU erf's worst is near 0, where (y - K) / (y + K) is near -1 and its rounding is felt most.)
 */
#ifndef TGEMM_CPU_ELEMENTWISE_ACT_AVX2_H
#define TGEMM_CPU_ELEMENTWISE_ACT_AVX2_H

#include <float.h>
#include <immintrin.h>

#define TG__AVX2 __attribute__((target("avx2,fma"))) static inline

/* Float: exp(r) = 1 + r + r^2 (c2 + c3 r) for |r| <= ln2/16, and 2^(j/8 - 100) for j = 0..7, the
 * table that takes the rest of the reduction (act_coeffs.py): constant term first. */
static const float tg__ew_exp_cs[4] = {1.000000000e+00f, 1.000000000e+00f, 5.000391006e-01f,
                                       1.666744798e-01f};
static const float tg__ew_exp_tab_s[8] = {7.888609052e-31f, 8.602589275e-31f, 9.381189713e-31f,
                                          1.023026057e-30f, 1.115617772e-30f, 1.216589821e-30f,
                                          1.326700634e-30f, 1.446777288e-30f};
/* Double: exp(r) = 1 + r + r^2 g(r) for |r| <= ln2/2 (act_coeffs.py): constant term first. */
static const double tg__ew_exp_cd[12] = {
    1.00000000000000000e+00, 1.00000000000000000e+00, 5.00000000000000111e-01,
    1.66666666666666685e-01, 4.16666666666241636e-02, 8.33333333333006500e-03,
    1.38888889171967186e-03, 1.98412698630405450e-04, 2.48015213223686919e-05,
    2.75572684803100238e-06, 2.76200758799833672e-07, 2.51003758325612340e-08};

/* erfcx(y) = exp(y^2) erfc(y) for 0 <= y <= Y as a polynomial in t = (y - K) / (y + K)
 * (act_coeffs.py: float K = 3, Y = 6, degree 9; double K = 4, Y = 9, degree 20): constant first. */
static const float tg__ew_erfcx_cs[10] = {1.790011525e-01f, -3.262335360e-01f, 2.456036955e-01f,
                                          -1.501172632e-01f, 7.166645676e-02f, -2.437306382e-02f,
                                          4.294759128e-03f, 6.411634386e-04f, -8.032176993e-04f,
                                          -1.544524712e-04f};
static const double tg__ew_erfcx_cd[21] = {
    1.36999457625061383e-01, -2.59068048760171643e-01, 2.18719678918264965e-01,
    -1.64257816697305103e-01, 1.08963177398900823e-01, -6.31078156399690893e-02,
    3.12990565185783665e-02, -1.28439460254792751e-02, 4.06026363334238433e-03,
    -7.99126884724387547e-04, -2.17619181424029877e-05, 7.89835229833096256e-05,
    -2.25542416514530572e-05, -1.90258450892662559e-06, 2.93774607144760460e-06,
    -4.20166030222073068e-07, -2.81760939564512646e-07, 1.22378990901473426e-07,
    5.69792079964610074e-08, -2.21833542929462775e-10, -1.97674196628839905e-09};

/* ln2 as hi + lo (hi the nearest value of the type; fma forms t - n hi exactly, since it is below 0.5
 * and a multiple of 2^-54 in double whenever n is not 0, and t - n hi/8 in float, below 2^-4 and a
 * multiple of 2^-27), log2(e), and the rounding constants 1.5 2^23 and 1.5 2^52: t log2(e) + M (8 t
 * log2(e) + M in float) is M plus the integer n nearest to t / ln2 (8 t / ln2), which then sits in
 * M's low bits. */
#define TG__LN2_HI_S 6.931471825e-01f
#define TG__LN2_LO_S (-1.904654212e-09f)
#define TG__LN2_HI_D 6.93147180559945286e-01
#define TG__LN2_LO_D 2.31904681384629956e-17
#define TG__LOG2E 1.4426950408889634
#define TG__ROUND_S 12582912.0f
#define TG__ROUND_D 6755399441055744.0
/* 2^-600, exactly: the scale of double exp's polynomial (float's is in its table). */
#define TG__EXP_SCALE_D 2.4099198651028841e-181
/* 2 sqrt(2/pi) and 2 sqrt(2/pi) 0.044715, hi + lo (act_coeffs.py): -2u(x) = x (A + B x^2). */
#define TG__GELU_A 1.59576912160573081e+00
#define TG__GELU_A_LO (-9.96930880911092018e-17)
#define TG__GELU_B 7.13548162726002494e-02
#define TG__GELU_B_LO (-6.17514991815531500e-19)
#define TG__SQRT1_2 7.07106781186547573e-01

/* ---- float ---- */

/* exp(r) 2^(n/8) for |r| <= ~ln2/16 and an integer vector nb whose low three bits are n's and
 * whose arithmetic shift right by 3, plus off, is the exponent field of 2^(floor(n/8) + 100), with
 * floor(n/8) in [-226, 0]: the table gives 2^((n mod 8)/8 - 100) (one permute, no memory gather),
 * the cubic exp(r) - 1 = q, and T + T q rounds once before the scaling by 2^(floor(n/8) + 100),
 * which, as in double, keeps results in the subnormals right. */
TG__AVX2 __m256 tg__ew_exp_s(__m256 r, __m256i nb, int off)
{
    __m256 t = _mm256_permutevar8x32_ps(_mm256_loadu_ps(tg__ew_exp_tab_s), nb);
    __m256 q = _mm256_fmadd_ps(_mm256_set1_ps(tg__ew_exp_cs[3]), r, _mm256_set1_ps(tg__ew_exp_cs[2]));
    __m256i f = _mm256_add_epi32(_mm256_srai_epi32(nb, 3), _mm256_set1_epi32(off));
    q = _mm256_fmadd_ps(_mm256_mul_ps(r, r), q, r);
    return _mm256_mul_ps(_mm256_fmadd_ps(t, q, t), _mm256_castsi256_ps(_mm256_slli_epi32(f, 23)));
}

/* exp(t) for float t in [-226 ln2, 0] (or NaN): n = round(8 t / ln2) sits in the low bits of k's
 * pattern, 0x4B400000 + n; 0x4B400000 is a multiple of 8, so its eighth comes off after the shift. */
TG__AVX2 __m256 tg__ew_exp_neg_s(__m256 t)
{
    const __m256 round = _mm256_set1_ps(TG__ROUND_S);
    __m256 k = _mm256_fmadd_ps(t, _mm256_set1_ps((float)(8 * TG__LOG2E)), round), n = _mm256_sub_ps(k, round);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(TG__LN2_HI_S / 8), t);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(TG__LN2_LO_S / 8), r);
    return tg__ew_exp_s(r, _mm256_castps_si256(k), 227 - 0x4B400000 / 8);
}

/* exp(t) for the eight floats whose t in [-226 ln2, 0] come as two halves of double: reduced in
 * double, where t's error is ~2^-45, then r rounded to float, whose error is then relative to r
 * alone. */
TG__AVX2 __m256 tg__ew_exp_neg_sd(__m256d lo, __m256d hi)
{
    const __m256d round = _mm256_set1_pd(TG__ROUND_D), log2e = _mm256_set1_pd(8 * TG__LOG2E);
    const __m256d ln2 = _mm256_set1_pd(TG__LN2_HI_D / 8); /* n ln2's error, n 2^-57, is far below r's */
    __m256d klo = _mm256_fmadd_pd(lo, log2e, round), khi = _mm256_fmadd_pd(hi, log2e, round);
    __m256d rlo = _mm256_fnmadd_pd(_mm256_sub_pd(klo, round), ln2, lo);
    __m256d rhi = _mm256_fnmadd_pd(_mm256_sub_pd(khi, round), ln2, hi);
    __m256 r = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(rlo)), _mm256_cvtpd_ps(rhi), 1);
    /* n is the low 32 bits of each k (the rounding constant's are 0): gathered in lane order. */
    __m256 n2 = _mm256_shuffle_ps(_mm256_castpd_ps(klo), _mm256_castpd_ps(khi), _MM_SHUFFLE(2, 0, 2, 0));
    __m256i n = _mm256_permute4x64_epi64(_mm256_castps_si256(n2), _MM_SHUFFLE(3, 1, 2, 0));
    return tg__ew_exp_s(r, n, 227);
}

/* (x < 0 ? e : 1) / (1 + e): s(v) for e = exp(-|v|) when v has the sign of x (the sign bit picks:
 * -0 gives e / (1 + e) = 1/2 as well, and a NaN is already in e). */
TG__AVX2 __m256 tg__ew_logistic_s(__m256 x, __m256 e)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    return _mm256_div_ps(_mm256_blendv_ps(one, e, x), _mm256_add_ps(one, e));
}

/* x times a logistic value s, with -Inf times s = 0 giving -0 (the limit) instead of NaN. */
TG__AVX2 __m256 tg__ew_times_s(__m256 x, __m256 s)
{
    return _mm256_mul_ps(_mm256_max_ps(_mm256_set1_ps(-FLT_MAX), x), s);
}

/* -|x|, no lower than -c: the negative argument where c is past exp's underflow. */
TG__AVX2 __m256 tg__ew_negabs_s(__m256 x, float c)
{
    return _mm256_max_ps(_mm256_set1_ps(-c), _mm256_or_ps(x, _mm256_set1_ps(-0.0f)));
}

TG__AVX2 __m256 tg__ew_sigmoid_s(__m256 x)
{
    return tg__ew_logistic_s(x, tg__ew_exp_neg_s(tg__ew_negabs_s(x, 140.0f)));
}

TG__AVX2 __m256 tg__ew_silu_s(__m256 x)
{
    return tg__ew_times_s(x, tg__ew_sigmoid_s(x));
}

/* -2u(x) = x (A + B x^2) at x = -|x| >= -11.5 (past which exp(-2u) is 0 in float), in double. */
TG__AVX2 __m256d tg__ew_gelu_arg_sd(__m128 x)
{
    __m256d d = _mm256_cvtps_pd(x);
    return _mm256_mul_pd(d, _mm256_fmadd_pd(_mm256_mul_pd(d, d), _mm256_set1_pd(TG__GELU_B),
                                            _mm256_set1_pd(TG__GELU_A)));
}

TG__AVX2 __m256 tg__ew_gelu_tanh_s(__m256 x)
{
    __m256 xn = tg__ew_negabs_s(x, 11.5f);
    __m256 e = tg__ew_exp_neg_sd(tg__ew_gelu_arg_sd(_mm256_castps256_ps128(xn)),
                                 tg__ew_gelu_arg_sd(_mm256_extractf128_ps(xn, 1)));
    return tg__ew_times_s(x, tg__ew_logistic_s(x, e));
}

/* GELU erf = 0.5 x erfc(-x / sqrt2), from E = erfc(y) at y = |x| / sqrt2: 0.5 x E for x < 0, and
 * x - 0.5 x E for x >= 0 (erfc(-y) = 2 - E; E <= 1 there, so nothing cancels). E = exp(-y^2) erfcx(y):
 * the argument y^2 = x^2 / 2 is exact in double (and as a double-double in double), the slowly
 * varying erfcx takes y's rounding (relative, amplified at most once). Past Y, where E is below the
 * type's concern, erfcx is held at its value at Y; x is clamped where exp(-y^2) is 0 in the type, and
 * to +-MAX in 0.5 x E so that +-Inf times E = 0 gives 0, not NaN. */
TG__AVX2 __m256 tg__ew_gelu_erf_s(__m256 x)
{
    const __m256 k = _mm256_set1_ps(3.0f), half = _mm256_set1_ps(0.5f);
    __m256 xn = tg__ew_negabs_s(x, 16.0f), y, t, p, h;
    __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(xn)), hi = _mm256_cvtps_pd(_mm256_extractf128_ps(xn, 1));
    __m256 e = tg__ew_exp_neg_sd(_mm256_mul_pd(_mm256_mul_pd(lo, _mm256_set1_pd(-0.5)), lo),
                                 _mm256_mul_pd(_mm256_mul_pd(hi, _mm256_set1_pd(-0.5)), hi));
    int j;
    y = _mm256_min_ps(_mm256_mul_ps(xn, _mm256_set1_ps(-(float)TG__SQRT1_2)), _mm256_set1_ps(6.0f));
    t = _mm256_div_ps(_mm256_sub_ps(y, k), _mm256_add_ps(y, k));
    p = _mm256_set1_ps(tg__ew_erfcx_cs[9]);
    for (j = 8; j >= 0; j--) p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(tg__ew_erfcx_cs[j]));
    e = _mm256_mul_ps(e, p); /* E */
#if defined(TG__EW_PLANT) && TG__EW_PLANT == 2
    e = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_sub_ps(_mm256_set1_ps(1.0f), e)); /* planted: E = 1 - erf */
#endif
    h = _mm256_min_ps(_mm256_max_ps(_mm256_set1_ps(-FLT_MAX), x), _mm256_set1_ps(FLT_MAX));
    h = _mm256_mul_ps(_mm256_mul_ps(h, half), e);
    return _mm256_blendv_ps(_mm256_sub_ps(x, h), h, x);
}

/* ---- double ---- */

/* exp(r) 2^n for |r| <= ~0.35 and k = n + 1.5 2^52, n in [-1600, 0]. Above r^2 the polynomial
 * goes by Estrin's scheme (pairs, then pairs of pairs with r^2, r^4, r^8), the last two steps by
 * Horner's, which round the large terms once: a chain of 6 operations instead of 11, which the
 * loop's other work could not hide (sigmoid 2.4 -> 1.65 ns per element). */
TG__AVX2 __m256d tg__ew_exp_d(__m256d r, __m256d k)
{
#define TG__C(j) _mm256_set1_pd(TG__EXP_SCALE_D * tg__ew_exp_cd[j])
#define TG__PAIR(j) _mm256_fmadd_pd(TG__C(j + 1), r, TG__C(j))
    __m256d r2 = _mm256_mul_pd(r, r), r4 = _mm256_mul_pd(r2, r2), r8 = _mm256_mul_pd(r4, r4);
    __m256d q0 = _mm256_fmadd_pd(TG__PAIR(4), r2, TG__PAIR(2));
    __m256d q1 = _mm256_fmadd_pd(TG__PAIR(8), r2, TG__PAIR(6));
    __m256d p = _mm256_fmadd_pd(TG__PAIR(10), r8, _mm256_fmadd_pd(q1, r4, q0));
    /* the exponent field of 2^(n + 600) */
    __m256i f = _mm256_sub_epi64(_mm256_castpd_si256(k), _mm256_set1_epi64x(0x4338000000000000 - 1623));
    p = _mm256_fmadd_pd(_mm256_fmadd_pd(p, r, TG__C(1)), r, TG__C(0));
#undef TG__PAIR
#undef TG__C
    return _mm256_mul_pd(p, _mm256_castsi256_pd(_mm256_slli_epi64(f, 52)));
}

/* exp(t + tl) for t in [-1100, 0] (or NaN) and tl below t's ulp: tl joins r after the reduction. */
TG__AVX2 __m256d tg__ew_exp_neg_d(__m256d t, __m256d tl)
{
    const __m256d round = _mm256_set1_pd(TG__ROUND_D);
    __m256d k = _mm256_fmadd_pd(t, _mm256_set1_pd(TG__LOG2E), round), n = _mm256_sub_pd(k, round);
    __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(TG__LN2_HI_D), t);
    r = _mm256_add_pd(_mm256_fnmadd_pd(n, _mm256_set1_pd(TG__LN2_LO_D), r), tl);
    return tg__ew_exp_d(r, k);
}

TG__AVX2 __m256d tg__ew_logistic_d(__m256d x, __m256d e)
{
    const __m256d one = _mm256_set1_pd(1.0);
    return _mm256_div_pd(_mm256_blendv_pd(one, e, x), _mm256_add_pd(one, e));
}

TG__AVX2 __m256d tg__ew_times_d(__m256d x, __m256d s)
{
    return _mm256_mul_pd(_mm256_max_pd(_mm256_set1_pd(-DBL_MAX), x), s);
}

TG__AVX2 __m256d tg__ew_negabs_d(__m256d x, double c)
{
    return _mm256_max_pd(_mm256_set1_pd(-c), _mm256_or_pd(x, _mm256_set1_pd(-0.0)));
}

TG__AVX2 __m256d tg__ew_sigmoid_d(__m256d x)
{
    return tg__ew_logistic_d(x, tg__ew_exp_neg_d(tg__ew_negabs_d(x, 1000.0), _mm256_setzero_pd()));
}

TG__AVX2 __m256d tg__ew_silu_d(__m256d x)
{
    return tg__ew_times_d(x, tg__ew_sigmoid_d(x));
}

/* -2u(x) = x w with w = A + B x^2, at x = -|x| >= -24 (past which exp(-2u) is 0 in double), as
 * hi + lo to ~2^-100 relative: x^2 and each product exactly (fma gives a product's rounding error),
 * A + B x^2 by the fast two-sum (larger term first: both are positive), the small terms of the
 * constants' low parts added on. */
TG__AVX2 __m256d tg__ew_gelu_tanh_d(__m256d x)
{
    const __m256d a = _mm256_set1_pd(TG__GELU_A), b = _mm256_set1_pd(TG__GELU_B);
    __m256d xn = tg__ew_negabs_d(x, 24.0);
    __m256d s = _mm256_mul_pd(xn, xn), sl = _mm256_fmsub_pd(xn, xn, s);
    __m256d m = _mm256_mul_pd(b, s), ml = _mm256_fmsub_pd(b, s, m);
    __m256d big = _mm256_max_pd(a, m), small = _mm256_min_pd(a, m);
    __m256d w = _mm256_add_pd(big, small), wl = _mm256_sub_pd(small, _mm256_sub_pd(w, big));
    __m256d t, tl;
    wl = _mm256_add_pd(_mm256_add_pd(wl, _mm256_fmadd_pd(b, sl, ml)),
                       _mm256_fmadd_pd(_mm256_set1_pd(TG__GELU_B_LO), s, _mm256_set1_pd(TG__GELU_A_LO)));
    t = _mm256_mul_pd(xn, w);
    tl = _mm256_fmadd_pd(xn, wl, _mm256_fmsub_pd(xn, w, t));
    return tg__ew_times_d(x, tg__ew_logistic_d(x, tg__ew_exp_neg_d(t, tl)));
}

/* As in float; y^2 = x^2 / 2 as a double-double, whose low part joins exp's reduction. */
TG__AVX2 __m256d tg__ew_gelu_erf_d(__m256d x)
{
    const __m256d k = _mm256_set1_pd(4.0), half = _mm256_set1_pd(0.5), nhalf = _mm256_set1_pd(-0.5);
    __m256d xn = tg__ew_negabs_d(x, 40.0), y, t, p, h;
    __m256d s = _mm256_mul_pd(xn, xn), sl = _mm256_fmsub_pd(xn, xn, s);
    __m256d e = tg__ew_exp_neg_d(_mm256_mul_pd(s, nhalf), _mm256_mul_pd(sl, nhalf));
    y = _mm256_min_pd(_mm256_mul_pd(xn, _mm256_set1_pd(-TG__SQRT1_2)), _mm256_set1_pd(9.0));
    t = _mm256_div_pd(_mm256_sub_pd(y, k), _mm256_add_pd(y, k));
    {
#define TG__C(j) _mm256_set1_pd(tg__ew_erfcx_cd[j])
#define TG__PAIR(j) _mm256_fmadd_pd(TG__C(j + 1), t, TG__C(j))
#define TG__QUAD(j) _mm256_fmadd_pd(TG__PAIR(j + 2), t2, TG__PAIR(j))
        __m256d t2 = _mm256_mul_pd(t, t), t4 = _mm256_mul_pd(t2, t2), t8 = _mm256_mul_pd(t4, t4);
        __m256d o0 = _mm256_fmadd_pd(TG__QUAD(6), t4, TG__QUAD(2)), o1 = _mm256_fmadd_pd(TG__QUAD(14), t4, TG__QUAD(10));
        __m256d o2 = _mm256_fmadd_pd(TG__C(20), t2, TG__PAIR(18));
        p = _mm256_fmadd_pd(_mm256_fmadd_pd(o2, t8, o1), t8, o0);
        p = _mm256_fmadd_pd(_mm256_fmadd_pd(p, t, TG__C(1)), t, TG__C(0));
#undef TG__QUAD
#undef TG__PAIR
#undef TG__C
    }
    e = _mm256_mul_pd(e, p);
#if defined(TG__EW_PLANT) && TG__EW_PLANT == 2
    e = _mm256_sub_pd(_mm256_set1_pd(1.0), _mm256_sub_pd(_mm256_set1_pd(1.0), e));
#endif
    h = _mm256_min_pd(_mm256_max_pd(_mm256_set1_pd(-DBL_MAX), x), _mm256_set1_pd(DBL_MAX));
    h = _mm256_mul_pd(_mm256_mul_pd(h, half), e);
    return _mm256_blendv_pd(_mm256_sub_pd(x, h), h, x);
}

#undef TG__AVX2
#undef TG__LN2_HI_S
#undef TG__LN2_LO_S
#undef TG__LN2_HI_D
#undef TG__LN2_LO_D
#undef TG__LOG2E
#undef TG__ROUND_S
#undef TG__ROUND_D
#undef TG__EXP_SCALE_D
#undef TG__GELU_A
#undef TG__GELU_A_LO
#undef TG__GELU_B
#undef TG__GELU_B_LO
#undef TG__SQRT1_2

#endif /* TGEMM_CPU_ELEMENTWISE_ACT_AVX2_H */
