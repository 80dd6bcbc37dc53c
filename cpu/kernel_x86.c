/* The x86 micro-kernels: one template (kernel_simd.inc) instantiated for AVX2+FMA (6 x 16 floats,
 * 6 x 8 doubles) and for AVX-512 (6 x 32 floats, 6 x 16 doubles), and the register-transpose
 * packing helpers both use.
 *
 * Built without -mavx2 or -mavx512f: each function carries its target attribute, so the library and
 * the single header compile for any x86-64, and arch.c calls a family only after the CPU said it has
 * it. The AVX-512 family inlines the AVX2 helpers (its target includes AVX2's). On other
 * architectures this file is empty and the generic kernels serve.
 */
#include "cpu.h"

#ifdef TG__X86
#include <immintrin.h>
#include <string.h>

/* Six rows of a row-major A (row stride rs) by four k steps into the packed A panel's layout,
 * d[p * 6 + i] = s[i * rs + p]: rows 0-3 by a 4 x 4 register transpose, rows 4-5 as pairs. */
__attribute__((target("avx2,fma"))) static inline void tg__pack6x4_s(const float *s, int64_t rs,
                                                                     float *d)
{
    __m128 r0 = _mm_loadu_ps(s), r1 = _mm_loadu_ps(s + rs), r2 = _mm_loadu_ps(s + 2 * rs);
    __m128 r3 = _mm_loadu_ps(s + 3 * rs), r4 = _mm_loadu_ps(s + 4 * rs);
    __m128 r5 = _mm_loadu_ps(s + 5 * rs);
    __m128 lo = _mm_unpacklo_ps(r4, r5), hi = _mm_unpackhi_ps(r4, r5); /* rows 4-5, p 0-1 | 2-3 */
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);                                  /* r<p>: rows 0-3 at p */
    _mm_storeu_ps(d, r0);
    _mm_storel_pi((__m64 *)(d + 4), lo);
    _mm_storeu_ps(d + 6, r1);
    _mm_storeh_pi((__m64 *)(d + 10), lo);
    _mm_storeu_ps(d + 12, r2);
    _mm_storel_pi((__m64 *)(d + 16), hi);
    _mm_storeu_ps(d + 18, r3);
    _mm_storeh_pi((__m64 *)(d + 22), hi);
}

/* Six contiguous elements, one k step of a packed A panel whose rows are adjacent in memory. */
__attribute__((target("avx2,fma"))) static inline void tg__copy6_s(const float *s, float *d)
{
    _mm_storeu_ps(d, _mm_loadu_ps(s));
    _mm_storel_epi64((__m128i *)(d + 4), _mm_loadl_epi64((const __m128i *)(s + 4)));
}

__attribute__((target("avx2,fma"))) static inline void tg__copy6_d(const double *s, double *d)
{
    _mm256_storeu_pd(d, _mm256_loadu_pd(s));
    _mm_storeu_pd(d + 4, _mm_loadu_pd(s + 4));
}

/* Eight contiguous elements, one k step of a packed 8-row A panel whose rows are adjacent. */
__attribute__((target("avx2,fma"))) static inline void tg__copy8_s(const float *s, float *d)
{
    _mm256_storeu_ps(d, _mm256_loadu_ps(s));
}

__attribute__((target("avx2,fma"))) static inline void tg__copy8_d(const double *s, double *d)
{
    _mm256_storeu_pd(d, _mm256_loadu_pd(s));
    _mm256_storeu_pd(d + 4, _mm256_loadu_pd(s + 4));
}

/* Eight columns of a B stored along k (transposed row-major, or column-major; column stride cs) by
 * eight k steps into a packed panel ds wide, d[p * ds + j] = s[j * cs + p]: one 8 x 8 register
 * transpose. The same serves eight rows of a row-major A into an 8-row panel (ds = 8). kq < 8
 * moves the first kq k steps alone, the last of a panel's (kernel_simd.inc's tg__pack_along_k),
 * its columns read by masked loads, which touch nothing past them, and kq rows stored: those
 * went one element at a time, 160 loads and stores for a 32-wide panel five deep, which were half
 * of an NT s 16x33x5 (perf). Inlined with kq a constant, 8 where the full block moves. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
tg__packt8x8_s(const float *s, int64_t cs, float *d, int64_t ds, const int kq)
{
    const __m256i m =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(kq), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
#define TG__ROW(j) (kq < 8 ? _mm256_maskload_ps(s + (j) * cs, m) : _mm256_loadu_ps(s + (j) * cs))
    __m256 r0 = TG__ROW(0), r1 = TG__ROW(1), r2 = TG__ROW(2), r3 = TG__ROW(3);
    __m256 r4 = TG__ROW(4), r5 = TG__ROW(5), r6 = TG__ROW(6), r7 = TG__ROW(7);
#undef TG__ROW
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    /* u<q>: k steps q and q + 4 of four columns each */
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(d + 0 * ds, _mm256_permute2f128_ps(u0, u4, 0x20));
    if (kq > 1) _mm256_storeu_ps(d + 1 * ds, _mm256_permute2f128_ps(u1, u5, 0x20));
    if (kq > 2) _mm256_storeu_ps(d + 2 * ds, _mm256_permute2f128_ps(u2, u6, 0x20));
    if (kq > 3) _mm256_storeu_ps(d + 3 * ds, _mm256_permute2f128_ps(u3, u7, 0x20));
    if (kq > 4) _mm256_storeu_ps(d + 4 * ds, _mm256_permute2f128_ps(u0, u4, 0x31));
    if (kq > 5) _mm256_storeu_ps(d + 5 * ds, _mm256_permute2f128_ps(u1, u5, 0x31));
    if (kq > 6) _mm256_storeu_ps(d + 6 * ds, _mm256_permute2f128_ps(u2, u6, 0x31));
    if (kq > 7) _mm256_storeu_ps(d + 7 * ds, _mm256_permute2f128_ps(u3, u7, 0x31));
}

/* The same for double: four columns by four k steps (or the first kq), one 4 x 4 transpose. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
tg__packt4x4_d(const double *s, int64_t cs, double *d, int64_t ds, const int kq)
{
    const __m256i m = _mm256_cmpgt_epi64(_mm256_set1_epi64x(kq), _mm256_setr_epi64x(0, 1, 2, 3));
#define TG__ROW(j) (kq < 4 ? _mm256_maskload_pd(s + (j) * cs, m) : _mm256_loadu_pd(s + (j) * cs))
    __m256d r0 = TG__ROW(0), r1 = TG__ROW(1), r2 = TG__ROW(2), r3 = TG__ROW(3);
#undef TG__ROW
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    _mm256_storeu_pd(d + 0 * ds, _mm256_permute2f128_pd(t0, t2, 0x20));
    if (kq > 1) _mm256_storeu_pd(d + 1 * ds, _mm256_permute2f128_pd(t1, t3, 0x20));
    if (kq > 2) _mm256_storeu_pd(d + 2 * ds, _mm256_permute2f128_pd(t0, t2, 0x31));
    if (kq > 3) _mm256_storeu_pd(d + 3 * ds, _mm256_permute2f128_pd(t1, t3, 0x31));
}

/* Six rows of doubles, as tg__pack6x4_s: rows 0-3 by the 4 x 4 transpose, rows 4-5 as pairs. */
__attribute__((target("avx2,fma"))) static inline void tg__pack6x4_d(const double *s, int64_t rs,
                                                                     double *d)
{
    __m256d r4 = _mm256_loadu_pd(s + 4 * rs), r5 = _mm256_loadu_pd(s + 5 * rs);
    __m256d u0 = _mm256_unpacklo_pd(r4, r5), u1 = _mm256_unpackhi_pd(r4, r5); /* p 0,2 | 1,3 */
    tg__packt4x4_d(s, rs, d, 6, 4);
    _mm_storeu_pd(d + 4, _mm256_castpd256_pd128(u0));
    _mm_storeu_pd(d + 10, _mm256_castpd256_pd128(u1));
    _mm_storeu_pd(d + 16, _mm256_extractf128_pd(u0, 1));
    _mm_storeu_pd(d + 22, _mm256_extractf128_pd(u1, 1));
}

#define TG__AVX512 "avx512f,avx2,fma"

/* The first rem floats or doubles of a register (rem below its lanes) into c as beta * c + v, c not
 * read when beta is zero: the last columns of an edge tile's row, stored in halves, quarters...
 * straight from the register (kernel_simd.inc, TG__STORE_PART). */
__attribute__((target("avx2,fma"))) static inline void tg__part128_s(float *c, __m128 v, int64_t rem,
                                                                      float beta)
{
    if (rem & 2) {
        __m128 old = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)c);
        _mm_storel_pi((__m64 *)c, beta == 0 ? v : _mm_fmadd_ps(_mm_set1_ps(beta), old, v));
        v = _mm_movehl_ps(v, v);
        c += 2;
    }
    if (rem & 1) _mm_store_ss(c, beta == 0 ? v : _mm_fmadd_ss(_mm_set1_ps(beta), _mm_load_ss(c), v));
}

__attribute__((target("avx2,fma"))) static inline void tg__part256_s(float *c, __m256 v, int64_t rem,
                                                                      float beta)
{
    __m128 lo = _mm256_castps256_ps128(v);
    if (rem & 4) {
        _mm_storeu_ps(c, beta == 0 ? lo : _mm_fmadd_ps(_mm_set1_ps(beta), _mm_loadu_ps(c), lo));
        lo = _mm256_extractf128_ps(v, 1);
        c += 4;
    }
    tg__part128_s(c, lo, rem & 3, beta);
}

__attribute__((target("avx2,fma"))) static inline void tg__part256_d(double *c, __m256d v,
                                                                      int64_t rem, double beta)
{
    __m128d lo = _mm256_castpd256_pd128(v);
    if (rem & 2) {
        _mm_storeu_pd(c, beta == 0 ? lo : _mm_fmadd_pd(_mm_set1_pd(beta), _mm_loadu_pd(c), lo));
        lo = _mm256_extractf128_pd(v, 1);
        c += 2;
    }
    if (rem & 1) _mm_store_sd(c, beta == 0 ? lo : _mm_fmadd_sd(_mm_set1_pd(beta), _mm_load_sd(c), lo));
}

/* The first `live` of w lanes, as an AVX-512 load mask (none for live <= 0, all from w on). */
static inline unsigned tg__lanes(int64_t live, int w)
{
    return live <= 0 ? 0u : live >= w ? (1u << w) - 1 : (1u << live) - 1;
}

/* The first rem floats or doubles of a zmm (1 <= rem <= its lanes) into c as beta * c + v, c not
 * read when beta is zero: one masked store (an edge tile's row, kernel_simd.inc). */
__attribute__((target(TG__AVX512))) static inline void tg__part512_s(float *c, __m512 v, int64_t rem,
                                                                       float beta)
{
    const __mmask16 k = (__mmask16)tg__lanes(rem, 16);
    if (beta != 0) v = _mm512_fmadd_ps(_mm512_set1_ps(beta), _mm512_maskz_loadu_ps(k, c), v);
    _mm512_mask_storeu_ps(c, k, v);
}

__attribute__((target(TG__AVX512))) static inline void tg__part512_d(double *c, __m512d v,
                                                                       int64_t rem, double beta)
{
    const __mmask8 k = (__mmask8)tg__lanes(rem, 8);
    if (beta != 0) v = _mm512_fmadd_pd(_mm512_set1_pd(beta), _mm512_maskz_loadu_pd(k, c), v);
    _mm512_mask_storeu_pd(c, k, v);
}

/* The column stores' index: l rs for lanes l = 0..7. */
__attribute__((target(TG__AVX512))) static inline __m512i tg__col512_idx(int64_t rs)
{
    return _mm512_set_epi64(7 * rs, 6 * rs, 5 * rs, 4 * rs, 3 * rs, 2 * rs, rs, 0);
}

/* The first `live` floats or doubles of a zmm (all of them from live >= its lanes on, none for
 * live <= 0) into a column of C, element l at c + l rs (idx: tg__col512_idx(rs)), as beta * c
 * + v, c not read when beta is zero: a scatter (and a gather for beta's term), eight lanes at a
 * time (a tile of Cᵀ, kernel_simd.inc's tg__ukernel_cols). */
__attribute__((target(TG__AVX512))) static inline void tg__col512_s(float *c, __m512i idx,
                                                                     int64_t rs, __m512 v,
                                                                     int64_t live, float beta)
{
    /* the halves by zero-masked extracts: the plain ones (and the 256-bit cast) leave GCC's
     * "undefined" upper part, which g++ -Wextra reports as maybe uninitialized */
    const __mmask16 k = (__mmask16)tg__lanes(live, 16);
    __m256 h[2] = {_mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, _mm512_castps_pd(v), 0)),
                   _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, _mm512_castps_pd(v), 1))};
    for (int i = 0; i < 2; i++, c += 8 * rs) {
        const __mmask8 ki = (__mmask8)(k >> (8 * i));
        if (!ki) break;
        if (beta != 0)
            h[i] = _mm256_fmadd_ps(_mm256_set1_ps(beta),
                                   _mm512_mask_i64gather_ps(_mm256_setzero_ps(), ki, idx, c, 4),
                                   h[i]);
        _mm512_mask_i64scatter_ps(c, ki, idx, h[i], 4);
    }
}

__attribute__((target(TG__AVX512))) static inline void tg__col512_d(double *c, __m512i idx,
                                                                     int64_t rs, __m512d v,
                                                                     int64_t live, double beta)
{
    const __mmask8 k = (__mmask8)tg__lanes(live, 8);
    (void)rs;
    if (!k) return;
    if (beta != 0)
        v = _mm512_fmadd_pd(_mm512_set1_pd(beta),
                            _mm512_mask_i64gather_pd(_mm512_setzero_pd(), k, idx, c, 8), v);
    _mm512_mask_i64scatter_pd(c, k, idx, v, 8);
}

/* An 8 x 8 block of doubles transposed in zmm (r[q]'s lane i into r[i]'s lane q), in three
 * rounds of eight shuffles (pairs, then 128-bit lanes twice): 24 for 64 elements where the 4 x 4
 * ymm transpose takes 32, with half its loads and stores. */
__attribute__((target(TG__AVX512))) static inline void tg__t8x8_d(__m512d r[8])
{
    /* the zero-masking forms, every lane kept: the plain ones pass GCC's undefined operand, which
     * g++ -Wextra reports as maybe uninitialized (as for tg__hsum512_s below) */
    const __mmask8 A = 0xff;
    /* t: rows i, i+1 paired, their even lanes (lo) and odd (hi), lane by lane */
    const __m512d t0 = _mm512_maskz_unpacklo_pd(A, r[0], r[1]);
    const __m512d t1 = _mm512_maskz_unpackhi_pd(A, r[0], r[1]);
    const __m512d t2 = _mm512_maskz_unpacklo_pd(A, r[2], r[3]);
    const __m512d t3 = _mm512_maskz_unpackhi_pd(A, r[2], r[3]);
    const __m512d t4 = _mm512_maskz_unpacklo_pd(A, r[4], r[5]);
    const __m512d t5 = _mm512_maskz_unpackhi_pd(A, r[4], r[5]);
    const __m512d t6 = _mm512_maskz_unpacklo_pd(A, r[6], r[7]);
    const __m512d t7 = _mm512_maskz_unpackhi_pd(A, r[6], r[7]);
    /* u: four rows, lanes q and q + 4 (u0 0, u1 2, u2 1, u3 3; u4-u7 the same of rows 4-7) */
    const __m512d u0 = _mm512_maskz_shuffle_f64x2(A, t0, t2, 0x88);
    const __m512d u1 = _mm512_maskz_shuffle_f64x2(A, t0, t2, 0xDD);
    const __m512d u2 = _mm512_maskz_shuffle_f64x2(A, t1, t3, 0x88);
    const __m512d u3 = _mm512_maskz_shuffle_f64x2(A, t1, t3, 0xDD);
    const __m512d u4 = _mm512_maskz_shuffle_f64x2(A, t4, t6, 0x88);
    const __m512d u5 = _mm512_maskz_shuffle_f64x2(A, t4, t6, 0xDD);
    const __m512d u6 = _mm512_maskz_shuffle_f64x2(A, t5, t7, 0x88);
    const __m512d u7 = _mm512_maskz_shuffle_f64x2(A, t5, t7, 0xDD);
    r[0] = _mm512_maskz_shuffle_f64x2(A, u0, u4, 0x88);
    r[4] = _mm512_maskz_shuffle_f64x2(A, u0, u4, 0xDD);
    r[2] = _mm512_maskz_shuffle_f64x2(A, u1, u5, 0x88);
    r[6] = _mm512_maskz_shuffle_f64x2(A, u1, u5, 0xDD);
    r[1] = _mm512_maskz_shuffle_f64x2(A, u2, u6, 0x88);
    r[5] = _mm512_maskz_shuffle_f64x2(A, u2, u6, 0xDD);
    r[3] = _mm512_maskz_shuffle_f64x2(A, u3, u7, 0x88);
    r[7] = _mm512_maskz_shuffle_f64x2(A, u3, u7, 0xDD);
}

/* Eight rows of 16 floats turned into 16 rows of eight (r[i]'s lane q into r[q]'s lane i; an
 * output's lanes past eight unspecified), for AVX-512's float family (kernel_simd.inc's
 * tg__tile8): the 8 x 8 transpose of their lanes taken as pairs (tg__t8x8_d), each pair's two
 * floats then parted into two rows, 40 shuffles for 128 floats. */
__attribute__((target(TG__AVX512))) static inline void tg__t8x16_s(__m512 r[16])
{
    /* (the zero-masking forms, every lane kept, as in tg__t8x8_d) */
    const __mmask16 A = 0xffff;
    const __m512i part = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m512d p[8] = {_mm512_castps_pd(r[0]), _mm512_castps_pd(r[1]), _mm512_castps_pd(r[2]),
                    _mm512_castps_pd(r[3]), _mm512_castps_pd(r[4]), _mm512_castps_pd(r[5]),
                    _mm512_castps_pd(r[6]), _mm512_castps_pd(r[7])};
    tg__t8x8_d(p);
    /* p[q]: floats 2q and 2q + 1 of each input row i at lanes 2i and 2i + 1 */
#define TG__T8X16_PART(q)                                                                          \
    r[2 * (q)] = _mm512_maskz_permutexvar_ps(A, part, _mm512_castpd_ps(p[q]));                    \
    r[2 * (q) + 1] = _mm512_maskz_shuffle_f32x4(A, r[2 * (q)], r[2 * (q)], 0xEE);
    TG__T8X16_PART(0) TG__T8X16_PART(1) TG__T8X16_PART(2) TG__T8X16_PART(3)
    TG__T8X16_PART(4) TG__T8X16_PART(5) TG__T8X16_PART(6) TG__T8X16_PART(7)
#undef TG__T8X16_PART
}

/* Eight columns by eight k steps of doubles, for AVX-512's double family (kernel_simd.inc's
 * tg__pack_along_k): rows of eight along k in, rows of eight columns out, through tg__t8x8_d. */
__attribute__((target(TG__AVX512))) static inline void tg__packt8x8_d(const double *s, int64_t cs,
                                                                      double *d, int64_t ds)
{
    __m512d r[8] = {_mm512_loadu_pd(s),          _mm512_loadu_pd(s + cs),
                    _mm512_loadu_pd(s + 2 * cs), _mm512_loadu_pd(s + 3 * cs),
                    _mm512_loadu_pd(s + 4 * cs), _mm512_loadu_pd(s + 5 * cs),
                    _mm512_loadu_pd(s + 6 * cs), _mm512_loadu_pd(s + 7 * cs)};
    tg__t8x8_d(r);
    _mm512_storeu_pd(d, r[0]);
    _mm512_storeu_pd(d + ds, r[1]);
    _mm512_storeu_pd(d + 2 * ds, r[2]);
    _mm512_storeu_pd(d + 3 * ds, r[3]);
    _mm512_storeu_pd(d + 4 * ds, r[4]);
    _mm512_storeu_pd(d + 5 * ds, r[5]);
    _mm512_storeu_pd(d + 6 * ds, r[6]);
    _mm512_storeu_pd(d + 7 * ds, r[7]);
}

/* A register's lanes summed, halves first (the GEMV kernels' dot products, gemv_simd.inc). */
__attribute__((target("avx2,fma"))) static inline float tg__hsum256_s(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}

__attribute__((target("avx2,fma"))) static inline double tg__hsum256_d(__m256d v)
{
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

/* Eight registers' lanes summed together (gemv_simd.inc's tg__dots): sum[e] the sum of v[e]'s
 * lanes, in the same order for every e, (l0 + l1) + (l2 + l3) and so on up the tree, the
 * horizontal adds pairing neighbours and the last step the 128-bit halves. */
__attribute__((target("avx2,fma"))) static inline void tg__hsums256_s(const __m256 *v, float *sum)
{
    const __m256 u0 = _mm256_hadd_ps(_mm256_hadd_ps(v[0], v[1]), _mm256_hadd_ps(v[2], v[3]));
    const __m256 u1 = _mm256_hadd_ps(_mm256_hadd_ps(v[4], v[5]), _mm256_hadd_ps(v[6], v[7]));
    _mm256_storeu_ps(sum, _mm256_add_ps(_mm256_permute2f128_ps(u0, u1, 0x20),
                                        _mm256_permute2f128_ps(u0, u1, 0x31)));
}

__attribute__((target("avx2,fma"))) static inline void tg__hsums256_d(const __m256d *v,
                                                                      double *sum)
{
    for (int h = 0; h < 8; h += 4) {
        const __m256d t0 = _mm256_hadd_pd(v[h], v[h + 1]), t1 = _mm256_hadd_pd(v[h + 2], v[h + 3]);
        _mm256_storeu_pd(sum + h, _mm256_add_pd(_mm256_permute2f128_pd(t0, t1, 0x20),
                                                _mm256_permute2f128_pd(t0, t1, 0x31)));
    }
}

/* The same for a zmm, its 256-bit halves added first. Through the zero-masking forms of the
 * shuffle and the extract: GCC's unmasked ones (and its _mm512_reduce_add and 512-to-256 casts,
 * built on them) pass an undefined operand that g++ warns of as uninitialized. */
__attribute__((target(TG__AVX512))) static inline __m256d tg__low256(__m512d v)
{
    return _mm512_maskz_extractf64x4_pd((__mmask8)0xF, v, 0);
}

__attribute__((target(TG__AVX512))) static inline float tg__hsum512_s(__m512 v)
{
    v = _mm512_add_ps(v, _mm512_maskz_shuffle_f32x4((__mmask16)0xFFFF, v, v, 0x4E));
    return tg__hsum256_s(_mm256_castpd_ps(tg__low256(_mm512_castps_pd(v))));
}

__attribute__((target(TG__AVX512))) static inline double tg__hsum512_d(__m512d v)
{
    v = _mm512_add_pd(v, _mm512_maskz_shuffle_f64x2((__mmask8)0xFF, v, v, 0x4E));
    return tg__hsum256_d(tg__low256(v));
}

#define TG__T float
#define TG__FN(x) x##_avx2_s
#include "tile.inc"
#define TG__TARGET "avx2,fma"
#define TG__NAME "avx2"
#define TG__V __m256
#define TG__W 8
#define TG__LOADU _mm256_loadu_ps
#define TG__STOREU _mm256_storeu_ps
#define TG__BCAST _mm256_broadcast_ss
#define TG__FMA _mm256_fmadd_ps
#define TG__MUL _mm256_mul_ps
#define TG__ADD _mm256_add_ps
#define TG__SET1 _mm256_set1_ps
#define TG__ZERO _mm256_setzero_ps
#define TG__PACK6X4 tg__pack6x4_s
#define TG__COPY6 tg__copy6_s
#define TG__COPY8 tg__copy8_s
#define TG__PACKT tg__packt8x8_s
#define TG__TB 8
/* Lanes below `live` set (as a load mask), and the masked load, which never touches unset lanes. */
#define TG__MASK __m256i
#define TG__LANES(live) \
    _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(live)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#define TG__MASKLOAD _mm256_maskload_ps
#define TG__STORE_PART tg__part256_s
#define TG__NARROW NULL
#define TG__MASKED 0
#define TG__SHORT_M 12
#define TG__TALL 12
#define TG__PREFETCH_SHORT 1
#define TG__PAIR 0
#define TG__B_SHARE 16
#define TG__GEMV_RULE 0
#define TG__GEMV_REGS 4
#define TG__HSUM tg__hsum256_s
#define TG__HSUMS tg__hsums256_s
#include "kernel_simd.inc"
#undef TG__T
#undef TG__FN

#define TG__T double
#define TG__FN(x) x##_avx2_d
#include "tile.inc"
#define TG__TARGET "avx2,fma"
#define TG__NAME "avx2"
#define TG__V __m256d
#define TG__W 4
#define TG__LOADU _mm256_loadu_pd
#define TG__STOREU _mm256_storeu_pd
#define TG__BCAST _mm256_broadcast_sd
#define TG__FMA _mm256_fmadd_pd
#define TG__MUL _mm256_mul_pd
#define TG__ADD _mm256_add_pd
#define TG__SET1 _mm256_set1_pd
#define TG__ZERO _mm256_setzero_pd
#define TG__PACK6X4 tg__pack6x4_d
#define TG__COPY6 tg__copy6_d
#define TG__COPY8 tg__copy8_d
#define TG__PACKT tg__packt4x4_d
#define TG__TB 4
#define TG__MASK __m256i
#define TG__LANES(live) \
    _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(live)), _mm256_setr_epi64x(0, 1, 2, 3))
#define TG__MASKLOAD _mm256_maskload_pd
#define TG__STORE_PART tg__part256_d
#define TG__NARROW NULL
#define TG__MASKED 0
#define TG__SHORT_M 12
#define TG__TALL 12
#define TG__PREFETCH_SHORT 1
#define TG__PAIR 0
#define TG__B_SHARE 8
#define TG__GEMV_RULE 0
#define TG__GEMV_REGS 4
#define TG__HSUM tg__hsum256_d
#define TG__HSUMS tg__hsums256_d
#include "kernel_simd.inc"
#undef TG__T
#undef TG__FN

/* A run of `bytes` (8, 16 or 32) at p repeated across a zmm, by one broadcast load; the same of a
 * register's first `bytes` (a run read through a mask), by one shuffle or permute (gemv_simd.inc's
 * split dots, a row of A meeting KQ steps of several columns of B). */
__attribute__((target(TG__AVX512))) static inline __m512 tg__run512(const void *p, int bytes)
{
    double d;
    if (bytes == 16)
        return _mm512_maskz_broadcast_f32x4((__mmask16)0xFFFF, _mm_loadu_ps((const float *)p));
    if (bytes == 32)
        return _mm512_castpd_ps(
            _mm512_maskz_broadcast_f64x4((__mmask8)0xFF, _mm256_loadu_pd((const double *)p)));
    memcpy(&d, p, sizeof d); /* (two floats: their bytes, whatever the type) */
    return _mm512_castpd_ps(_mm512_set1_pd(d));
}

__attribute__((target(TG__AVX512))) static inline __m512 tg__run512_reg(__m512 v, int bytes)
{
    /* (an immediate each: clang takes no other) */
    if (bytes == 16) return _mm512_maskz_shuffle_f32x4((__mmask16)0xFFFF, v, v, 0x00);
    if (bytes == 32) return _mm512_maskz_shuffle_f32x4((__mmask16)0xFFFF, v, v, 0x44);
    return _mm512_maskz_permutexvar_ps(
        (__mmask16)0xFFFF, _mm512_set_epi32(1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0), v);
}

#define TG__T float
#define TG__FN(x) x##_avx512_s
#include "tile.inc"
#define TG__TARGET TG__AVX512
#define TG__NAME "avx512"
#define TG__V __m512
#define TG__W 16
#define TG__LOADU _mm512_loadu_ps
#define TG__STOREU _mm512_storeu_ps
#define TG__BCAST(p) _mm512_set1_ps(*(p))
#define TG__FMA _mm512_fmadd_ps
#define TG__MUL _mm512_mul_ps
#define TG__ADD _mm512_add_ps
#define TG__SET1 _mm512_set1_ps
#define TG__ZERO _mm512_setzero_ps
#define TG__PACK6X4 tg__pack6x4_s
#define TG__COPY6 tg__copy6_s
#define TG__COPY8 tg__copy8_s
#define TG__PACKT tg__packt8x8_s
#define TG__TB 8
#define TG__T8X8 tg__t8x16_s
#define TG__MASK __mmask16
#define TG__LANES(live) ((__mmask16)tg__lanes(live, 16))
#define TG__MASKLOAD(p, k) _mm512_maskz_loadu_ps(k, p)
#define TG__MASKSTORE(p, k, v) _mm512_mask_storeu_ps(p, k, v)
#define TG__STORE_PART tg__part512_s
#define TG__COL_STORE tg__col512_s
#define TG__NARROW (&tg__kernel_desc_avx2_s)
#define TG__MASKED 1
#define TG__SHORT_M 24
#define TG__TALL 16
#define TG__PREFETCH_SHORT 0
#define TG__PAIR 1
#define TG__B_SHARE 4
#define TG__GEMV_RULE 1
#define TG__GEMV_REGS 8
#define TG__HSUM tg__hsum512_s
#define TG__RUN(p, bytes) tg__run512(p, bytes)
#define TG__GATHER(m, off, p)                                                                      \
    _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, _mm512_loadu_si512(off), p, 4)
#define TG__RUN_REG(v, bytes) tg__run512_reg(v, bytes)
#define TG__PERMUTE2(a, idx, b) _mm512_permutex2var_ps(a, idx, b)
#define TG__SCATTER(p, m, off, v) _mm512_mask_i32scatter_ps(p, m, _mm512_loadu_si512(off), v, 4)
#include "kernel_simd.inc"
#undef TG__T
#undef TG__FN

#define TG__T double
#define TG__FN(x) x##_avx512_d
#include "tile.inc"
#define TG__TARGET TG__AVX512
#define TG__NAME "avx512"
#define TG__V __m512d
#define TG__W 8
#define TG__LOADU _mm512_loadu_pd
#define TG__STOREU _mm512_storeu_pd
#define TG__BCAST(p) _mm512_set1_pd(*(p))
#define TG__FMA _mm512_fmadd_pd
#define TG__MUL _mm512_mul_pd
#define TG__ADD _mm512_add_pd
#define TG__SET1 _mm512_set1_pd
#define TG__ZERO _mm512_setzero_pd
#define TG__PACK6X4 tg__pack6x4_d
#define TG__COPY6 tg__copy6_d
#define TG__COPY8 tg__copy8_d
#define TG__PACKT tg__packt4x4_d
#define TG__TB 4
#define TG__PACKT8 tg__packt8x8_d
#define TG__T8X8 tg__t8x8_d
#define TG__MASK __mmask8
#define TG__LANES(live) ((__mmask8)tg__lanes(live, 8))
#define TG__MASKLOAD(p, k) _mm512_maskz_loadu_pd(k, p)
#define TG__MASKSTORE(p, k, v) _mm512_mask_storeu_pd(p, k, v)
#define TG__STORE_PART tg__part512_d
#define TG__COL_STORE tg__col512_d
#define TG__NARROW (&tg__kernel_desc_avx2_d)
#define TG__MASKED 1
#define TG__SHORT_M 24
#define TG__TALL 16
#define TG__PREFETCH_SHORT 0
#define TG__PAIR 1
#define TG__B_SHARE 4
#define TG__GEMV_RULE 1
#define TG__GEMV_REGS 8
#define TG__HSUM tg__hsum512_d
#define TG__RUN(p, bytes) _mm512_castps_pd(tg__run512(p, bytes))
#define TG__GATHER(m, off, p)                                                                      \
    _mm512_mask_i32gather_pd(_mm512_setzero_pd(), m, _mm256_loadu_si256((const __m256i *)(off)),  \
                             p, 8)
#define TG__RUN_REG(v, bytes) _mm512_castps_pd(tg__run512_reg(_mm512_castpd_ps(v), bytes))
#define TG__PERMUTE2(a, idx, b)                                                                    \
    _mm512_castps_pd(_mm512_permutex2var_ps(_mm512_castpd_ps(a), idx, _mm512_castpd_ps(b)))
#define TG__SCATTER(p, m, off, v)                                                                  \
    _mm512_mask_i32scatter_pd(p, m, _mm256_loadu_si256((const __m256i *)(off)), v, 8)
#include "kernel_simd.inc"
#undef TG__T
#undef TG__FN
#undef TG__AVX512

TG__PRIVATE const tg__kernel *tg__kernel_avx2(size_t es)
{
    return es == sizeof(float) ? &tg__kernel_desc_avx2_s : &tg__kernel_desc_avx2_d;
}

TG__PRIVATE const tg__kernel *tg__kernel_avx512(size_t es)
{
    return es == sizeof(float) ? &tg__kernel_desc_avx512_s : &tg__kernel_desc_avx512_d;
}
#endif /* TG__X86 */
