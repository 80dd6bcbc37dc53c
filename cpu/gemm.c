/* tg_sgemm and tg_dgemm: the path of one call.
 *
 * 1. Check every argument (common/gemm_args.c); nothing is touched on error.
 * 2. The BLAS quick returns: m or n zero does nothing; alpha or k zero only scales C by beta
 *    (reading neither A nor B, and not reading C either when beta is zero; beta one returns at once).
 * 3. Everything else runs on C with unit column stride (a column-major C is computed as its transpose,
 *    Cᵀ = op(B)ᵀ·op(A)ᵀ, by swapping operands and strides, no copies), with the kernel family for
 *    this CPU, on the small-matrix path or the blocked one. The choice depends on the shape alone
 *    (never the thread count) so results are bitwise the same for any number of threads.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* Where the small-matrix path stops winning, in multiply-adds (m·n·k), measured on a Zen 3 core
 * against the blocked path (row-major, no transpose; square 8..160 and the skinny shapes of the
 * benchmark table, 1 and 2 threads). fp32: small wins through 256^3, most at skinny shapes
 * (32x32x4096 at 2 threads: 135 against 61 GFLOP/s; 16x768x768: 101 against 76). fp64 the same for a
 * short A (m <= 64: 64x256x256 64 against 51), but from 128^3 square on it loses (34 against 39 at one
 * thread): with 8-wide panels each tile re-reads A from L2 too often for packing not to pay.
 * A short A (at most two row tiles) over a B whose rows can be read in place takes the small path
 * at any size: each element of B serves at most two tiles, so packing B costs a copy of all of it for
 * little reuse (fp32, 1 / 2 threads, in place against packed: 8x512x8192 29 / 57 against 23 / 51,
 * 8x4096x4096 29 / 52 against 30 / 42). Except in fp64 over a B larger than half the L3 whose rows
 * are longer than a page: read in place, every k step of a panel is a line in another page, which
 * no prefetcher follows, and an 8-wide fp64 panel does half the FLOPs per line of a 16-wide fp32
 * one, so the misses show; the blocked path's packing reads B along its rows instead (1 / 2
 * threads, packed against in place: 8x4096x4096 12.8 / 18.0 against 8.9 / 16.9, 8x8192x512 15.1 /
 * 18.8 against 7.6 / 13.7; below the bound, 12x1024x1024 26.5 / 42.1 against 31.4 / 46.5). From
 * three tiles on, the blocked path's packing pays (16x4096x4096 dgemm 20 against 17 in place). A
 * transposed B must be packed either way, and there the blocked path's packing is the faster
 * (8x4096x4096 with B transposed: sgemm 22 against 19.5, dgemm 12.5 against 8.3). */
enum { TG__SMALL_MNK = 256 * 256 * 256, TG__SMALL_M_D = 64, TG__PAGE = 4096 };

/* C = beta * C over m x n: the alpha-or-k-zero quick return. Beta zero writes zeros without reading
 * C; beta one never gets here (the caller returns at once, as the reference BLAS does). */
#define TG__SCALE(T, g, beta_)                                                                     \
    for (int64_t i = 0; i < (g)->m; i++)                                                           \
        for (int64_t j = 0; j < (g)->n; j++) {                                                     \
            T *cij = (T *)(g)->c + i * (g)->rs_c + j * (g)->cs_c, bv = *(const T *)(beta_);        \
            *cij = bv == 0 ? (T)0 : bv * *cij;                                                     \
        }

/* Small products and short A take the small-matrix path (small.c), by the measured bounds above.
 * TGEMM_PATH=small|blocked forces a path, so the tests can run both on one shape. */
static int tg__use_small_path(const tg__gemm *g, const tg__kernel *kern)
{
    static int forced = -1;
    int f = TG__LOAD_ACQUIRE(&forced);
    if (f < 0) {
        const char *env = getenv("TGEMM_PATH");
        f = !env ? 0 : strcmp(env, "small") == 0 ? 1 : strcmp(env, "blocked") == 0 ? 2 : 0;
        TG__STORE_RELEASE(&forced, f);
    }
    if (f) return f == 1;
    if (g->m <= 2 * kern->mr && g->b.cs == 1) {
        const double row = (double)g->n * (double)kern->es;
        return kern->es == sizeof(float) || row <= TG__PAGE ||
               row * (double)g->k <= (double)tg__cpu()->l3 / 2;
    }
    return (double)g->m * (double)g->n * (double)g->k <= TG__SMALL_MNK &&
           (kern->es == sizeof(float) || g->m <= TG__SMALL_M_D);
}

/* Steps 2 and 3 for checked views; alpha and beta point at the call's float or double. */
static int tg__gemm_cpu(const char *fn, size_t es, const tg__gemm *g, const void *alpha,
                        const void *beta, int alpha_zero, int beta_one)
{
    tg__arch arch = tg__arch_selected();
    const tg__kernel *kern;
    tg__gemm t = *g;
    if (g->m == 0 || g->n == 0 || ((alpha_zero || g->k == 0) && beta_one)) return TG_OK;
    if (alpha_zero || g->k == 0) {
        if (es == sizeof(float)) TG__SCALE(float, g, beta)
        else TG__SCALE(double, g, beta)
        return TG_OK;
    }
    if (arch == TG__ARCH_INVALID)
        return tg__fail(TG_ERR_UNSUPPORTED, fn, "TGEMM_ARCH names a kernel family this CPU lacks");
    kern = arch == TG__ARCH_AVX512 ? tg__kernel_avx512(es)
           : arch == TG__ARCH_AVX2 ? tg__kernel_avx2(es)
                                   : tg__kernel_generic(es);
    if (t.cs_c != 1) {
        t.m = g->n;
        t.n = g->m;
        t.a.p = g->b.p;
        t.a.rs = g->b.cs;
        t.a.cs = g->b.rs;
        t.b.p = g->a.p;
        t.b.rs = g->a.cs;
        t.b.cs = g->a.rs;
        t.rs_c = g->cs_c;
        t.cs_c = 1;
    }
    return tg__use_small_path(&t, kern) ? tg__gemm_small(fn, kern, &t, alpha, beta)
                                  : tg__gemm_blocked(fn, kern, &t, alpha, beta);
}

TGEMM_DEF int tg_sgemm(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m, int64_t n,
                       int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                       int64_t ldb, float beta, float *c, int64_t ldc)
{
    int st = tg__gemm_check("tg_sgemm", layout, transa, transb, m, n, k, alpha == 0, a, lda, b, ldb,
                            c, ldc, sizeof(float));
    tg__gemm g;
    if (st) return st;
    g = tg__gemm_views(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
    return tg__gemm_cpu("tg_sgemm", sizeof(float), &g, &alpha, &beta, alpha == 0, beta == 1);
}

TGEMM_DEF int tg_dgemm(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const double *a, int64_t lda, const double *b,
                       int64_t ldb, double beta, double *c, int64_t ldc)
{
    int st = tg__gemm_check("tg_dgemm", layout, transa, transb, m, n, k, alpha == 0, a, lda, b, ldb,
                            c, ldc, sizeof(double));
    tg__gemm g;
    if (st) return st;
    g = tg__gemm_views(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
    return tg__gemm_cpu("tg_dgemm", sizeof(double), &g, &alpha, &beta, alpha == 0, beta == 1);
}
