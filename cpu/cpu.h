/* Private pieces of the CPU GEMM: the micro-kernel descriptor, block sizes, threads.
 *
 * The driver (driver.c) is written once for both precisions: it moves bytes and calls the
 * descriptor's typed functions (packing, micro-kernel), so fp32 and fp64 share every loop;
 * only the code that touches elements is typed.
 */
#ifndef TGEMM_CPU_H
#define TGEMM_CPU_H

#include "../common/internal.h"

/* Bytes in a page, the span within which the hardware prefetchers follow a stream. */
enum { TG__PAGE = 4096 };

/* a / b rounded up and a % b, for a >= 0 and b > 0, with no division when a <= b (a % b: a < 2b):
 * a tiny product's panel arithmetic was three 64-bit divisions, 273 -> 257 cycles of an 8^3 sgemm
 * call (Zen 4). */
static inline int64_t tg__ceil_div(int64_t a, int64_t b) { return a <= b ? a > 0 : (a + b - 1) / b; }
/* Where the t-th of `parts` even parts of m rows ends; one part, a tiny product's commonest,
 * without a division (perf put a tenth of an s 12^3 call's kernel samples just after the 64-bit
 * one). The Xeon of results/intel-xeon-l3-105m-2c, ab-gemm against the division (a copy
 * 0.98-1.02): s 12^3 NN 1.047, TN 1.043; 30 other products of 8-24 rows 0.97-1.08, geometric
 * mean by type and transpose 1.00-1.02. */
static inline int64_t tg__part_end(int64_t m, int64_t parts, int64_t t)
{
    return parts == 1 ? m : m * (t + 1) / parts;
}
static inline int64_t tg__rem(int64_t a, int64_t b) { return a < b ? a : a < 2 * b ? a - b : a % b; }
static inline int64_t tg__min(int64_t a, int64_t b) { return a < b ? a : b; }

/* C[0:m, 0:n] = alpha * (A · B) + beta * C for one column panel of C, n <= NR wide and m rows high
 * (any m >= 1), kc deep: the kernel walks the panel's register tiles itself, so a whole panel is one
 * call (a small product's tiles cost a few hundred cycles each, and a call per tile was a tenth of
 * that). A's element (i, p) is a[i * rs_a + p * cs_a] within a tile, and the tile that starts at row
 * i starts at a + i * ts_a: packed MR-row panels (rs_a = 1, cs_a = MR, ts_a = kc; tiles start at
 * multiples of MR) or, on the small-matrix path, the caller's matrix itself (ts_a = rs_a, tiles of
 * the kernel's choosing); rows i >= m are never read. B's row p is the NR contiguous elements at
 * b + p * rs_b: a packed NR-column panel (rs_b = NR) or whole-width rows of the caller's B. Nothing
 * outside C[0:m, 0:n] is written, and C is not read when beta is zero. alpha and beta point at a
 * float or a double, like a and b. */
typedef void (*tg__ukernel_fn)(int64_t kc, const void *alpha, const void *a, int64_t rs_a,
                               int64_t cs_a, int64_t ts_a, const void *b, int64_t rs_b,
                               const void *beta, void *c, int64_t rs_c, int64_t cs_c, int64_t m,
                               int64_t n);
/* C[0:m, 0:n] as above for two adjacent column panels, nr < n <= 2 nr, A in place (ts_a = rs_a) and
 * C with unit column stride: B's row p is nr elements at b + p * rs_b and nr more ps_b elements on,
 * all of them readable: two packed panels, zero past n, or a B in place 2 nr wide. */
typedef void (*tg__ukernel_pair_fn)(int64_t kc, const void *alpha, const void *a, int64_t rs_a,
                                    int64_t cs_a, const void *b, int64_t rs_b, int64_t ps_b,
                                    const void *beta, void *c, int64_t rs_c, int64_t m, int64_t n);
/* C[0:m, 0:n] as above for up to three adjacent column panels of a B in place, 0 < n <= 3 nr: B's
 * row p is the n elements at b + p * rs_b, and nothing past them is read. */
typedef void (*tg__ukernel_triple_fn)(int64_t kc, const void *alpha, const void *a, int64_t rs_a,
                                      int64_t cs_a, const void *b, int64_t rs_b, const void *beta,
                                      void *c, int64_t rs_c, int64_t m, int64_t n);
/* t columns of C (3 to 8) over w rows (at most nr), C's rows rs_c apart, op(A)'s columns
 * contiguous (kernel_simd.inc's tg__ukernel_cols). */
typedef void (*tg__ukernel_cols_fn)(int64_t kc, const void *alpha, const void *b, int64_t rs_b,
                                    int64_t cs_b, const void *a, int64_t cs_a, const void *beta,
                                    void *c, int64_t rs_c, int64_t t, int64_t w);
/* Copies the rows x kc block of a view starting at src into MR-row panels (pack_a) or the kc x cols
 * block into NR-column panels (pack_b), zero-padding the last panel to a whole tile. */
typedef void (*tg__pack_fn)(int64_t rows, int64_t kc, const void *src, int64_t rs, int64_t cs,
                            void *dst);

/* A product with one row or one column of C as y = alpha * Mᵀx + beta * y (gemv.c): y[j * incy]
 * for j < n, from x[p * incx] and M's element (p, j) for p < k. The rows form (gemv_rows) reads M's
 * row p as the n contiguous elements at m + p * ld; the dots form (gemv_dots) reads its column j as
 * the k contiguous elements at m + j * ld, with x contiguous (incx 1). y is not read when beta is
 * zero; alpha and beta point at a float or a double. The rows form takes up to TG__GEMV_ROWS such
 * products over the same M at once (a short C: x's and y's row i at x + i * ldx and y + i * ldy),
 * M read once for all of them. */
typedef void (*tg__gemv_fn)(int64_t n, int64_t k, const void *alpha, const void *x, int64_t incx,
                            const void *m, int64_t ld, const void *beta, void *y, int64_t incy);
typedef void (*tg__gemv_rows_fn)(int r, int64_t n, int64_t k, const void *alpha, const void *x,
                                 int64_t incx, int64_t ldx, const void *m, int64_t ld,
                                 const void *beta, void *y, int64_t incy, int64_t ldy);
/* y[j * incy + q] = alpha * sum_p x[q * ldx + p] * m[j * ld + p] + beta * y[j * incy + q] for
 * j < n, q < c (2 to TG__DOTS_BLOCK): c columns of x (contiguous along k) against n rows of M
 * (contiguous along k), y's columns adjacent; y is not read when beta is zero. */
typedef void (*tg__dots_fn)(int c, int64_t n, int64_t k, const void *alpha, const void *x,
                            int64_t ldx, const void *m, int64_t ld, const void *beta, void *y,
                            int64_t incy);
/* The same for c (2 to half a vector: AVX-512's 8 floats, 4 doubles) columns of x, element
 * (p, q) at x[p * x_rs + q * x_cs], any strides (B's last columns in place). */
typedef void (*tg__dots_split_fn)(int c, int64_t n, int64_t k, const void *alpha, const void *x,
                                  int64_t x_rs, int64_t x_cs, const void *m, int64_t ld,
                                  const void *beta, void *y, int64_t incy);
enum { TG__GEMV_ROWS = 4 };
/* Bytes of y's sums the rows form keeps in L1 while it streams M's rows across them. */
enum { TG__GEMV_CHUNK = 8192 };

typedef struct tg__kernel tg__kernel;
struct tg__kernel {
    const char *name;
    size_t es;             /* element size: 4 or 8 */
    int mr, nr;            /* register tile */
    int nr_part;           /* a last panel exactly this wide is read in place too (the kernel reads
                              no column past it); nr where only whole panels are */
    int short_m;           /* a short A: at most this many rows take the small path at any size
                              (gemm.c) and read B's rows in place whatever their stride, but for
                              small.c's exceptions (tg__small_pack_all) */
    tg__ukernel_fn ukernel;
    tg__ukernel_fn ukernel_part; /* NULL, or the kernel for a panel narrower than nr that reads B's
                                    partial rows through masked loads: then the small path reads
                                    any last panel in place */
    tg__ukernel_fn ukernel_short; /* NULL, or the kernel for a panel at most nr / 2 wide over 5 to 7
                                     rows of A in place, C's columns adjacent: one tall tile
                                     (tg__panel_ukernel says where) */
    tg__pack_fn pack_a;    /* rows of op(A) into MR-row panels */
    tg__pack_fn pack_b;    /* columns of op(B) into NR-column panels (rows/cols swapped: see pack.inc) */
    const tg__kernel *narrow; /* the small path's kernel for a last panel narrower than nr (NULL:
                                 this one): AVX-512's is AVX2's, which reads more of them in place */
    tg__ukernel_pair_fn ukernel_pair; /* NULL, or two panels at once in wider tiles (AVX-512): the
                                         small path's rows mode and a short A (small.c) */
    tg__ukernel_triple_fn ukernel_triple; /* NULL, or three panels at once in tiles of eight rows
                                             (AVX-512): a short A (small.c's tg__small_triples) */
    tg__ukernel_cols_fn ukernel_cols; /* NULL, or 3 to 8 columns of C over a transposed A as rows
                                         of Cᵀ (AVX-512): small.c's tg__small_dots */
    const tg__kernel *wide; /* NULL, or the blocked path's kernel where zmm runs at full width
                               (gemm.c's tg__blocked_kernel): AVX-512's tiles of 8 x 3W over A in
                               8-row panels and B in 3W-column ones (tg__ukernel_wide) */
    int deep_kc;           /* 1: a deeper kc and A block over a large L2 (blocking.c) */
    int b_share;           /* a deep product's packed B panel takes 1/b_share of L3 (blocking.c) */
    tg__gemv_rows_fn gemv_rows; /* a few rows or columns of C (gemv.c) */
    tg__gemv_fn gemv_dots;      /* one row or column of C (gemv.c) */
    tg__gemv_rows_fn gemv_cols; /* one or two of C's last columns over a transposed A, as column
                                   products (small.c's tg__small_dots): the rows form, any n */
    int gemv_rule; /* 1: no C of two rows goes to the rows form within L2, where this family's
                      tiles do better on it (gemv.c's tg__gemv_rows_max; 0: from 128^2 elements) */
    tg__dots_fn dots; /* NULL, or two to TG__DOTS_BLOCK of C's last columns as dot products
                         with A's rows, summed together (AVX2): small.c's tg__small_dots */
    tg__dots_split_fn dots_split; /* NULL, or the same with each register split among the
                                     columns, KQ k steps each (AVX-512): tg__small_dots */
};

/* The kernel for this element size and family. */
TG__PRIVATE const tg__kernel *tg__kernel_generic(size_t es);
TG__PRIVATE const tg__kernel *tg__kernel_avx2(size_t es);
TG__PRIVATE const tg__kernel *tg__kernel_avx512(size_t es);

/* The family of a valid selected arch (tg__arch_selected), for this element size. */
TG__ALWAYS_INLINE const tg__kernel *tg__kernel_family(tg__arch arch, size_t es)
{
    return arch == TG__ARCH_AVX512 ? tg__kernel_avx512(es)
           : arch == TG__ARCH_AVX2 ? tg__kernel_avx2(es)
                                   : tg__kernel_generic(es);
}

/* The blocked path's kernel: the family's wide one (8 x 3W tiles) where it has one and zmm runs at
 * full width. Zen 4, which splits each zmm operation in two, keeps the 6 x 2W tiles: there the
 * wider tile tried before this one (12 x 2W) lost to them (ab-gemm side by side, 1 thread, the
 * 6-row tiles against it: sgemm 2048^3 1.01x, 4096x4096x32 1.03-1.05x, dgemm 4000^3 1.01x, 1001^3
 * 1.01x, 4096x4096x32 1.02-1.05x); the 8 x 3W tile is unmeasured there. */
TG__ALWAYS_INLINE const tg__kernel *tg__blocked_kernel(const tg__kernel *kern)
{
    return kern->wide && !tg__cpu()->zmm_split ? kern->wide : kern;
}

/* Cache blocking: MC rows of A (packed, kept in L2), KC deep, NC columns of B (packed, kept in L3). */
typedef struct {
    int64_t mc, kc, nc;
} tg__blocks;
TG__PRIVATE tg__blocks tg__block_sizes(const tg__kernel *k, int64_t depth, int64_t width);
/* The blocked path's rows of A a block, for m rows and blocks of at most mc: blocks of even
 * height, so that m = 64 with MC = 60 does not leave a 4-row block whose tiles run a third
 * empty. */
static inline int64_t tg__even_mc(const tg__kernel *k, int64_t mc, int64_t m)
{
    return tg__ceil_div(tg__ceil_div(m, tg__ceil_div(m, mc)), k->mr) * k->mr;
}

/* Threads a call worth a team may use (threads.c): 1 inside a caller's parallel region, else the
 * process-wide count. */
TG__PRIVATE int tg__threads_team(void);

/* Threads a call of this size may use: 1 below about 64^3 multiply-adds, where a team's start-up
 * and barriers cost more than they save. At 64^3 two threads ran 1.46x (s) and 1.39x (d) in the
 * Zen 3's sweeps; on Emerald Rapids, one build at 1 and 2 threads in one process (ab-gemm LIB@N),
 * 1.20x (s) and 1.51x (d), s 72^3 1.15x. A threshold half as large for doubles (the same time a
 * call) lost at d 52^3 (0.86x) and 40x96x48 (0.82x) there. (The small path starts a team for less
 * on the Zen 4: small.c's tg__small_threads.) The size test is inline so that a small call makes
 * no call for it (as one, 5% of an 8^3 sgemm on the small path, Zen 5, perf). */
enum { TG__TEAM_MNK = 64 * 64 * 64 };
TG__ALWAYS_INLINE int tg__threads_for(int64_t m, int64_t n, int64_t k)
{
    return (double)m * (double)n * (double)k < TG__TEAM_MNK ? 1 : tg__threads_team();
}

/* 1 in the type of es bytes (driver.c): the beta of every k block after the first, which adds to
 * what the blocks before it left in C. */
TG__PRIVATE const void *tg__one(size_t es);

/* Where the small path's panels stop winning, in multiply-adds (gemm.c has the measurements). */
enum { TG__SMALL_MNK = 256 * 256 * 256 };

/* The tiny products' route (gemm.c): m, n and k each at most TG__TINY_SIDE and m n k at most
 * TG__TINY^3, the largest cube such that every product within it is one thread's (TG__TEAM_MNK
 * above; where zmm is split, small.c's 2^19 bytes of multiply-adds: 40^3 in fp64 is 512,000). No k
 * block of the small path is shallower than TG__TINY (small.c's tg__small_block), nor than
 * TG__TINY_SIDE where L1 holds 16 KiB or more (tg__small_kb), so such a product is one k block
 * there too. */
enum { TG__TINY = 40, TG__TINY_SIDE = 64 };

/* The blocked GEMM (driver.c) and the small-matrix path (small.c), on checked views with m, n, k > 0,
 * alpha != 0 and C's column stride 1 (gemm.c transposes the problem when C is column-major). paged:
 * the small path packs every panel of B a page group at a time, whatever the shape (TGEMM_PATH=paged,
 * for the tests). */
TG__PRIVATE int tg__gemm_blocked(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                                 const void *alpha, const void *beta);
TG__PRIVATE int tg__gemm_small(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                               const void *alpha, const void *beta, int paged);
/* A product with one row or one column of C (m or n 1) as a GEMV (gemv.c), or with a few as
 * several over the same matrix, where one of its operands is contiguous the way a GEMV form
 * wants: TG_OK or TG_ERR_NOMEM, or -1 (nothing done) where neither form serves it. */
TG__PRIVATE int tg__gemm_gemv(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                              const void *alpha, const void *beta);
/* The same for a product of gemm.c's tiny route (m, n and k at most TG__TINY_SIDE) with one row or
 * column of C, given as the fields of its view (C's columns adjacent): tg__gemm_gemv's one call
 * for it (one thread, k whole, a strided x copied to the stack), without the planning, which cost
 * a 1x16x16 dgemm nearly a third of its time. 1 when it computed C, 0 (nothing done) where neither
 * form serves. */
TG__PRIVATE int tg__gemv_tiny(const tg__kernel *kern, int64_t m, int64_t n, int64_t k,
                              const void *alpha, const void *a, int64_t a_rs, int64_t a_cs,
                              const void *b, int64_t b_rs, int64_t b_cs, const void *beta, void *c,
                              int64_t rs_c);
/* Whether B packed whole fits L2, and whether the rows mode (small.c) reads B in place instead: its
 * rows contiguous, one whole pair of panels wide, or two pairs where B packed would not fit L2.
 * Against B packed, Zen 5, 1 thread, ab-gemm: one pair s 64x64x8192 1.42x (and 64x64x32768, too
 * large to pack, 1.48x against the blocked path), d 32x32x4096 1.25x, s 4096x64x4096 1.05x, s
 * 32768x64x256 0.98x; but two pairs d 32768x64x256 0.84x, s 2048x128x512 0.95x, where each pair
 * reads every other half of B's rows, which the prefetchers follow less well. */
/* Bytes of one k step of B packed into whole panels (the last one zero-padded). */
TG__ALWAYS_INLINE int64_t tg__packed_b_row(const tg__kernel *kern, const tg__gemm *g)
{
    return tg__ceil_div(g->n, kern->nr) * kern->nr * (int64_t)kern->es;
}
TG__ALWAYS_INLINE int tg__small_rows_packs_in_l2(const tg__kernel *kern, const tg__gemm *g)
{
    return (double)g->k * (double)tg__packed_b_row(kern, g) <= (double)tg__cpu()->l2;
}
TG__ALWAYS_INLINE int tg__small_rows_in_place(const tg__kernel *kern, const tg__gemm *g)
{
    return g->b.cs == 1 && (g->n == 2 * kern->nr ||
                            (g->n == 4 * kern->nr && !tg__small_rows_packs_in_l2(kern, g)));
}

/* Whether the small path takes g in its rows mode (small.c), however large: an A of four tiles or
 * more whose rows run along k, over two to four panels of B from 256 x 64 x 256 multiply-adds (up
 * to sixteen panels past TG__SMALL_MNK, where the small path's panels stop), in a family with a
 * pair kernel, with B read in place or packed whole within L2. There the blocked path packs all of
 * A to serve as few as two panels, and the 6 x 2W tiles over A in place must stream A from memory
 * as fast as the FMAs use it; the pair kernel reads A once, in place, at half that rate. Zen 5,
 * 1 thread, ab-gemm against the blocked path: s 32768x64x256 1.6x, 4096x64x4096 1.30x,
 * 2048x128x512 1.11x, 512x96x512 1.11x, d 32768x64x256 1.32x, 8192x64x512 1.31x,
 * 2048x40x512 1.16x; 256x64x256 1.00x, and below it, on the small path's panels, s 64^3 0.93x,
 * 128^3 0.97x, d 128x64x128 0.96x. Five to sixteen panels, against the blocked path: d
 * 8192x128x512 1.16x, 2048x128x512 1.08x, 32768x96x256 1.15x, 2048x256x512 1.09x, s 8192x256x512
 * 1.11x, 32768x160x256 1.24x, 1000x200x1000 1.08x, 2048x512x512 1.06x, 600x400x600 1.05x (2
 * threads 1.12-1.22x); but against the small path's panels under 256^3 0.98-1.02x (s and d
 * 64x256x256 0.98x), which keep them. A shorter A keeps the short-A way, whose threads split the
 * panels (at two threads 1.50-1.52x the rows mode, which has no rows to split, on s 16x128x2048
 * and 20x128x2048); a transposed A, whose rows run across k, keeps the blocked path, measured
 * either way (against the rows mode: s 4096x64x2048 1.05x, d 32768x64x256 1.12x, but s
 * 2048x128x512 0.85x, 8192x40x512 0.88x). */
enum { TG__ROWS_MNK = 256 * 64 * 256 };
TG__ALWAYS_INLINE int tg__small_rows_fits(const tg__kernel *kern, const tg__gemm *g)
{
    const int64_t nr = kern->nr;
    const double mnk = (double)g->m * (double)g->n * (double)g->k;
    return kern->ukernel_pair && g->n > nr &&
           (g->n <= 4 * nr || (g->n <= 16 * nr && mnk > TG__SMALL_MNK)) &&
           g->m >= 4 * kern->mr && g->a.cs == 1 && mnk >= TG__ROWS_MNK &&
           (tg__small_rows_packs_in_l2(kern, g) || tg__small_rows_in_place(kern, g));
}

/* Whether a panel n wide is a partial one: narrower than the kernel's panels, and not exactly
 * nr_part, which the kernel reads in whole vectors. */
TG__ALWAYS_INLINE int tg__partial(const tg__kernel *kern, int64_t n)
{
    return n < kern->nr && n != kern->nr_part;
}

/* Whether a panel of B n wide (its columns b_cs apart) is copied into a packed panel rather than
 * read in place: always when pack_all is set or B's columns are not contiguous, and for a partial
 * panel unless the kernel reads those through masks (ukernel_part). */
TG__ALWAYS_INLINE int tg__panel_packs(const tg__kernel *kern, int64_t n, int64_t b_cs, int pack_all)
{
    return pack_all || b_cs != 1 || (tg__partial(kern, n) && !kern->ukernel_part);
}

/* The kernel for a panel n wide over m rows of A in place, kc deep, C's columns adjacent: the
 * short tall tile for 5 to 7 rows of a panel at most one vector wide, where the family has one, at
 * 7 rows always and at 5 or 6 up to 16 deep; else the masked one for a partial panel, where the
 * family has one. The 6-row tile's loops there run two tiles for 7 rows (4 + 3), and keep two
 * chains of FMAs a row (k's even and odd steps, summed after the loop): more chains than one vector
 * of 5 or 6 rows needs to cover the FMA latency once k is long, but a tiny product pays for the
 * split in fixed costs. The Xeon of results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm against the
 * 6-row tiles (a copy: 0.97-1.03): s 7^3 1.54, d 1.54, s 7x7x300 1.23, d 1.23, s 5^3 1.18, d 1.22,
 * s 6^3 1.20, d 1.17, s 5x8x16 1.14, d 1.13, s 7x16x7 1.48; 5 and 6 rows from 24 deep on
 * 0.84-1.05 (s 6x8x100 0.84, s 5x8x100 0.87), hence the bound. */
TG__ALWAYS_INLINE tg__ukernel_fn tg__panel_ukernel(const tg__kernel *kern, int64_t m, int64_t n,
                                                   int64_t kc)
{
    if (m >= 5 && m <= 7 && 2 * n <= kern->nr && (m == 7 || kc <= 16) && kern->ukernel_short)
        return kern->ukernel_short;
    return tg__partial(kern, n) && kern->ukernel_part ? kern->ukernel_part : kern->ukernel;
}

/* Whether the last panel, n < nr wide, goes to the kernel's narrow family: where that does fewer
 * FMAs. AVX-512 reads any partial panel in place through masks, but at whole zmm's cost; AVX2's
 * kernel spends half a zmm's on each half-width vector. So the n mod W columns past the last whole
 * zmm go to AVX2 when they fill at most half of one (s 20^3: 16 + 4 columns in three ymm FMAs a
 * row and k step instead of two zmm), to AVX-512 otherwise (s 12^3: one masked zmm, in place, for
 * AVX2's two ymm over a packed panel). Zen 4, 1 thread, side by side, against every narrow panel
 * in AVX2: s 12^3 1.31-1.44, 12x12x240 1.14, 13x29x17 1.17, d 6^3 1.26, d 14^3 1.17, d 5x7x300
 * 1.34-1.40, but 0.98 for a tall A over a narrow panel (s 100x12x100, d 100x14x100, where the
 * copy served 17 tiles); against every narrow panel in masked zmm: s 8^3 1.21, s 20^3
 * 1.06, s 24^3 1.18-1.27. That arithmetic holds where a zmm operation costs two ymm ones (Zen 4,
 * tg__cpu()->zmm_split). Where it costs one (Zen 5), AVX2 does no fewer FMAs unless one of its
 * vectors covers the whole panel (s n <= 8, d n <= 4), and only there does it keep it, reading no
 * masks: Zen 5, 1 thread, ab-gemm side by side against the Zen 4 rule (7 lines), s 20^3 1.64,
 * s 24^3 1.39, d 12^3 1.28, d 100x12x100 1.56 the speed, the rest of s and d 8-48^3 0.96-1.01 (a
 * copy of the old library 0.96-1.00); s 8^3 and the 8 columns past 32 of s 40^3 ran 0.91 and 0.96
 * when they too went to masked zmm. A panel narrower than that vector (s n < 8, d n < 4) AVX2
 * must copy into a zero-padded panel, which pays only over many rows of A: there it keeps AVX2
 * from TG__NARROW_PACKED_M rows of A on, the whole product's (m: never a thread's part, so that
 * every thread count takes the same kernel), and masked zmm in place below. The Xeon of
 * results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, C 16 bytes off a line, masked zmm against AVX2
 * (a copy of that build: 0.99-1.01): s 5^3 2.26, 6^3 2.19, 7^3 1.94, 5x7x9 2.22, 7x6x5 2.08, 32x6x8
 * 1.67, 12x5x100 1.30, 16x5x100 1.17, 7x7x64 1.12, 24x5x100 0.96-1.01; from 36 rows AVX2 (s
 * 36x5x100 0.91, 48x5x100 0.91, 100x5x100 0.85, 100x7x100 0.85, but 64x6x16 1.27, 48x7x48
 * 1.07). The Zen 5 takes the same rule, not measured there. */
enum { TG__NARROW_PACKED_M = 33 };
TG__ALWAYS_INLINE int tg__use_narrow(const tg__kernel *kern, int64_t m, int64_t n)
{
    const tg__kernel *nk = kern->narrow;
    int64_t past;
    if (!nk || n >= kern->nr) return 0;
    if (!tg__cpu()->zmm_split)
        return n == nk->nr_part || (n < nk->nr_part && m >= TG__NARROW_PACKED_M);
    past = tg__rem(n, nk->nr);
    return past != 0 && past <= nk->nr_part;
}

/* Whether a k block of B read in place, kb rows row_bytes apart, spans at most half of L1: the
 * small path packs no such block (small.c's tg__small_pack_all, whose first test this is). */
TG__ALWAYS_INLINE int tg__small_in_half_l1(int64_t kb, int64_t row_bytes)
{
    return kb * row_bytes <= tg__cpu()->l1d / 2;
}

/* Whether an A of m rows in place takes a B of b_bytes, whose rows are contiguous, two whole
 * panels at a time (small.c's tg__small_pairs has the measurements): up to two row tiles unless
 * every panel is packed (pack_all); a taller A where B is within L1 (zmm at full width) or a
 * quarter of L3 (zmm split). small.c's tg__small_pairs adds a taller A whose k block's strip of
 * two panels fits half of L1. */
TG__ALWAYS_INLINE int tg__small_pairs_fit(const tg__kernel *kern, int64_t m, double b_bytes,
                                          int pack_all)
{
    const tg__cpuinfo *cpu;
    if (m <= 2 * kern->mr) return !pack_all;
    cpu = tg__cpu();
    return b_bytes <= (cpu->zmm_split ? (double)cpu->l3_plan / 4 : (double)cpu->l1d);
}

/* Whether a short A's whole panels of B (3 NR columns or more), B read in place, m rows of A and
 * b_bytes of B, go three at a time to the triple kernel: small.c's tg__small_triples has the rule's
 * measurements; gemm.c's tiny route asks it too. */
TG__ALWAYS_INLINE int tg__small_triples_short(const tg__kernel *kern, int64_t m, double b_bytes)
{
    const tg__cpuinfo *cpu;
    if (!kern->ukernel_triple || m > kern->short_m || (m + 7) / 8 >= (m + 5) / 6) return 0;
    cpu = tg__cpu();
    if (cpu->zmm_split)
        return m <= 8 && b_bytes > (double)cpu->l2 && b_bytes <= (double)cpu->l3_plan / 2;
    return b_bytes <= (m <= 8 ? (double)cpu->l3_plan / 2 : 2 * (double)cpu->l2);
}

/* The columns the triple kernel takes where `left` columns of B remain past those it took, whole
 * panels going three at a time (tg__small_triples_short; w the vector width, NR / 2): three panels
 * (6w), or where the rest ends in fewer, tiles of 3w where at most a vector of theirs is idle (a
 * partial one reads B through masks), or none: the rest, at most a panel, goes as a panel
 * (small.c's tg__small_panels has the measurements). */
static inline int64_t tg__triple_take(int64_t left, int64_t w)
{
    return left > 5 * w ? tg__min(left, 6 * w) : left >= 3 * w ? 3 * w : left > 2 * w ? left : 0;
}

/* Whether B, n columns read in place over m rows of A (k deep), is one 3W tile of the triple
 * kernel, which takes it on cores with full-width zmm, B within twice L2: exactly 3W wide (s 48
 * columns, d 24 in zmm; small.c's tg__small_triples has the measurements), or, under at most
 * seven rows (eight at most 8 deep), wider than a panel, the third vector partial (gemm.c's tiny
 * route, where the product is one call instead of a panel's and its last columns'; over more
 * rows the masked vector's FMAs lost: gemm.c). */
TG__ALWAYS_INLINE int tg__small_triple_one(const tg__kernel *kern, int64_t m, int64_t n,
                                           int64_t k, double b_bytes)
{
    const tg__cpuinfo *cpu = tg__cpu();
    const int64_t nr = kern->nr;
    return (2 * n == 3 * nr || ((m < 8 || (m == 8 && k <= 8)) && n > nr && 2 * n < 3 * nr)) &&
           kern->ukernel_triple && !cpu->zmm_split && b_bytes <= 2 * (double)cpu->l2;
}

/* Whether the last columns of C, n of them past B's whole panels, go as dot products with the rows
 * of A (small.c's tg__small_dots): at most TG__DOTS_COLS, A's rows contiguous along k (a_cs 1), a
 * k block of at most TG__DOTS_K (a column of B, copied where it is strided, fits a stack buffer)
 * and deep enough that n dot products, each ~kc / W vector steps and ~3 steps to sum its lanes and
 * store, take no more steps than the tile's kc broadcasts and FMAs a row. A panel of one or two
 * columns costs a tile kernel a broadcast of A and an FMA per row and k step, as many as a whole
 * panel (which shares each broadcast among two vectors), where dot products read A's rows a vector
 * at a time. The Xeon of results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, C 16 bytes off a line,
 * against the tiles (a copy of that build 0.97-1.02): one column s 33^3 1.26, 65^3 1.18, 97^3 1.13,
 * 64x33x4 1.10-1.12, 8x33x33 1.21, 40x33x100 1.36, 1000x33x64 1.29, d 17^3 1.19, 33^3 1.13, 49^3
 * 1.12, 65^3 1.04, 64x17x64 1.23, 40x17x100 1.23, NT s 33^3 1.34, d 17^3 1.29; two s 34^3 1.14,
 * 66^3 1.12, 64x34x16 1.10, d 34^3 1.07-1.08, d 18^3 0.96-1.01; 2 threads s 500x33x200 1.36, s
 * 128x65x128 1.20, d 200x17x100 1.23; AVX2 forced s 17^3 1.31, 64x17x64 1.42, d 9^3 1.09-1.11, d
 * 64x9x64 1.25, d 10^3 0.91 before the depth's bound, 0.985 after. Three columns lost (a first
 * trial: s 35^3 0.99, d 35^3 0.96).
 *
 * Two to TG__DOTS_BLOCK columns go to the family's dots (gemv_simd.inc's tg__dots: a group of
 * rows against all the columns at once, each row of A loaded once for them, the group's eight
 * sums reduced together), two of them under the bound above, three or four where B's columns are
 * contiguous along k (b_rs 1: NT, no copy), at most half a vector of the dots' family (fp32;
 * fp64's three ran 0.94-1.05 over 100 rows, d 100x19x16 NT 0.94-0.95) and from 16 deep. Copied,
 * they lost under 40 rows (NN s 16x36x32 0.91, 16x35x24 0.93) and gained over more (s 100x36x32
 * 1.11), which a rule on m cannot tell apart from a thread's part of the rows. The Xeon, ab-gemm
 * as below, against one column a call (a copy 0.96-1.02), grids of m 16, 40, 100, k 8-100, per
 * type 180 shapes (cpu/ab-dots-block/): two columns NN s 1.042, d 1.011, NT s 1.026, d 1.012 by
 * geometric mean; three and four NT s 1.104 and 1.117 (s 16x36x64 1.32, 40x20x64 1.30, s
 * 100x36x32 1.16), the lowest readings 0.91-0.98 (0.96-1.01 run again); s 34^3 NN 1.04, 36^3 NT
 * 1.17.
 * On AVX-512, over more than 8 rows, two to four columns go instead to the split dots
 * (tg__split_fit; gemv_simd.inc's tg__dots_split): each zmm holds KQ k steps of every column, so
 * that an FMA advances them all (2-4x fewer than the tile, whose 2-4 live lanes of AVX2's 8 took
 * an FMA a row and k step), B's strided columns gathered in place. The Xeon, ab-gemm as below,
 * against the build before (a copy 0.95-1.03), grids of m 8-100, k 8-200, tails of 2-4 columns
 * past a panel or a vector (768 shapes, cpu/ab-dots-split/): geometric mean NN s 1.15, d 1.10,
 * NT s 1.06, d 1.08; s 36^3 NN 1.29, 35^3 1.23, d 35^3 1.09; against OpenBLAS s 34^3-36^3 NN
 * 0.87-0.93 -> 1.03-1.15, s 64x20x64 0.83 -> 1.24. Not at 8 rows (d 8x12x200 NT 0.86) nor fp64's
 * four columns under 32 deep or 12 rows (d 100x20x8 0.90), where the tile or the dots above stay.
 *
 * A transposed (its rows adjacent: a_rs 1, its k steps a_cs apart) has no rows to take dots with;
 * there the columns go as products of A's columns with B's elements instead, each column of C a
 * vector of rows at a time (the kernel's gemv_cols: the GEMV rows form's narrow loop), kc ceil(m /
 * W) FMAs a column where the tile spends m kc, two columns in one pass (each vector of A loaded
 * once for both). Its fixed cost (the sums stored, C's column written apart) binds a small
 * product, hence the bounds, measured: from 8 rows and 96 multiply-adds, 8 deep for one column and
 * 12 for two (the Xeon: TN s 8x17x8 0.98, d 18x18x8 0.96 past them); one column from 4 deep over
 * 12 rows or more, where the masked tile's calls (a third of a TN s 16x33x5) outweigh the fixed
 * cost: the Xeon, ab-gemm as below, against the tile (a copy 0.96-1.05; cpu/ab-cols-shallow/), TN,
 * 4-7 deep, 16-40 rows geometric mean 1.06-1.28 by rows and depth (s 40x17x7 1.28), 12 rows
 * 0.99-1.09 (lowest d 12x9x5 0.93), 8 rows lost (d 8x9x4 0.72). A column a pass cost two columns
 * their calls and fp64 a second read of A from L2; against it, the pass of both read TN s 18^3
 * 1.06, d 1.09, 8x18x18 1.08 and 1.17, 32x18x18 1.16 and 1.11, d 64x18x300 1.10, 64x18x64 0.98. No
 * bound on m passes 12 rows, the fewest a thread's part of the rows has
 * (small.c's tg__rows_share), so a part decides as the whole product does. The Xeon, 1 thread,
 * ab-gemm, C 16 bytes off a line, against the tiles (a copy 0.97-1.03): TN s 17^3 1.27, 33^3
 * 1.36, 34^3 1.26, 17x17x64 1.55, 40x17x100 1.79, 100x17x100 1.68, 64x18x300 1.29, d 17^3 1.16,
 * 33^3 1.18, 64x9x64 1.58, 100x17x100 1.24; TT s 17^3 1.34, d 17x17x64 1.32; AVX2 forced TN s
 * 64x9x64 1.64, d 1.30; unchanged shapes 0.97-1.03
 * (`results/intel-xeon-l3-480m-2c/cpu/ab-axpy-cols/`). Then in one call over all of C's rows, up to
 * five vectors of them a pass (AVX-512's registers; AVX2 two), where it was a call for each 2W, and
 * each vector of A loaded once for both columns (GCC had folded it into both FMAs as a memory
 * operand: twelve loads for ten FMAs a row of A). The Xeon, ab-gemm as above, against 2W a call (a
 * copy 0.995-1.005 by geometric mean; grids of 72 shapes, m 8-100, k 24 and 100,
 * `cpu/ab-gemv-cols/`): geometric mean TN s 1.034, d 1.053, TT s 1.025, d 1.043; d 100x10x100 1.20,
 * s 34x18x100 1.14, d 64x18x64 1.13; the lowest readings 0.95-0.96 (s 8x17x100 TT, s 34x66x100 TT),
 * 0.98-1.02 run again. */
enum { TG__DOTS_COLS = 2, TG__DOTS_BLOCK = 4, TG__DOTS_K = 256 };
/* The family whose dots serve: AVX2's rather than AVX-512's, whose longer vectors leave more lanes
 * idle in the last k steps of such short rows and take more steps to sum (side by side, AVX-512's
 * against the tiles: s 64x33x8 1.06, s 34x34x8 0.85, d 18^3 0.94; 40x33x100 and d 49^3 the same
 * as AVX2's). */
TG__ALWAYS_INLINE const tg__kernel *tg__dots_kernel(const tg__kernel *kern)
{
    return kern->narrow ? kern->narrow : kern;
}
/* Whether n > TG__DOTS_COLS columns of C over a transposed A (its columns contiguous: a_rs 1) go
 * to the family's ukernel_cols (AVX-512: kernel_simd.inc), which computes them as n rows of Cᵀ,
 * 2n FMAs a k step for each 2W of C's rows, where the tile in C's orientation spends one a row
 * (split: the columns past a panel's vector, whose masked tile took two) or ceil(2n / W) of the
 * narrow family. Taken up to 7 columns (8 in fp32), where that is at most half the tile's (9/20
 * where n passes W/2, the narrow family's vector, whose second part-filled vector a row the
 * model overcounts), from 24 deep (its set-up and scatters: at 16, s 28x39x16 0.92, d 28x21x16
 * 0.93). Lost past the bounds: d 12x22x64 0.92 and 12x23x64 0.90 (6 and 7 columns), s 8x36x8
 * 0.91, a whole fp64 panel split in two (d 16^3 0.69). Out of line: inlined, the test cost
 * products it turns away 4-7% (TT s 16x40x16, column-major NT s 36x40x16). The Xeon of
 * results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm, C 16 bytes off a line, against the tiles (a
 * copy 0.97-1.03): TN s 35^3 1.20, 36^3 1.15, 20x20x24 1.14-1.18, 64x19x64 1.67, 64x36x64 1.30,
 * 100x20x100 1.47, 512x36x512 1.34, d 64x11x64 1.43, 64x12x64 1.31-1.35, 64x20x64 1.07; over
 * grids of 360 shapes a type (m 8-256, k 8-256, nine widths past a vector or a panel) geometric
 * mean TN s 1.074, d 1.022, TT s 1.076, d 1.027, column-major NT and TT s 1.03, d 1.00, NN and
 * AVX2 forced 1.00; the lowest readings there 0.92-0.95 (TT d 256x12x64 0.92-0.94, and some
 * shapes that do not take it, s 36x36x16 0.94-0.97 in every transpose: the code's layout).
 * cpu/ab-cols/ has the runs. */
TG__NOINLINE static int tg__cols_fit(const tg__kernel *kern, int64_t n, int64_t m, int64_t a_rs,
                                     int split)
{
    const int64_t w = kern->nr / 2, wide = 2 * n > w;
    int64_t tile, cols;
    if (n >= w || n > 8 || !kern->ukernel_cols || a_rs != 1) return 0;
    tile = split || !wide ? m : 2 * m;
    cols = 2 * n * tg__ceil_div(m, kern->nr);
    return wide ? 20 * cols <= 9 * tile : 2 * cols <= tile;
}
/* Whether n columns over A's rows (a_cs 1) go to the family's split dots (gemv_simd.inc's
 * tg__dots_split, AVX-512): two to four of them past a whole panel or vector, from 8 deep over
 * more than 8 rows, but where they fill the narrow family's vector (fp64's four, which its tile
 * spends no lane idle on) from 32 deep over 12 rows; a whole product as narrow (`whole`: the dots
 * then replace its one tile, with their set-up) from 24 deep over 12 rows, 32 deep where they
 * fill more than half that vector (fp64's three). fp32's five to eight (runs of two k steps) over
 * 12 rows, where B's columns are contiguous along k (b_rs 1) from 16 deep past a panel (32 for
 * eight, and whole), from B's rows from 64 deep: there the tiles read B in place, and at 32 deep
 * the runs' loads and merges lost (s 16x8x32 NN 0.88, 16x5x32 0.92; gathered, 0.73, 0.81). A
 * thread's part has at least 12 rows (small.c's tg__rows_share), so a part decides as the whole
 * product does. Measured on the Xeon of results/intel-xeon-l3-480m-2c alone: not where zmm is split
 * (Zen 4, whose gathers and scatters are slower), which keeps the tiles it was measured with. */
TG__ALWAYS_INLINE int tg__split_fit(const tg__kernel *kern, int64_t n, int64_t m, int64_t kc,
                                   int64_t b_rs, int whole)
{
    const int64_t w = tg__dots_kernel(kern)->nr / 2; /* the narrow family's vector */
    if (!kern->dots_split || n < 2 || n > kern->nr / 4 || kc > TG__DOTS_K || tg__cpu()->zmm_split)
        return 0;
    if (n > 4) return m >= 12 && kc >= (b_rs != 1 ? 64 : whole || n == w ? 32 : 16);
    if (whole) return m >= 12 && kc >= (2 * n > w ? 32 : 24);
    return n == w ? m >= 12 && kc >= 32 : m >= 9 && kc >= 8;
}
TG__ALWAYS_INLINE int tg__dots_fit(const tg__kernel *kern, int64_t n, int64_t m, int64_t a_rs,
                                   int64_t a_cs, int64_t b_rs, int64_t kc, int split)
{
    const tg__kernel *dk = tg__dots_kernel(kern);
    if (a_cs != 1 && n > TG__DOTS_COLS) return kc >= 24 && tg__cols_fit(kern, n, m, a_rs, split);
    if (a_cs == 1 && tg__split_fit(kern, n, m, kc, b_rs, 0)) return 1;
    if (a_cs == 1 && n > TG__DOTS_COLS)
        return dk->dots && b_rs == 1 && n <= TG__DOTS_BLOCK && 4 * n <= dk->nr && kc >= 16 &&
               kc <= TG__DOTS_K;
    if (n > TG__DOTS_COLS) return 0;
    if (a_cs != 1)
        return a_rs == 1 && m >= 8 &&
               ((kc >= 4 + 4 * n && m * kc >= 96) || (n == 1 && m >= 12 && kc >= 4));
    return kc <= TG__DOTS_K && n * (tg__ceil_div(kc, tg__dots_kernel(kern)->nr / 2) + 3) <= kc;
}
/* How many of the last panel's columns [j, j + n) go as dot products (or, A transposed, column
 * products: above): where whole panels come before it (j > 0), all n of them (n at most
 * TG__DOTS_COLS, or tg__cols_fit's), or, wherever the panel is, those past its one whole vector
 * (the vector's columns then a panel of their own, read whole, where the masked tile took two
 * vectors); 0 where tg__dots_fit says no. The Xeon, as above, against the dots of whole panels'
 * last columns alone (a copy 0.985-1.017): d 25^3 1.18, 26^3 1.03, 41^3 1.12, 42^3 1.035, 57^3
 * 1.09, 64x25x64 1.20, 100x41x100 1.07, s 49^3 1.24, 50^3 1.15, 81^3 1.16, 64x49x64 1.29; d 27^3, s
 * 51^3 and the shapes it leaves alone 0.99-1.01. A first panel so (j = 0, a B one vector and a
 * column or two wide), against the whole masked panel: s 17x17x64 1.46, 40x17x100 1.72, 100x18x100
 * 1.39, d 64x9x64 1.60, NT s 17^3 1.27; AVX2 forced s 64x9x64 1.57, 9x9x64 1.35. (The tiny route's
 * plain form asks only from 16 rows and 8 deep: gemm.c.)
 * A whole product narrower than a vector over a transposed A (narrow_t: j = 0, 3 to W/2 columns,
 * or up to W from 16 rows and 48 deep) goes to ukernel_cols as well, its columns as rows of Cᵀ,
 * where the masked or AVX2 tile spent a vector a row for a few live lanes. Under 9 rows, and for
 * more than W/2 columns shallower or shorter than that, it lost (d 8x3x24 0.92, 12x5x24 0.73,
 * 16x7x24 0.85, a first trial that took every width). The Xeon, 1 thread, ab-gemm, C 16 bytes
 * off a line, against the tiles (a copy 0.98-1.00), 172 shapes m 8-100, n 3-15, k 24 and 64
 * (results/intel-xeon-l3-480m-2c/cpu/ab-narrow-cols/): geometric mean TN s 1.21, TT s 1.35, d 1.13
 * and 1.26; s 100x3x64 2.3-2.5, 32x6x64 2.0-2.8, d 48x3x64 1.7-1.9, 100x5x64 1.4-1.6; column-major
 * NT and TT s 3x100x64 2.5, 6x100x64 1.6-1.8, d 3x100x64 1.9-2.0; lowest 0.92-0.98, on shapes it
 * leaves alone (d 8x3x24 and 8x7x24; d 8x3x24 reads 0.94 in NN too: the code's layout). */
TG__ALWAYS_INLINE int64_t tg__dots_cols(const tg__kernel *kern, int64_t j, int64_t n, int64_t m,
                                        int64_t a_rs, int64_t a_cs, int64_t b_rs, int64_t kc)
{
    const int64_t w = kern->nr / 2, t = n > w ? n - w : n;
    const int narrow_t = j == 0 && n <= w && n > TG__DOTS_COLS && a_cs != 1 && m > 8 &&
                         (2 * n <= w || (kc >= 48 && m >= 16));
    const int narrow_split =
        j == 0 && n <= w && a_cs == 1 && tg__split_fit(kern, n, m, kc, b_rs, 1);
    return (j > 0 || n > w || narrow_t || narrow_split) &&
                   tg__dots_fit(kern, t, m, a_rs, a_cs, b_rs, kc, n > w)
               ? t
               : 0;
}
/* C[0:m, 0:n] = alpha A B + beta C over one k block of kc (A's element (i, p) at a + (i a_rs + p
 * a_cs) elements, a_cs or a_rs 1; B's (p, j) at b + (p b_rs + j b_cs); C's rows rs_c apart): as m
 * n dot products by kern's narrow family where it has one (a_cs 1), else as n column products by
 * kern's GEMV rows form or, past TG__DOTS_COLS, as rows of Cᵀ by its ukernel_cols (tg__dots_fit,
 * tg__cols_fit). */
TG__PRIVATE void tg__small_dots(const tg__kernel *kern, int64_t m, int64_t n, int64_t kc,
                                const void *alpha, const char *a, int64_t a_rs, int64_t a_cs,
                                const char *b, int64_t b_rs, int64_t b_cs, const void *beta,
                                char *c, int64_t rs_c);

#endif /* TGEMM_CPU_H */
