/* tg_sgemm and tg_dgemm: the path of one call.
 *
 * 0. A tiny product whose every argument is plainly valid goes straight to the kernel that steps
 *    1-3 would reach for it (tg__gemm_tiny), without their checks, views and path tests.
 * 1. Check every argument (common/gemm_args.h); nothing is touched on error.
 * 2. The BLAS quick returns: m or n zero does nothing; alpha or k zero only scales C by beta
 *    (reading neither A nor B, and not reading C either when beta is zero; beta one returns at once).
 * 3. Everything else runs on C with unit column stride (a column-major C is computed as its transpose,
 *    Cᵀ = op(B)ᵀ·op(A)ᵀ, by swapping operands and strides, no copies), with the kernel family for
 *    this CPU: as a matrix-vector product where C is one row or one column, or a few over a large
 *    enough operand (gemv.c), else on the small-matrix path or the blocked one. The choice depends
 *    on the shape alone (never the thread count) so results are bitwise the same for any number of
 *    threads.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* Where the small-matrix path stops winning, in multiply-adds (m·n·k), measured on a Zen 3 core
 * against the blocked path (row-major, no transpose; square 8..160 and the skinny shapes of the
 * benchmark table, 1 and 2 threads). fp32: small wins through 256^3, most at skinny shapes
 * (32x32x4096 at 2 threads: 135 against 61 GFLOP/s; 16x768x768: 101 against 76). fp64 the same for a
 * short A (m <= 64: 64x256x256 64 against 51), but from 128^3 square on it loses (34 against 39 at one
 * thread): with 8-wide panels each tile re-reads A from L2 too often for packing not to pay. AVX-512's
 * 16-wide fp64 panels serve twice the FMAs per element of A read, and there the small path wins as
 * far as fp32's (Zen 4, 1 thread, side by side against the blocked path: d 80^3 1.13, 96^3 1.10,
 * 128^3 1.10, 160^3 1.05, 96x32x96 1.24, 128x64x128 1.11; 256^3 even).
 * A short A (at most the kernel's short_m rows: two tiles for AVX2, four for AVX-512) over a B whose
 * rows are contiguous takes the small path at any size: each element of B serves so few tiles that
 * the blocked path's packing of a whole block for reuse cannot pay; the small path reads B in place
 * or, under two tiles and when B is large, packs it a page of each row at a time (small.c), which
 * is what streams it fastest (and over three or four tiles of full-width AVX-512, a mid-sized B
 * panel by panel: small.c's tg__small_pack_all). (AVX-512 at three and four tiles, Zen 4, against
 * the blocked path, side by side: s 16x4096x4096 1.29 at 1 thread, 1.48-1.54 at 2; d 1.16 /
 * 1.32-1.43; s 24x2048x2048 1.12 / 1.13, d 1.14-1.16 / 1.21; s 20x4096x1024 1.04-1.07.) A
 * transposed B must be packed either way, and there the blocked path's packing is the faster
 * (8x4096x4096 with B transposed: sgemm 22 against 19.5, dgemm 12.5 against 8.3).
 * A narrow B (n at most one panel, nr columns) takes the small path at any size too, the same
 * argument the other way round: each element of A then serves one tile, and packing A for reuse
 * is pure cost; the small path reads A in place and splits its threads over row tiles (small.c).
 * Zen 5, 1 thread, the path forced each way, tgemm over libxsmm in the same process: s 2048x32x512
 * 0.76 -> 0.95, 8192x32x512 0.64 -> 0.76, 4096x16x4096 1.46 -> 1.91, 100000x8x64 0.46 -> 0.68, A
 * transposed 8192x32x512 0.51 -> 0.80, AVX2 s 8192x16x512 0.56 -> 0.79, d 8192x8x512 1.05 -> 1.29,
 * d 32768x16x256 0.71 -> 0.73; s 32768x32x256 0.71 -> 0.65 and d 8192x16x512 0.61 -> 0.58 the
 * exceptions. With the row split, against the library before (ab-gemm, 3 lines): 1 thread s
 * 2048x32x512 1.27x, 8192x32x512 1.30x, 4096x16x4096 1.30x, 8192x16x512 1.56x, d 4096x16x4096
 * 1.14x, d 8192x16x512 1.10x, other narrow shapes 0.98-1.03x; 2 threads s 0.98-1.79x (1030x10x530
 * the most), d 1.00-1.25x.
 * A tall A over a few panels of B (up to sixteen) takes the small path too, in its rows mode,
 * where the shape fits it (cpu.h's tg__small_rows_fits has the rule and its measurements). */
/* Past half of L2, a C that is also shallow (k under TG__SHALLOW_K) goes to the blocked path
 * whatever its product: the small path writes C one tall panel at a time, each tile's rows a row of
 * C apart, and with little arithmetic per element of C that writing binds. The blocked path goes
 * through it in blocks of a few dozen rows (blocking.c). Emerald Rapids (2 MiB L2), 1 thread,
 * ab-gemm against MKL, small path -> blocked: s 4096x4096x1 0.27 -> 0.99, 1000x1000x1 0.60 -> 1.07,
 * 2000x2000x4 0.51 -> 0.93, 724x724x4 0.62 -> 0.95, 1000x1000x16 0.59 -> 0.93, 800x800x26 0.67 ->
 * 0.79, 600x600x46 0.77 -> 0.82; d 512x512x4 0.48 -> 0.75, 512x512x16 0.54 -> 0.75, 2048x300x24
 * 0.68 -> 0.81, 600x600x46 0.71 -> 0.78. A C within half of L2 keeps the small path (s 512x512x16
 * 0.73 against 0.62 blocked, d 256x256x16 0.78 against 0.60), and so does a deeper product (d
 * 450x450x80 0.97 against 0.87, 400x400x100 0.90 against 0.83, s 400x400x100 0.90 against 0.84). */
enum { TG__SMALL_M_D = 64, TG__SMALL_NR_D = 16, TG__SHALLOW_K = 64 }; /* (TG__SMALL_MNK: cpu.h) */

/* C = beta * C over m x n: the alpha-or-k-zero quick return. Beta zero writes zeros without reading
 * C; beta one never gets here (the caller returns at once, as the reference BLAS does). */
#define TG__SCALE(T, g, beta_)                                                                     \
    for (int64_t i = 0; i < (g)->m; i++)                                                           \
        for (int64_t j = 0; j < (g)->n; j++) {                                                     \
            T *cij = (T *)(g)->c + i * (g)->rs_c + j * (g)->cs_c, bv = *(const T *)(beta_);        \
            *cij = bv == 0 ? (T)0 : bv * *cij;                                                     \
        }

/* TGEMM_PATH, read once: 0 (the shape decides), or the forced path. `paged` is the small path with
 * every panel of B packed a page group at a time (small.c), so the tests can run that packing on
 * any shape. A forced path takes one row or column of C too, which the tests run on it. */
enum { TG__PATH_AUTO, TG__PATH_SMALL, TG__PATH_BLOCKED, TG__PATH_PAGED };
static int tg__path_forced_cache = -1;
TG__NOINLINE static int tg__path_forced_read(void)
{
    const char *env = getenv("TGEMM_PATH");
    int f = !env                          ? TG__PATH_AUTO
            : strcmp(env, "small") == 0   ? TG__PATH_SMALL
            : strcmp(env, "blocked") == 0 ? TG__PATH_BLOCKED
            : strcmp(env, "paged") == 0   ? TG__PATH_PAGED
                                          : TG__PATH_AUTO;
    TG__STORE_RELEASE(&tg__path_forced_cache, f);
    return f;
}
/* The cached value inline, the first reading out of line: as calls, this and the path choice below
 * cost an 8^3 sgemm or dgemm 1.5% (Zen 4, side by side). */
TG__ALWAYS_INLINE int tg__path_forced(void)
{
    int f = TG__LOAD_ACQUIRE(&tg__path_forced_cache);
    return f < 0 ? tg__path_forced_read() : f;
}

/* Small products and short A take the small-matrix path (small.c), by the measured bounds above. */
TG__ALWAYS_INLINE int tg__use_small_path(const tg__gemm *g, const tg__kernel *kern, int forced)
{
    if (forced) return forced != TG__PATH_BLOCKED;
    if ((g->m <= kern->short_m && g->b.cs == 1) || g->n <= kern->nr) return 1;
    return ((double)g->m * (double)g->n * (double)g->k <= TG__SMALL_MNK &&
            (kern->es == sizeof(float) || kern->nr >= TG__SMALL_NR_D || g->m <= TG__SMALL_M_D) &&
            (g->k >= TG__SHALLOW_K ||
             (double)g->m * (double)g->n * (double)kern->es <= (double)tg__cpu()->l2 / 2)) ||
           tg__small_rows_fits(kern, g);
}

/* Steps 2 and 3 for checked views; alpha and beta point at the call's float or double. Inlined
 * into both entry points, as the checks are: 227 -> 218 cycles of an 8^3 sgemm call (Zen 4). */
TG__ALWAYS_INLINE int tg__gemm_cpu(const char *fn, size_t es, const tg__gemm *g,
                                   const void *alpha, const void *beta, int alpha_zero, int beta_one)
{
    tg__arch arch = tg__arch_selected();
    const tg__kernel *kern;
    tg__gemm t = *g;
    int forced;
    if (g->m == 0 || g->n == 0 || ((alpha_zero || g->k == 0) && beta_one)) return TG_OK;
    if (alpha_zero || g->k == 0) {
        if (es == sizeof(float)) TG__SCALE(float, g, beta)
        else TG__SCALE(double, g, beta)
        return TG_OK;
    }
    if (arch == TG__ARCH_INVALID)
        return tg__fail(TG_ERR_UNSUPPORTED, fn, "TGEMM_ARCH names a kernel family this CPU lacks");
    kern = tg__kernel_family(arch, es);
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
    forced = tg__path_forced();
    if (!forced && (t.m <= TG__GEMV_ROWS || t.n <= TG__GEMV_ROWS)) {
        const int st = tg__gemm_gemv(fn, kern, &t, alpha, beta);
        if (st >= 0) return st;
    }
    return tg__use_small_path(&t, kern, forced)
               ? tg__gemm_small(fn, kern, &t, alpha, beta, forced == TG__PATH_PAGED)
               : tg__gemm_blocked(fn, tg__blocked_kernel(kern), &t, alpha, beta);
}

/* The tiny products' route (step 0 above): m, n and k each at most cpu.h's TG__TINY_SIDE (64),
 * their product at most TG__TINY^3 (40^3), every dimension and leading dimension plainly valid and
 * every pointer set, alpha not zero, no path forced. Such a call passes every check of step 1 and
 * takes no quick return; in either layout it is the product of step 3 whose A and B are views of
 * the call's operands (row-major as it is; column-major as Cᵀ = op(B)ᵀ·op(A)ᵀ, B's columns as the
 * rows of A and A's as the rows of B), and step 3 would give it to the small path on one thread, in
 * one k block (cpu.h says why), or, where C is one row or column, to gemv.c's matrix-vector product
 * (a few rows, two to TG__GEMV_ROWS, gemv.c takes only over a larger operand: tg__gemv_rows_max
 * gives one row over an M within L2 and rows under 512 bytes). The route makes the small path's
 * kernel calls (or gemv.c's: tg__gemv_tiny) from the call's own arguments: the general way there,
 * through the checks, the views, the path tests and small.c's set-up, ran ~400 instructions of a
 * 12^3 sgemm's ~860 (gdb, stepping one call), a quarter of its time. B's rows contiguous, one panel
 * goes to the kernel as small.c's tg__small_direct sends it (tg__tiny_in_place), any other B panel
 * by panel as small.c's tg__small_panels goes, a transposed one packed as small.c's tg__small_panel
 * packs it (tg__tiny_panels; the transposed forms out of line, tg__gemm_tiny_t). The plain form on
 * the Xeon of results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, C 16 bytes off a line, against the
 * general way (a copy of its build: 0.97-1.05): s 8^3 1.32, 10^3 1.20, 12^3 1.12, 14^3 1.14, 16^3
 * 1.11, 20^3-32^3 1.02-1.04, d 5^3-8^3 1.31-1.33, 10^3 1.15, 12^3 1.10, 14^3 1.08, 16^3 1.07,
 * 20^3-32^3 0.995-1.005; column-major s 12^3 1.17, 16^3 1.16, d 1.11, 1.09; the pairs (then,
 * against the route of one panel alone: 0.97-1.07 on its products) d 32^3 1.04-1.07, 24x32x32 1.06,
 * 16x32x16 1.08, 8x32x8 1.31-1.34; a product it turns away pays for its tests (s 5^3 and 6^3 0.90,
 * when AVX2 still packed their panels: cpu.h's tg__use_narrow). Up to 40 (was 32), the products
 * with a dimension in 33..40 (a grid of 2976 in both types, four transposes, against a copy
 * 0.98-1.02; results/intel-xeon-l3-480m-2c/cpu/ab-tiny40/): geometric mean 1.05-1.07 by type and
 * transpose (AVX2 forced 1.03-1.05, column-major 1.04-1.06), s 8x33x8 1.33, d 1.20, s 33^3-38^3
 * 1.07, k = 1 up to 1.6; the lowest single readings (d 40x33x4 0.86, 36x33x8 0.90) gained when run
 * again (1.07-1.12). From one row or column (was five),
 * results/intel-xeon-l3-480m-2c/cpu/ab-tiny-short/, against the build before (a copy 0.95-1.02):
 * two to four rows or columns, which went the general way to the small path, geometric mean
 * 1.32-1.43 by type and transpose over ten shapes (s 2^3 1.52-1.79, 4^3 1.47-1.73, 4x16x16
 * 1.33-1.53, 3x40x40 1.16-1.22); one, gemv.c's product, 1.01-1.37 (1x1x8 1.28-1.37, 8x1x8
 * 1.18-1.25, 1x16x16 1.09-1.17, 40x1x40 1.01-1.10), 8^3 and 16^3 0.97-1.01. Sides of 41 to 64
 * within 40^3 (was: each at most 40), whole panels three at a time where small.c takes them so
 * (tg__small_triples_short), results/intel-xeon-l3-480m-2c/cpu/ab-tiny-sides/, against the build
 * before (a copy 0.94-1.07): 36 such shapes, four transposes, geometric mean s 1.07-1.19, d
 * 1.05-1.14 by type and transpose (s 16x48x5 NN 1.19-1.63, 8x64x8 1.16-1.19, d 8x64x8 TN 1.19,
 * 2x64x64 s 1.19, d 0.98-0.99); the lowest d 40x64x6 NT 0.77 and NN 0.87 in the grid, 1.14 and 1.00
 * when run again. The 40 shapes of cpu/ab-tiny-route-dims/ the route took before 0.99-1.00 (the
 * product's test). */

/* The tests both forms of the route share, on step 3's views (tm x k A with leading dimension
 * lta, k x tn B with ltb; lta_min and ltb_min the runs those must span, C's tn); the kernel family,
 * or NULL where the route does not take the call. */
TG__ALWAYS_INLINE const tg__kernel *tg__tiny_kernel(size_t es, int layout, int64_t tm, int64_t tn,
                                                    int64_t k, int alpha_zero, const void *a,
                                                    int64_t lta, const void *b, int64_t ltb,
                                                    void *c, int64_t ldc, int64_t lta_min,
                                                    int64_t ltb_min)
{
    tg__arch arch;
    /* each dimension tested alone: an or of the three, one test, passed TG__TINY where none did
     * (12x33x12: 11 | 32 | 11 = 43), which sent those the general way. Against that, 40 shapes of
     * m, n, k in 2-40 whose or passed it (cpu/ab-tiny-route-dims/, a copy 0.92-1.07): geometric
     * mean by type and transpose 1.07-1.18, d 24x5x36 TT 1.89, 8x33x31 TT 1.64; s 12x33x12 NN
     * 1.15, TN 1.19, d 1.11 and 1.14 */
    if ((layout != TG_ROW_MAJOR && layout != TG_COL_MAJOR) ||
        ((uint64_t)tm - 1 >= TG__TINY_SIDE) | ((uint64_t)tn - 1 >= TG__TINY_SIDE) |
            ((uint64_t)k - 1 >= TG__TINY_SIDE) || tm * tn * k > TG__TINY * TG__TINY * TG__TINY ||
            alpha_zero ||
        !a || !b || !c || (uint64_t)(lta | ltb | ldc) >= ((uint64_t)1 << 28) ||
        lta < lta_min || ltb < ltb_min || ldc < tn || tg__path_forced())
        return NULL;
    arch = tg__arch_selected();
    return arch == TG__ARCH_INVALID ? NULL : tg__kernel_family(arch, es);
}

/* C's columns panel by panel, as small.c's tg__small_panels makes them in its one k block: B
 * exactly one 3W tile wide to the triple kernel (or, over a few rows, one with its third vector
 * partial, which small.c does not take), whole panels three at a time to it over a short A
 * (tg__small_triples_short, tg__triple_take), else two at a time to the pair kernel, where
 * small.c would take those (tg__small_triple_one, tg__small_pairs_fit: B read in place, within
 * half of L1), the last few columns past whole panels or a whole vector as dot products with
 * A's rows or A's column products (cpu.h's tg__dots_cols), and every other panel of the family's
 * width, or of the narrow family's for the last (tg__use_narrow), read in place where its rows are
 * contiguous and the kernel reads it whole or through masks, else packed into a stack buffer as
 * small.c's tg__small_panel packs it (b_rs and b_cs: B's row and column strides). Out of line: a
 * plain product of one panel, the commonest, takes tg__tiny_in_place's call alone. Returns 1 when
 * it computed C. The partial triple tile, the Xeon, 1 thread, ab-gemm, against a panel and then
 * the last columns (a copy 0.955-1.06; results/intel-xeon-l3-480m-2c/cpu/ab-triple-partial/): up to
 * six rows geometric mean s NN 1.16, TN 1.13, d 1.31, 1.24 (d 2x18x2 1.75, s 3x34x4 1.62; lowest d
 * 6x17x40 TN 0.945); seven rows s 1.09, d 1.15; eight rows 8 deep or less 1.08 (0.995-1.32),
 * deeper down to 0.85 (d 8x17x24 TN); from nine rows it lost (s 40x34x40 0.68). */
TG__NOINLINE static int tg__tiny_panels(const tg__kernel *kern, size_t es, int64_t tm, int64_t tn,
                                        int64_t k, const void *alpha, const char *a, int64_t a_rs,
                                        int64_t a_cs, const char *b, int64_t b_rs, int64_t b_cs,
                                        const void *beta, void *c, int64_t ldc)
{
    char buf[TG__TINY_SIDE * 128] TG__LINE_ALIGNED; /* a packed panel: k steps of up to 128 bytes */
    const int64_t nr = kern->nr, ses = (int64_t)es;
    const double b_bytes = (double)k * (double)tn * (double)es;
    const int in_place = b_cs == 1;
    const int pairs = in_place && kern->ukernel_pair && tg__small_pairs_fit(kern, tm, b_bytes, 0);
    const int triples = in_place && tn >= 3 * nr && tg__small_triples_short(kern, tm, b_bytes);
    if (nr * ses > 128) return 0;
    if (in_place && tg__small_triple_one(kern, tm, tn, k, b_bytes)) {
        kern->ukernel_triple(k, alpha, a, a_rs, a_cs, b, b_rs, beta, c, ldc, tm, tn);
        return 1;
    }
    for (int64_t j = 0, w, t; j < tn; j += w) {
        const tg__kernel *pk;
        w = tg__min(nr, tn - j);
        if (triples && (t = tg__triple_take(tn - j, nr / 2))) {
            kern->ukernel_triple(k, alpha, a, a_rs, a_cs, b + j * ses, b_rs, beta,
                                 (char *)c + j * ses, ldc, tm, t);
            w = t;
            continue;
        }
        if (pairs && tn - j >= 2 * nr) {
            kern->ukernel_pair(k, alpha, a, a_rs, a_cs, b + j * ses, b_rs, nr, beta,
                               (char *)c + j * ses, ldc, tm, 2 * nr);
            w = 2 * nr;
            continue;
        }
        t = tg__dots_cols(kern, j, w, tm, a_rs, a_cs, b_rs, k);
        if (t)
            tg__small_dots(kern, tm, t, k, alpha, a, a_rs, a_cs, b + (j + w - t) * b_cs * ses,
                           b_rs, b_cs, beta, (char *)c + (j + w - t) * ses, ldc);
        pk = w < nr && tg__use_narrow(kern, tm, w) ? kern->narrow : kern;
        for (int64_t jj = j, pw; jj < j + w - t; jj += pw) {
            const char *bp = b + jj * b_cs * ses;
            int64_t rs_b = b_rs;
            pw = tg__min(pk->nr, j + w - t - jj);
            if (tg__panel_packs(pk, pw, b_cs, 0)) {
                pk->pack_b(pw, k, bp, b_rs, b_cs, buf);
                bp = buf;
                rs_b = pk->nr;
            }
            tg__panel_ukernel(pk, tm, pw, k)(k, alpha, a, a_rs, a_cs, a_rs, bp, rs_b, beta,
                                             (char *)c + jj * ses, ldc, 1, tm, pw);
        }
    }
    return 1;
}

/* B's rows contiguous (ltb apart), read in place, within half of L1 (else small.c packs it): one
 * panel of the kernel chosen for its width (tg__use_narrow) that the kernel reads whole or,
 * partial, through masks, straight to it; any other B, or the few columns that the split dots
 * take (cpu.h's tg__split_fit), panel by panel (tg__tiny_panels), and so a panel past one vector
 * whose last columns tg__dots_cols gives to the dots, from 16 rows and 8 deep (a transposed A's
 * form, tg__gemm_tiny_t, asks it before, at every height). The Xeon of
 * results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, C 16 bytes off a line, 40 shapes of the route a
 * type (cpu/ab-tiny-route-dims/), against the masked panel (a copy 0.97-1.03): geometric mean NN s
 * 1.02, d 1.01 (the tests alone, where the dots do not take the columns, cost the rest up to 3%:
 * d 20x9x4 0.94-0.98); s 32x18x32 1.52, d 32x10x16 1.26, s 24x18x16 1.22, s 16x20x32 1.22, d
 * 20x10x32 1.22; under 16 rows, as the dots' bounds allow, it lost (d 8x10x16 0.63, d 4x9x24
 * 0.74, d 9x9x12 0.92, s 12x18x8 0.92). Also from 12 rows 32 deep, and for one column past the
 * vector from 160 of A's elements (rows times k) under 8 deep: against the gate of 16 rows and 8
 * deep (a copy 0.95-1.04; cpu/ab-tiny-sides/), d 12-14 rows W + 2 columns 32-64 deep 1.09-1.33,
 * W + 4 0.99-1.13, s 12-14 rows W + 2 1.15-1.48; one column s 51x17x7 1.45, 24x17x7 1.10, d
 * 24x9x7 1.15, 40x9x4 1.07. Left out: 8 rows (d 8x10x32 0.67, s 8x18x32 0.68); 9 rows, which
 * won at W + 2 (s 9x18x64 1.18, d 9x10x64 1.09) but lost at W + 4 (d 9x12x32 0.97, s 9x24x64
 * 0.97); 12-15 rows under 32 deep past W + 2 (d 12x12x24 0.95); one column over 16-24 rows under
 * 8 deep (d 16x9x5 0.87, s 24x17x5 0.92). A's rows are a_rs apart, its k steps a_cs. Returns 1
 * when it computed C. */
TG__ALWAYS_INLINE int tg__tiny_in_place(const tg__kernel *kern, size_t es, int64_t tm, int64_t tn,
                                        int64_t k, const void *alpha, const void *a, int64_t a_rs,
                                        int64_t a_cs, const void *b, int64_t ltb, const void *beta,
                                        void *c, int64_t ldc)
{
    const tg__kernel *pk = kern;
    if (!tg__small_in_half_l1(k, ltb * (int64_t)es)) return 0;
    if (tn <= kern->nr && tg__use_narrow(kern, tm, tn)) pk = kern->narrow;
    if (tn > pk->nr || tg__panel_packs(pk, tn, 1, 0) || tg__split_fit(kern, tn, tm, k, ltb, 1) ||
        (a_cs == 1 && tn > kern->nr / 2 &&
         ((tm >= 16 && k >= 8) || (tm >= 12 && k >= 32) ||
          (tn == kern->nr / 2 + 1 && tm * k >= 160)) &&
         tg__dots_cols(kern, 0, tn, tm, a_rs, a_cs, ltb, k)))
        return tg__tiny_panels(kern, es, tm, tn, k, alpha, (const char *)a, a_rs, a_cs,
                               (const char *)b, ltb, 1, beta, c, ldc);
    tg__panel_ukernel(pk, tm, tn, k)(k, alpha, a, a_rs, a_cs, a_rs, b, ltb, beta, c, ldc, 1, tm,
                                     tn);
    return 1;
}

/* The route's transposed forms, out of line, so that the plain one's code stays as it was (an
 * earlier trial that let it read a transposed A in place cost the plain products 2-7%). A
 * transposed in step 3's view (its rows adjacent, its k steps lta apart) is read in place; B
 * transposed (its columns along k) is packed panel by panel (tg__tiny_panels), or, with A
 * transposed too, read in place by ukernel_cols (below). The Xeon of
 * results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, row-major, C 16 bytes off a line, against the
 * general way (a copy of its build: 0.97-1.04): TN s 5^3-16^3 1.07-1.17, 17^3-32^3 1.00-1.03, d
 * 5^3-12^3 1.07-1.15, 16^3-32^3 0.99-1.04; NT s 5^3-16^3 1.12-1.29, 17^3-32^3 1.03-1.09, d
 * 1.04-1.22; TT s 1.02-1.28, d 1.02-1.24; and plain d 17^3-28^3, whose panels past the first the
 * route had turned away, 1.04-1.11 (the rest of NN 0.99-1.09). One panel a vector and a column or
 * two wide goes panel by panel too where those columns go as dot or column products (cpu.h's
 * tg__dots_cols): TN s 17^3 1.27, d 1.16, TT s 1.34, d 1.20. Returns 1 when it computed C. */
TG__NOINLINE static int tg__gemm_tiny_t(size_t es, int layout, int transa, int transb, int64_t m,
                                        int64_t n, int64_t k, const void *alpha, int alpha_zero,
                                        const void *a, int64_t lda, const void *b, int64_t ldb,
                                        const void *beta, void *c, int64_t ldc)
{
    const int row = layout == TG_ROW_MAJOR;
    const int64_t tm = row ? m : n, tn = row ? n : m, lta = row ? lda : ldb, ltb = row ? ldb : lda;
    const int tta = (row ? transa : transb) == TG_TRANS, ttb = (row ? transb : transa) == TG_TRANS;
    const char *ta = (const char *)(row ? a : b), *tb = (const char *)(row ? b : a);
    const int64_t a_rs = tta ? 1 : lta, a_cs = tta ? lta : 1;
    const tg__kernel *kern;
    if ((transa != TG_NO_TRANS && transa != TG_TRANS) ||
        (transb != TG_NO_TRANS && transb != TG_TRANS))
        return 0;
    kern = tg__tiny_kernel(es, layout, tm, tn, k, alpha_zero, ta, lta, tb, ltb, c, ldc,
                           tta ? tm : k, ttb ? k : tn);
    if (!kern) return 0;
    if (tm == 1 || tn == 1)
        return tg__gemv_tiny(kern, tm, tn, k, alpha, ta, a_rs, a_cs, tb, ttb ? 1 : ltb,
                             ttb ? ltb : 1, beta, c, ldc);
    /* Both transposed: C's columns in even blocks of three to eight as rows of Cᵀ by
     * ukernel_cols, whose one-vector tiles (up to eight of C's rows) reach C through an 8 x 8
     * transpose in registers. B is then read in place, where the packing of its panels (its
     * transpose) was a third of a TT 8^3 dgemm and the kernel spent half its FMAs on the 16-wide
     * panel's empty half (perf). The Xeon, 1 thread, ab-gemm, C 16 bytes off a line, against the
     * panels (a copy 0.98-1.03; results/intel-xeon-l3-480m-2c/cpu/ab-tt-cols/): 3^3 2.28, 4^3 1.69,
     * 8^3 1.61, 12^3 1.21, 15^3 1.49, 8x40x8 1.42, 40x5x40 1.58, 16x12x16 1.54, column-major 8^3
     * 1.66; even blocks over eight and a rest of one or two (which the tile does not take: those
     * went to the panels), 9^3 1.19, 10^3 1.30, 8x17x8 1.64. Taken where B is under a panel wide or
     * A eight rows at most: wider, over more rows, it lost (12x16x12 0.86, 32^3 0.97, 36^3 0.94).
     * fp32 (16 of C's rows a tile, through an 8 x 16 transpose) only in one block: against the
     * panels (a copy 0.96-1.01), 3^3 1.72, 4^3 1.66, 16x6x16 2.23, 36x6x36 2.04, 16x8x16 1.59,
     * 40x5x40 1.20, 8^3 1.03, but 32x6x32 0.91, 32x5x32 0.96; in two or more, 8x40x8 0.56, 24^3
     * 0.83, 16^3 0.90. */
    if (tta && ttb && kern->ukernel_cols && tn >= 3 &&
        (tn <= 8 || (es == sizeof(double) && (tn < kern->nr || tm <= kern->nr / 2)))) {
        const int64_t w = kern->nr / 2, t = tg__ceil_div(tn, tg__ceil_div(tn, 8));
        for (int64_t j = 0; j < tn; j += t)
            for (int64_t i = 0; i < tm; i += w)
                kern->ukernel_cols(k, alpha, tb + j * ltb * (int64_t)es, 1, ltb,
                                   ta + i * (int64_t)es, lta, beta,
                                   (char *)c + (i * ldc + j) * (int64_t)es, ldc,
                                   tg__min(t, tn - j), tg__min(w, tm - i));
        return 1;
    }
    if (ttb)
        return tg__tiny_panels(kern, es, tm, tn, k, alpha, ta, a_rs, a_cs, tb, 1, ltb, beta, c,
                               ldc);
    if (tn <= kern->nr && tg__dots_cols(kern, 0, tn, tm, a_rs, a_cs, ltb, k))
        return tg__tiny_panels(kern, es, tm, tn, k, alpha, ta, a_rs, a_cs, tb, ltb, 1, beta, c,
                               ldc);
    return tg__tiny_in_place(kern, es, tm, tn, k, alpha, ta, a_rs, a_cs, tb, ltb, beta, c, ldc);
}

/* Step 0: the plain form inline, the transposed ones out of line. Returns 1 when it computed C. */
TG__ALWAYS_INLINE int tg__gemm_tiny(size_t es, int layout, int transa, int transb, int64_t m,
                                    int64_t n, int64_t k, const void *alpha, int alpha_zero,
                                    const void *a, int64_t lda, const void *b, int64_t ldb,
                                    const void *beta, void *c, int64_t ldc)
{
    const int row = layout == TG_ROW_MAJOR;
    const int64_t tm = row ? m : n, tn = row ? n : m, lta = row ? lda : ldb, ltb = row ? ldb : lda;
    const void *ta = row ? a : b, *tb = row ? b : a;
    const tg__kernel *kern;
    if (transa != TG_NO_TRANS || transb != TG_NO_TRANS)
        return tg__gemm_tiny_t(es, layout, transa, transb, m, n, k, alpha, alpha_zero, a, lda, b,
                               ldb, beta, c, ldc);
    kern = tg__tiny_kernel(es, layout, tm, tn, k, alpha_zero, ta, lta, tb, ltb, c, ldc, k, tn);
    if (!kern) return 0;
    if (tm == 1 || tn == 1)
        return tg__gemv_tiny(kern, tm, tn, k, alpha, ta, lta, 1, tb, ltb, 1, beta, c, ldc);
    return tg__tiny_in_place(kern, es, tm, tn, k, alpha, ta, lta, 1, tb, ltb, beta, c, ldc);
}

TGEMM_DEF int tg_sgemm(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m, int64_t n,
                       int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                       int64_t ldb, float beta, float *c, int64_t ldc)
{
    int st;
    tg__gemm g;
    if (tg__gemm_tiny(sizeof(float), layout, transa, transb, m, n, k, &alpha, alpha == 0, a, lda, b,
                      ldb, &beta, c, ldc))
        return TG_OK;
    st = tg__gemm_check("tg_sgemm", layout, transa, transb, m, n, k, alpha == 0, a, lda, b, ldb, c,
                        ldc, sizeof(float));
    if (st) return st;
    g = tg__gemm_views(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
    return tg__gemm_cpu("tg_sgemm", sizeof(float), &g, &alpha, &beta, alpha == 0, beta == 1);
}

TGEMM_DEF int tg_dgemm(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const double *a, int64_t lda, const double *b,
                       int64_t ldb, double beta, double *c, int64_t ldc)
{
    int st;
    tg__gemm g;
    if (tg__gemm_tiny(sizeof(double), layout, transa, transb, m, n, k, &alpha, alpha == 0, a, lda,
                      b, ldb, &beta, c, ldc))
        return TG_OK;
    st = tg__gemm_check("tg_dgemm", layout, transa, transb, m, n, k, alpha == 0, a, lda, b, ldb, c,
                        ldc, sizeof(double));
    if (st) return st;
    g = tg__gemm_views(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
    return tg__gemm_cpu("tg_dgemm", sizeof(double), &g, &alpha, &beta, alpha == 0, beta == 1);
}
