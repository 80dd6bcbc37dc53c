/* The small-matrix path: no packing of A, packing of B only where it pays, no blocks but along k.
 *
 * For small products the blocked path's packing and buffers cost as much as the arithmetic (64^3 is
 * ~8k cycles of FMAs against ~2k cycles to pack A alone). Here the micro-kernel reads A straight
 * from the caller's matrix, whatever its strides, and reads B's rows in place when they are
 * contiguous and a whole register tile wide (or as wide as the kernel's nr_part, or any width where
 * the kernel reads partial rows through masks); only a transposed B or a partial column panel
 * otherwise is copied into a zero-padded panel (on the stack when it is small, so tiny calls never
 * allocate), and so is every panel when A is tall enough to reuse it. The same path serves a short
 * A (the kernel's short_m rows: two tiles for AVX2, four for AVX-512) of any size: each element of
 * B is used by so few tiles that packing it for reuse could not pay, but under two tiles a large B
 * is packed all the same, a page of each row at a time, because that is how it streams fastest
 * (tg__small_group), and over three or four a mid-sized one on a core with full-width AVX-512,
 * whose tiles would fetch it from L2 again each (tg__small_pack_all). AVX-512 takes a short A's
 * panels of B in place two at a time up to two tiles (tg__small_pairs; where zmm is split, any A's
 * within a quarter of L3, threads then splitting the rows) or, where tiles of eight rows pass over
 * B fewer times than tiles of six, three at a time (tg__small_triples, which then packs nothing).
 * Threads split the column panels, or the row tiles of a single one (a narrow B: gemm.c), which
 * needs no reduction, so results stay bitwise the same. A tall A over a few panels of B (cpu.h's
 * tg__small_rows_fits) goes the other way round, the rows mode: B packed whole or read in place, A
 * read once, a chunk of rows through every panel by the pair kernel, threads splitting the rows
 * (tg__small_rows).
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu.h"

enum { TG__STACK_PANEL = 4096, TG__KB_L2_ROWS = 128 };
/* k in blocks whose panel of B (kb x nr) fills half of L1: 256 for AVX2's 16-float and 8-double
 * panels on a 32 KiB L1, 128 for AVX-512's, twice as wide. A panel of B read in place touches one
 * row (one page, when B is wide) per k step, and a block's rows must stay in L1 and the TLB for the
 * panel's next tile. Zen 3, AVX2, 8x4096x4096 sgemm, one probe run each (the packed blocked path:
 * 21 GFLOP/s): without the kernel's prefetch, blocks of 512 ran at 12, of 256 or 128 at 21-22;
 * with it, 256 at 29 and 512 at 15-16; blocks of 16 to 64 lost to the reloads of C (12-17 in a
 * noisier run where 256 gave 19). With B packed a page group at a time (below), 128 and 256
 * measured the same (1.28 and 1.30 of in place). Zen 4, AVX-512, 1 thread, blocks of 128 against
 * 256 side by side (256 filled L1 with the panel alone): d 60x16x256 1.05, s 96x32x256 1.03,
 * s 8x4096x4096 1.07, s and d 16x768x768 1.02; 64 lost 2-3% at 96^3 and 128^3.
 *
 * But one panel of B (a narrow B, gemm.c) over an A of TG__KB_L2_ROWS rows or more, larger than
 * L2 and with its rows along k, takes blocks whose panel fills half of L2. Every block reads kb
 * elements of each row of A: at L1's depth, 512 bytes (AVX-512) of each of hundreds of rows a row
 * apart, which A, from L3 or memory, delivers at a fraction of its streaming rate; at L2's, each
 * tile reads its six rows in long runs, for a panel read from L2 rather than L1. Emerald Rapids,
 * ab-gemm against L1's depth (a copy of that build: 0.96-1.03), 1 thread: s 4096x32x4096
 * 1.79-2.19, s 1024x32x32768 1.90, d 1024x16x32768 1.43, d 8192x16x512 1.22-1.39, d 8192x8x512
 * 1.33-1.34, d 2048x16x512 1.11-1.17, s 8192x20x512 1.09, s 192x32x4096 1.12, d 96x16x4096
 * 1.00-1.14, s 2048x32x512 1.02-1.05, s 100000x16x64 1.01; B transposed (packed) s 4096x32x4096
 * 2.04, d 8192x16x512 1.35; AVX2 forced s 4096x16x4096 1.65, d 8192x8x512 1.12; 2 threads s
 * 4096x32x4096 2.01, d 8192x16x512 1.25, d 2048x16x512 1.22. It lost over fewer rows, whose runs
 * the prefetchers follow either way (s 8x32x100000 0.76, s 24x32x32768 0.86, s 36x32x16384 0.83,
 * d 36x16x8192 0.85, s 72x32x8192 0.97; s 128x32x4096 0.95 and d 1.05), and over a transposed A,
 * whose k steps each read a row of their own (s 4096x32x4096 0.59, s 2048x32x512 0.73, d
 * 60x16x4096 0.79). A block's depth follows from the shape alone, never from the threads, which
 * split the rows of that one panel (tg__rows_share). */
static int64_t tg__small_kb(const tg__kernel *kern, const tg__gemm *g, int64_t panels)
{
    const tg__cpuinfo *cpu = tg__cpu();
    const int64_t es = (int64_t)kern->es;
    const int deep = panels == 1 && g->a.cs == 1 && g->m >= TG__KB_L2_ROWS &&
                     (double)g->m * (double)g->k * (double)es > (double)cpu->l2;
    const int64_t kb = (deep ? cpu->l2 : cpu->l1d) / 2 / (kern->nr * es);
    return kb > TG__TINY ? kb : (int64_t)TG__TINY;
}

/* Threads for a product on this path: tg__threads_for's, but where zmm is split (Zen 4) the
 * AVX-512 family starts a team from 2^19 bytes' worth of multiply-adds (mnk es: 2^17 in float,
 * 2^16 in double, the same time a call). There, the same build at 2 threads against 1 (ab-gemm,
 * side by side): d 48^3 1.32, s 52^3 1.35, d 56^3 1.31, d 40x96x48 1.59, d 64x32x32 1.25, d
 * 24x64x48 1.21, s 8x128x128 1.18, s 256x128x4 1.39 (its rows split: tg__small_panels_all);
 * below the bound it lost or tied (s 40^3 0.96, s 46^3 1.01, d 32^3 1.00, d 24x48x48 0.89, whose
 * three panels split two to one), though d 40^3 ran 1.28 and s 48^3 1.16. Not the blocked path
 * (d 200x400x1, shallow past half of L2, 0.51) nor the AVX2 family forced there, whose threads
 * split narrower strips of C's rows (s 1000x64x4 0.71). */
enum { TG__TEAM_BYTES_ZMM_SPLIT = 1 << 19 };
/* And where B's panels are packed (packs), a team only from TG__TEAM_BYTES_PACKED of
 * multiply-adds (mnk es, 3 MiB: s ~92^3, d ~73^3; the rows mode starts past it): split by rows
 * (C off a line), each thread packs every panel again, and split by panels, the threads share
 * C's lines. The Xeon of
 * results/intel-xeon-l3-105m-2c, ab-gemm, 2 threads against 1 before (ab-team-packed/): NT, TT
 * and column-major TN, s 64^3 0.65-0.86, 96x64x64 0.72-0.95, 128x64x64 0.82-1.00, 64x64x128
 * 0.88-0.93, d 64^3 0.85-0.94; a team from 4 MiB (2 lines each) lost s 96^3 (1.04-1.11
 * before) and d 96x64x64 (0.93-1.33); from 3 MiB, against the build before at 2 threads: s
 * 64^3 1.29-1.43, 96x64x64 1.22-1.36, 128x64x64 1.06-1.20, 64x64x128 1.07-1.12, d 64^3
 * 1.05-1.19, 96^3 0.96-1.08. d 80^3 still loses at 2 threads (0.89-0.97 of 1). The panels'
 * split was lower still (s 0.51-0.86 to 96^3). */
enum { TG__TEAM_BYTES_PACKED = 3 << 20 };
TG__ALWAYS_INLINE int tg__small_threads(const tg__kernel *kern, const tg__gemm *g, int packs)
{
    const double bytes = (double)g->m * (double)g->n * (double)g->k * (double)kern->es;
    if (packs && bytes < TG__TEAM_BYTES_PACKED) return 1;
    return bytes >= TG__TEAM_BYTES_ZMM_SPLIT && kern->ukernel_pair && tg__cpu()->zmm_split
               ? tg__threads_team()
               : tg__threads_for(g->m, g->n, g->k);
}

/* The depth of k's blocks: all of k up to TG__TINY (no block is shallower), which spares a tiny
 * product tg__small_kb's call and its division. */
TG__ALWAYS_INLINE int64_t tg__small_block(const tg__kernel *kern, const tg__gemm *g, int64_t panels)
{
    return g->k <= TG__TINY ? g->k : tg__min(g->k, tg__small_kb(kern, g, panels));
}

/* Columns [j, j + n) of C, n <= nr, for one k block of kc from pc (beta_now: beta or 1). Inlined
 * into its callers: as a call it cost an 8^3 product 5-6% (Zen 4, side by side). */
TG__ALWAYS_INLINE void tg__small_panel(const tg__kernel *kern, const tg__gemm *g,
                                       const void *alpha, const void *beta_now, int64_t pc,
                                       int64_t kc, int64_t j, int64_t n, char *panel, int pack_all)
{
    const int64_t es = (int64_t)kern->es;
    const char *a = (const char *)g->a.p + pc * g->a.cs * es;
    const char *b = (const char *)g->b.p + (pc * g->b.rs + j * g->b.cs) * es;
    int64_t rs_b = g->b.rs;
    if (tg__panel_packs(kern, n, g->b.cs, pack_all)) {
        kern->pack_b(n, kc, b, g->b.rs, g->b.cs, panel);
        b = panel;
        rs_b = kern->nr;
    }
    tg__panel_ukernel(kern, g->m, n, kc)(kc, alpha, a, g->a.rs, g->a.cs, g->a.rs, b, rs_b, beta_now,
                                         (char *)g->c + j * es, g->rs_c, 1, g->m, n);
}

/* How many column panels of B to pack together, a page of each of their rows (0: none; then each
 * panel is read in place or packed alone). A panel of B read in place is one line per k step, each
 * in another page when B is wide: the hardware prefetchers follow none of it, and the kernel's own
 * prefetch keeps only a few lines in flight, so a B that comes from L3 or DRAM arrives at a
 * fraction of the bandwidth (8x4096x4096 sgemm read B at ~9 of the 17 GB/s one core streams). Packed
 * a page of each row at a time, every row is read as a whole page, which the prefetchers stream.
 * Measured side by side (1 thread, Zen 3, against B in place, or against the blocked path where
 * fp64 took it): groups of 4 / 8 / 16 / 32 / 64 panels on sgemm 8x4096x4096 gave 0.87 / 0.97 / 1.04
 * / 1.07 / 1.30 (a page per row is the step), 128 and 256 panels 1.23 and 1.16. With groups of a
 * page: sgemm 8x4096x4096 1.21-1.30 (four runs), 8x8192x512 1.44-1.52, 8x1024x1024 1.29,
 * 4x4096x4096 1.27, 12x1024x1024 1.09, dgemm 8x4096x4096 1.13, 8x1024x1024 1.26, 8x512x512 1.31;
 * 2 threads: s 8x4096x4096 1.14, 8x8192x512 1.44, d 8x4096x4096 1.36. Where it loses: a row
 * shorter than a page (s 8x384x384 0.90, s 12x512x512 0.92), and a single row tile over a B that L3
 * holds, where in-place reads keep up with so few FMAs per line (d 6x1024x1024 0.82, d 4x1024x1024
 * 0.85, s 4x2048x2048 0.93); from DRAM it wins there too (s 4x4096x4096 1.27, d 4x4096x4096
 * 1.06). Hence: rows of at least a page, and a B larger than L2 under two row tiles, than half of
 * L3 under one. But where zmm is split (Zen 4) AVX-512 reads two row tiles' B in place from L3
 * faster (the pairs, four lines of each row a k step, or for 7-8 rows the triples: small.c's
 * tg__small_triples): ab-gemm, 1 thread, in place against groups, d 12x1024x1024 1.44, s
 * 10x2048x1024 1.45, s 12x1024x1024 1.40, d 9x700x700 1.43, s 11x4096x512 1.55; from DRAM groups
 * still win (in place: s 8x4096x4096 0.80, d 12x2048x2048 0.82), so there the bound is half of L3
 * for both (against the L2 bound, 2 threads: 1.38-1.56 on those shapes). */
/* B's bytes, as the caller holds them: what the bounds below weigh against the caches. */
static double tg__small_b_bytes(const tg__kernel *kern, const tg__gemm *g)
{
    return (double)g->k * (double)g->n * (double)kern->es;
}

TG__NOINLINE static int64_t tg__small_group(const tg__kernel *kern, const tg__gemm *g, int paged)
{
    const int64_t es = (int64_t)kern->es, nr = kern->nr, panels = tg__ceil_div(g->n, nr);
    const int64_t group = TG__PAGE / (nr * es) > 1 ? TG__PAGE / (nr * es) : 1;
    const double bytes = tg__small_b_bytes(kern, g);
    const tg__cpuinfo *cpu = tg__cpu();
    /* (two row tiles group a B past L2, but where zmm is split: see above) */
    const int from_l2 = g->m > kern->mr && !(cpu->zmm_split && kern->ukernel_pair);
    if (!paged && (g->m > 2 * (int64_t)kern->mr || g->b.cs != 1 || g->n * es < TG__PAGE ||
                   bytes <= (from_l2 ? (double)cpu->l2 : (double)cpu->l3_plan / 2)))
        return 0;
    return group < panels ? group : panels;
}

/* A last panel's last columns as dot products (cpu.h's tg__dots_cols says which): two to eight in
 * one call of the family's split dots (AVX-512, tg__split_fit), which read B in place, else one
 * gemv_dots call a column of B, which it reads as a contiguous x, or two to four columns in one
 * call of the narrow family's dots (tg__dots_fit), B's columns copied first where strided. A
 * transposed, as column products: one gemv_cols call for all of C's rows (the rows form's narrow
 * loop, both columns in one pass), A's columns (its rows in the transposed view) the matrix's
 * rows and B's columns the rows of x. */
/* Three to eight columns of C over a transposed A (cpu.h's tg__cols_fit) in blocks of its rows,
 * nr at a time, each by the family's ukernel_cols. Out of line, so that tg__small_dots keeps the
 * frame its GEMV calls had (inside it, the call cost TN d 128x10x24, which makes none, 5-7%). */
TG__NOINLINE static void tg__small_cols(const tg__kernel *kern, int64_t m, int64_t n, int64_t kc,
                                        const void *alpha, const char *a, int64_t a_cs,
                                        const char *b, int64_t b_rs, int64_t b_cs,
                                        const void *beta, char *c, int64_t rs_c)
{
    const int64_t es = (int64_t)kern->es;
    for (int64_t i = 0; i < m; i += kern->nr)
        kern->ukernel_cols(kc, alpha, b, b_rs, b_cs, a + i * es, a_cs, beta, c + i * rs_c * es,
                           rs_c, n, tg__min(kern->nr, m - i));
}

TG__PRIVATE void tg__small_dots(const tg__kernel *kern, int64_t m, int64_t n, int64_t kc,
                                const void *alpha, const char *a, int64_t a_rs, int64_t a_cs,
                                const char *b, int64_t b_rs, int64_t b_cs, const void *beta,
                                char *c, int64_t rs_c)
{
    const int64_t es = (int64_t)kern->es;
    double x[TG__DOTS_BLOCK * TG__DOTS_K]; /* strided columns of B, contiguous */
    if (a_cs != 1 && n > TG__DOTS_COLS) {
        tg__small_cols(kern, m, n, kc, alpha, a, a_cs, b, b_rs, b_cs, beta, c, rs_c);
        return;
    }
    if (a_cs != 1) {
        kern->gemv_cols((int)n, m, kc, alpha, b, b_rs, b_cs, a, a_cs, beta, c, rs_c, 1);
        return;
    }
    /* (the bounds past a panel, which hold wherever a whole narrow product's do; the split dots
     * gather B's runs through 32-bit offsets: past them, strides summing past 2^31 / nr
     * elements, the columns go as below, five to eight (B contiguous along k, never copied) one
     * at a time) */
    if (tg__split_fit(kern, n, m, kc, b_rs, 0) &&
        (double)kern->nr * (double)(b_rs + b_cs + rs_c) < 2147483648.0) {
        kern->dots_split((int)n, m, kc, alpha, b, b_rs, b_cs, a, a_rs, beta, c, rs_c);
        return;
    }
    kern = tg__dots_kernel(kern);
    if (b_rs != 1) {
        /* B's columns strided: copied, a row of its n elements a step, each into its column's
         * run of x */
        if (es == (int64_t)sizeof(float))
            for (int64_t p = 0; p < kc; p++)
                for (int64_t j = 0; j < n; j++)
                    ((float *)x)[j * kc + p] = ((const float *)b)[p * b_rs + j * b_cs];
        else
            for (int64_t p = 0; p < kc; p++)
                for (int64_t j = 0; j < n; j++)
                    x[j * kc + p] = ((const double *)b)[p * b_rs + j * b_cs];
        b = (const char *)x;
        b_cs = kc;
    }
    if (kern->dots && n > 1 && n <= TG__DOTS_BLOCK) {
        kern->dots((int)n, m, kc, alpha, b, b_cs, a, a_rs, beta, c, rs_c);
        return;
    }
    for (int64_t j = 0; j < n; j++)
        kern->gemv_dots(m, kc, alpha, b + j * b_cs * es, 1, a, a_rs, beta, c + j * es, rs_c);
}

/* Columns [j, j + n) of C, n <= nr, one panel of the family fam, in k's panels: k, the family's
 * kernel, or its narrow one where tg__use_narrow chose it for this width; the last few, where
 * cpu.h's tg__dots_cols says, the family's dot products with A's rows or, A transposed, its
 * column products (tg__small_dots). */
TG__ALWAYS_INLINE void tg__small_column(const tg__kernel *fam, const tg__kernel *k,
                                        const tg__gemm *g, const void *alpha,
                                        const void *beta_now, int64_t pc, int64_t kc, int64_t j,
                                        int64_t n, char *panel, int pack_all)
{
    const int64_t t = tg__dots_cols(fam, j, n, g->m, g->a.rs, g->a.cs, g->b.rs, kc);
    const int64_t es = (int64_t)k->es;
    for (int64_t jj = 0; jj < n - t; jj += k->nr)
        tg__small_panel(k, g, alpha, beta_now, pc, kc, j + jj, tg__min(k->nr, n - t - jj), panel,
                        pack_all);
    if (t)
        tg__small_dots(fam, g->m, t, kc, alpha, (const char *)g->a.p + pc * g->a.cs * es,
                       g->a.rs, g->a.cs,
                       (const char *)g->b.p + (pc * g->b.rs + (j + n - t) * g->b.cs) * es,
                       g->b.rs, g->b.cs, beta_now, (char *)g->c + (j + n - t) * es, g->rs_c);
}

/* Whether a short A's whole column panels of B, read in place, go two at a time to the pair kernel
 * (kernel_simd.inc's tg__pair_tile, tiles of up to six rows by 4W): each k step then reads four
 * lines side by side from each row of B instead of two, and where B comes from L2 that is what
 * binds a tile this short (rows 1 KiB and more apart, one or two lines each, reach L1 at ~14 bytes
 * a cycle on Emerald Rapids). Emerald Rapids, 1 thread, ab-gemm, against the 2W tiles: s 4x256x256
 * 1.32, d 4x256x256 1.27, s 4x1024x256 1.30, d 4x128x512 1.41, s 3x256x256 1.14 (with six rows of
 * FMAs for four useful: a first trial); from memory even (s 4x4096x4096 1.01). Up to two 6-row
 * tiles: s 5x256x256 1.53, s 6x256x256 1.44, d 6x256x256 1.41, s 8x512x256 1.40, s 12x256x256 1.46,
 * d 10x200x200 1.40, at 2 threads 1.25-1.32; over a B in L3 0.95-1.16 (d 6x1000x1000, s
 * 6x2048x1024). From 13 rows B's panels are mostly packed (tg__small_pack_all), and where they are
 * not, over a B streamed from memory, the pairs lost the tiles' prefetch (s 16x4096x4096 0.66).
 * Where they pair, threads split the panels at pairs (tg__small_panels_all), so that every panel is
 * computed the same way whatever the thread count (the 1-3-row tile sums k in two chains, the pair
 * in one).
 *
 * Where zmm is split (Zen 4) a taller A pairs too, B in place whether or not its single panels
 * would be packed (up to a quarter of L3: from memory the pairs lose the tiles' prefetch there as
 * well, s 16x4096x4096 0.76): each k step's four lines of B and six broadcasts feed 24 FMAs where
 * the 2W tile has two and six for 12, and no panel is copied. Threads split the rows
 * (tg__rows_share) unless each would have as many pairs over a B past L1
 * (tg__small_panels_all). Zen 4, ab-gemm against the 2W tiles and
 * their split of the panels (a copy of that build: 0.99-1.01), 1 thread: s 64^3 1.02, d 1.07, d
 * 32^3 1.06, 96^3 1.03, 128^3 1.03, s 64x256x256 1.05, d 1.07, s 16x768x768 1.10, d 1.12, s
 * 16x1024x1024 1.24, d 1.28, s 7x512x256 1.28, d 8x512x256 1.24 (4 + 4 rows: tg__ukernel_pair),
 * others 0.99-1.02; 2 threads: s 64^3 1.08, s 96^3 1.28, s 64x256x256 1.20, d 1.08, d 72^3 1.06,
 * s 16x1024x1024 1.24, d 1.30, d 200x96x96 0.98, others 0.99-1.05.
 *
 * With full-width zmm a taller A pairs over a B within L1, whose four lines a k step the pair
 * reads with fewer loads for each FMA than the 2W tile (the 2W tile's k loop here: two loads of B,
 * two prefetches and six broadcasts for 12 FMAs). The Xeon of results/intel-xeon-l3-480m-2c,
 * ab-gemm, C_OFFSET=16, against the 2W tiles (a copy of that build: 0.97-1.02), 1 thread: s 64^3
 * 1.11, s 80^3 1.11, s 96^3 1.07, d 32^3 1.13, d 40^3-64^3 1.06-1.07, s 1000x64x4 1.77, s 256x256x4
 * 1.68, d 300x64x8 1.19; 2 threads (their rows split, B within L1) 1.02-1.27, C on a line
 * 1.00-1.35. Past L1 the 2W tiles' prefetch won where a k block's 4W strip of B outgrew half of L1
 * (s 128^3 0.94, d 0.89, s 64x256x256 0.97, d 0.87: blocks of 128 rows, 32 KiB strips). Where the
 * strip fits (a block at most 96 deep: 256 bytes a row) the pair reads it from L1 for every tile of
 * six rows, and A streams from L2 half as many times as the 2W tiles read it. The same Xeon,
 * ab-gemm, against the 2W tiles, 1 thread, 128 shapes (m 30-200, n 70-700, k 40 and 90, NN and TN;
 * results/intel-xeon-l3-480m-2c/cpu/ab-pairs-strip/): those it takes, geometric mean 1.056, lowest
 * 0.98; d 80^3 1.07, 88^3 1.05, 96^3 0.98-1.09 (with where A and B fall in lines), s 300x200x80
 * 1.07-1.12, d 1.06-1.11, d 100x700x90 1.12. Rows a multiple of 512 bytes apart put the strip in
 * a few of L1's sets, which it overflows (s 96x512x64 0.85, s 64x2048x64 0.83, d 96x1024x96 0.77,
 * d 200x256x32 0.87): those keep the 2W tiles. Not measured on the Zen 5, which takes the same
 * rules.
 *
 * A team splits a taller A's pairs by rows, each thread reading all of B (tg__small_panels_all),
 * where B is within L1, or past it where the panels do not go evenly in pairs to the threads: with
 * zmm split, or B within a quarter of L2 and three row tiles or more a thread. Past L1 a team that
 * would split neither way evenly takes no pairs. The Xeon, 2 threads, against the 2W tiles' split
 * of the panels: d 80^3 1.33 (5 panels, 2 + 3 a thread), d 96^3 1.15, d 128x96x96 1.11-1.17, s
 * 300x200x80 1.08, geometric mean 1.054 over the grid's shapes it takes; rows lost over a B past
 * a quarter of L2 (s 64x4000x64 0.86-0.90, d 0.93) and 2.5 tiles a thread (s 30x700x90 0.91), pairs
 * split unevenly too (s 30x300x90, five pairs: 0.91-0.93). */
static int tg__small_pairs_by_rows(const tg__kernel *kern, const tg__gemm *g, int64_t panels,
                                   int threads)
{
    const tg__cpuinfo *cpu = tg__cpu();
    const double b_bytes = tg__small_b_bytes(kern, g);
    if (g->m <= kern->short_m) return 0;
    if (b_bytes <= (double)cpu->l1d) return 1;
    if (panels % (2 * threads) == 0) return 0;
    return cpu->zmm_split ||
           (b_bytes <= (double)cpu->l2 / 4 && g->m / kern->mr >= 3 * (int64_t)threads);
}

static int tg__small_pairs(const tg__kernel *kern, const tg__gemm *g, int64_t kb, int pack_all,
                           int64_t panels, int threads)
{
    const int64_t es = (int64_t)kern->es;
    if (!kern->ukernel_pair || g->b.cs != 1) return 0;
    if (tg__small_pairs_fit(kern, g->m, tg__small_b_bytes(kern, g), pack_all)) return 1;
    if (g->m <= 2 * kern->mr || tg__cpu()->zmm_split || (g->b.rs * es) % 512 == 0 ||
        !tg__small_in_half_l1(tg__min(kb, g->k), 2 * kern->nr * es))
        return 0;
    return threads == 1 || tg__small_pairs_by_rows(kern, g, panels, threads) ||
           tg__ceil_div(panels, 2) % threads == 0;
}

/* Whether a short A's whole column panels of B, read in place, go three at a time to the triple
 * kernel (kernel_simd.inc's tg__tile8, tiles of up to eight rows by 3W): where tiles of eight
 * rows take fewer passes over B than the pair's tiles of six (7-8, 13-16, 19-24 rows), on a core
 * with full-width AVX-512 (not measured on the Zen 5). Emerald Rapids, ab-gemm against c1fc3ba, 1
 * thread: 1.10-1.66x in a first run (a copy of c1fc3ba: 0.98-1.04; s 8x512x256 1.49, s 16x768x768
 * 1.42, d 7x256x256 1.57, d 8x1024x1024 1.66), 0.99-1.47x in a noisier one (0.95-1.11;
 * results/.../cpu/ab-short-triples/: s 8x1024x1024 1.46, d 16x240x256 1.47, s 13x512x512 1.26, s
 * 21x256x256 0.99, 1.11 in a rerun); at 2 threads 0.87-1.54x, the losses over B eight panels wide,
 * which splits 3 + 5 at triples where pairs split it 4 + 4 (s 7x256x256 0.87, s 21x256x256 0.88).
 * Over a larger B, a first trial lost to the page groups or packed panels: read once (up to eight
 * rows), past half of L3's share (d 7x2048x2048, 32 MiB, 0.66, s 8x4096x4096 0.70); read two or
 * three times, past twice L2 (d 13x768x768, 4.6 MiB, 0.93, d 14x1024x1024 0.92). Where they apply,
 * B is neither packed nor grouped, and the threads split the panels at triples.
 *
 * Where zmm is split (Zen 4) the pairs serve as well from L2 (ab-gemm, 1 thread, triples against
 * them: s 8x512x256 0.96, s 16x768x768 1.00, s 14x256x256 0.98, d 24x300x300 0.98), and only 7-8
 * rows over a B past L2, which would go in page groups, take the triples (one pass over B from L3
 * instead of a packing one): 1 thread d 8x700x700 1.49, d 8x1024x1024 1.40, s 7x4096x512 1.40, d
 * 8x512x512 1.38, s 8x1024x1024 1.34; 2 threads 1.27-1.40 (s 8x768x768, not grouped, 0.99-1.00).
 *
 * A B exactly 3W wide (s 48 columns, d 24), of any height, is one triple's 3W tile: no idle
 * vector, where the pair's 4W tile leaves one (or the 2W tile and the narrow family's make two
 * passes), on full-width cores, B within twice L2; threads split its rows (tg__small_panels_all).
 * The Xeon of results/intel-xeon-l3-480m-2c, ab-gemm, C_OFFSET=16, against the pairs (a copy:
 * 0.99-1.01), 1 thread: d 24^3 1.15, s 48^3 1.11, s 8x48x512 1.21, s 24x48x24 1.16, d 16x24x64
 * 1.14, d 48x24x48 1.11, s 96x48x96 1.11, d 100x24x100 1.10, d 64x24x8 1.12, taller A 0.99-1.02 (s
 * 2000x48x48, d 4096x24x64). A B narrower than 3W lost to the masked third vector (d 20^3 0.89,
 * s 40^3 0.87, s 44^3 0.94, s 64x40x64 0.90). */
TG__ALWAYS_INLINE int tg__small_triples(const tg__kernel *kern, const tg__gemm *g)
{
    /* B exactly one 3W tile wide (above) */
    const int one = 2 * g->n == 3 * (int64_t)kern->nr;
    double bytes;
    /* (the width first: a tiny product's call returns at the first test; both rules ask whether
     * the family has the kernel) */
    if ((g->n < 3 * (int64_t)kern->nr && !one) || g->b.cs != 1) return 0;
    bytes = tg__small_b_bytes(kern, g);
    return one ? tg__small_triple_one(kern, g->m, g->n, g->k, bytes)
               : tg__small_triples_short(kern, g->m, bytes);
}

/* Column panels [jp0, jp1) of C, k in blocks of kb; panel is scratch for one kb-deep packed panel
 * of B. unit: whole panels of B read in place three (tg__small_triples) or two (tg__small_pairs)
 * at a time, or one, and last_kern the kernel of a last panel narrower than nr (tg__use_narrow),
 * each chosen once for the whole product (g may be a thread's rows of it). */
static void tg__small_panels(const tg__kernel *kern, const tg__kernel *last_kern, const tg__gemm *g,
                             const void *alpha, const void *beta, int64_t jp0, int64_t jp1,
                             int64_t kb, char *panel, int pack_all, int64_t unit)
{
    const int64_t nr = kern->nr, es = (int64_t)kern->es;
    const int pairs = unit == 2, triples = unit == 3;
    for (int64_t pc = 0; pc < g->k; pc += kb) {
        const int64_t kc = g->k - pc < kb ? g->k - pc : kb;
        const void *beta_now = pc == 0 ? beta : tg__one(kern->es);
        /* A's k block, for the triples and pairs, which read A and B in place */
        const char *a = (const char *)g->a.p + pc * g->a.cs * es;
        for (int64_t jp = jp0; jp < jp1; jp++) {
            const int64_t j = jp * nr, n = tg__min(nr, g->n - j);
            const char *b = (const char *)g->b.p + (pc * g->b.rs + j) * es;
            char *c = (char *)g->c + j * es;
            if (triples) {
                /* Three whole panels in two 3W tiles; where the last range ends in fewer than
                 * three, tiles of 3W where at most a vector of theirs is idle (a partial one reads
                 * B through masks), the rest, at most a panel, by this family's kernel, which reads
                 * a partial panel in place through masks too (so never into the scratch panel,
                 * sized for the last panel alone). Emerald Rapids, 1 thread, ab-gemm, that end
                 * against whole triples and then panels (a copy of that build: 0.99-1.02): s
                 * 8x282x256 1.18, s 16x240x256 1.10, s 24x150x150 1.09, s 8x256x256 1.07, d
                 * 8x130x256 1.04, others 0.98-1.03. */
                const int64_t w = nr / 2, left = g->n - j, take = tg__triple_take(left, w);
                if (take)
                    kern->ukernel_triple(kc, alpha, a, g->a.rs, g->a.cs, b, g->b.rs, beta_now, c,
                                         g->rs_c, g->m, take);
                if (left >= 6 * w) {
                    jp += 2;
                    continue;
                }
                if (left > take)
                    tg__small_column(kern, kern, g, alpha, beta_now, pc, kc, j + take, left - take,
                                     panel, pack_all);
                break;
            }
            if (pairs && jp + 1 < jp1 && g->n - j >= 2 * nr) {
                kern->ukernel_pair(kc, alpha, a, g->a.rs, g->a.cs, b, g->b.rs, nr, beta_now, c,
                                   g->rs_c, g->m, 2 * nr);
                jp++;
                continue;
            }
            tg__small_column(kern, n < nr ? last_kern : kern, g, alpha, beta_now, pc, kc, j, n,
                             panel, pack_all);
        }
    }
}

/* The same with B packed `group` panels at a time into buf, by one pack_b call each, so that it
 * reads each row's page in one sweep. The last panel is a zero-padded whole one here. */
TG__NOINLINE static void tg__small_groups(const tg__kernel *kern, const tg__gemm *g,
                                          const void *alpha, const void *beta, int64_t jp0,
                                          int64_t jp1, int64_t kb, char *buf, int64_t group)
{
    const int64_t nr = kern->nr, es = (int64_t)kern->es;
    for (int64_t pc = 0; pc < g->k; pc += kb) {
        const int64_t kc = g->k - pc < kb ? g->k - pc : kb;
        const void *beta_now = pc == 0 ? beta : tg__one(kern->es);
        const char *a = (const char *)g->a.p + pc * g->a.cs * es;
        for (int64_t jg = jp0; jg < jp1; jg += group) {
            const int64_t jg1 = jp1 - jg < group ? jp1 : jg + group;
            const int64_t cols = (jg1 * nr < g->n ? jg1 * nr : g->n) - jg * nr;
            kern->pack_b(cols, kc, (const char *)g->b.p + (pc * g->b.rs + jg * nr * g->b.cs) * es,
                         g->b.rs, g->b.cs, buf);
            for (int64_t jp = jg; jp < jg1; jp++) {
                const int64_t j = jp * nr, n = g->n - j < nr ? g->n - j : nr;
                kern->ukernel(kc, alpha, a, g->a.rs, g->a.cs, g->a.rs, buf + (jp - jg) * nr * kc * es,
                              nr, beta_now, (char *)g->c + j * es, g->rs_c, 1, g->m, n);
            }
        }
    }
}

/* One thread's share, panels [jp0, jp1), in whichever way B is read. */
static void tg__small_range(const tg__kernel *kern, const tg__kernel *last_kern, const tg__gemm *g,
                            const void *alpha, const void *beta, int64_t jp0, int64_t jp1,
                            int64_t kb, char *buf, int pack_all, int64_t group, int64_t unit)
{
    if (group)
        tg__small_groups(kern, g, alpha, beta, jp0, jp1, kb, buf, group);
    else
        tg__small_panels(kern, last_kern, g, alpha, beta, jp0, jp1, kb, buf, pack_all, unit);
}

/* Whether every panel of B is copied (pack_all).
 *
 * Not under a short A (at most the kernel's short_m rows: two tiles for AVX2, four for AVX-512):
 * each panel then serves few tiles and a copy does not pay. AVX-512, Zen 4, 1 thread, four tiles
 * against two, side by side: s 16x768x768 1.18, d 1.20, s 18x512x512 1.24, d 16x64x64 1.18,
 * d 24x64x64 1.11, s 16x128x1024 1.14, d 20x128x128 1.07. AVX2 keeps two: in place lost s
 * 16x128x1024 0.83 and d 20x128x128 0.89 there, and from five tiles on it was 0.93-1.11 in zmm too.
 * But the Zen 4 runs each zmm FMA as two halves, and a B panel that aliases in L1 (below) is
 * fetched from L2 again for each of the three or four tiles at half the rate a full-width core
 * needs it: on Emerald Rapids (two full 512-bit FMA units) the three and four tiles wait on those
 * loads (perf: the samples pile up on the FMAs after B's loads). There they pack where B is wider
 * than two panels and larger than L1 but within half of L3: ab-gemm, 1 thread, against in place
 * (a copy of that build: 0.97-1.05): s 16x768x768 1.07-1.19, d 1.06-1.16, s 24x768x256 1.29,
 * s 24x2048x2048 1.13, s 20x4096x1024 1.14, s 20x96x512 1.13, s and d 16x128x128 1.26 and 1.24,
 * d 24x128x128 1.27, d 16x256x256 1.23, d 20x512x512 1.22; 2 threads s 16x768x768 1.13, d 1.11,
 * s 24x768x256 1.17, d 20x512x512 1.25. Outside those bounds packing lost: B two panels wide,
 * whose rows lie close enough for the prefetchers (s 16x64x256 0.88-0.90, s 16x64x1024 0.88, d
 * 16x32x512 0.89), within L1 (d 16x64x64 0.81, d 24x64x64 0.90), from DRAM (s 16x4096x4096 0.80,
 * d 0.76). Not measured on the Zen 5 (full-width FMAs, as here), which takes the same rule. Where
 * the triple kernel applies (tg__small_triples: 13-16 and 19-24 rows within twice L2) it reads B in
 * place and beats both (s 16x768x768 1.42 over the packed panels).
 *
 * A taller A re-reads each panel more often, and a panel read in place (kc rows a leading
 * dimension apart, often a multiple of a large power of two) falls into a few cache sets and is
 * evicted between tiles (64x4096x64: 78 GFLOP/s in place, 119 packed; Zen 3, side by side at 1
 * thread: 16x768x768 +5.5% packed in both precisions, d 16x256x256 +7.5%, s 16x128x1024 +20%,
 * s 18x512x512 -1.4%) -- unless the block's rows spread over enough sets that nothing evicts
 * them, and the copy is pure cost. Rows R bytes apart start in 4096 / gcd(R, 4096) of the places
 * a 4 KiB span of L1 sets offers (a 32 KiB 8-way L1 indexes 4 KiB), so kb rows stack
 * kb * gcd(R, 4096) / 4096 lines deep on each set; B stays in place while that is under half of
 * L1's ways, kb * gcd(R, 4096) below half of L1. Zen 4, 1 thread, against the previous rule (the
 * whole span of rows, kb * R, within half of L1), side by side: AVX-512 d 48^3 1.05-1.08, d 56^3
 * 1.05, s 80^3 1.05, d 80^3 1.03, s 96^3 1.02, s 112^3 1.02; AVX2 d 48^3 1.05-1.10, d 56^3
 * 1.04-1.05, s 80^3 1.03. Allowing the ways full (kb * gcd within all of L1) took AVX2 d 64^3 to
 * 0.90. Blocks deeper than 96 keep the previous rule: there AVX2 lost in place on sets far from
 * full (s 104^3-120^3, 0.71-0.99 from run to run; the cause is not known). Zen 3 measured neither
 * change; its figures for the previous rule, against libxsmm, s 24^3 0.80 -> 0.85, 48^3 0.96 ->
 * 1.03, d 24^3 0.92 -> 1.05, are shapes both rules read in place. At exactly half the ways the
 * panel is evicted too: Emerald Rapids (12-way 48 KiB L1; 96 k steps of rows 256 bytes apart, or
 * an odd multiple of that), 1 thread, ab-gemm, packed against in place (a copy of the in-place
 * build: 0.99-1.03): d 96^3 1.35-1.37, d 200x96x96 1.35, d 48x160x96 1.22, s 64x192x96 1.26,
 * s 100x320x96 1.26, s 96x64x96 1.02. But a block whose whole span, kb R, is half of L1 stays in
 * place (its rows are adjacent lines, which the prefetchers follow): Zen 4 (8-way 32 KiB L1), 1
 * thread, ab-gemm, in place against packed (a copy of the packing build: 0.99-1.01): s 32x32x4096
 * 1.11, s 48x32x128 1.06, s 64^3 1.04, d 64x32x64 1.04, d 64x64x32 1.01; AVX2 forced s 64^3
 * 1.035, d 64x32x64 1.045, s 48x32x128 1.05. Zen 4 would keep stacked rows at exactly half in
 * place too (s 64x192x64 1.03, d 96x96x64 1.02), Emerald Rapids not; they are packed. */
TG__ALWAYS_INLINE int tg__small_pack_all(const tg__kernel *kern, const tg__gemm *g, int64_t kb)
{
    const tg__cpuinfo *cpu = tg__cpu();
    const int64_t row = g->b.rs * (int64_t)kern->es, alias = tg__min(row & -row, TG__PAGE);
    const int64_t half = cpu->l1d / 2;
    double bytes;
    int short_a;
    /* The block's span first, inline: no block within half of L1 is packed, and a tiny product's
     * test ends here. As a call, asked whole, it cost tiny products on the direct path (the Xeon
     * of results/intel-xeon-l3-480m-2c, 1 thread, ab-gemm side by side, C 16 bytes off a line,
     * against the call (a copy of that build: 0.995-1.02): s 8^3 1.05-1.07, d 8^3 1.03, s 12^3
     * 1.02-1.03, d 12^3 1.01, s 16^3 1.03, d 6x16x4 1.04-1.05, s 24^3 and 32^3 1.00). */
    if (tg__small_in_half_l1(kb, row)) return 0;
    bytes = tg__small_b_bytes(kern, g);
    short_a = g->m <= kern->short_m &&
              (g->m <= 2 * kern->mr || cpu->zmm_split || g->n <= 2 * kern->nr ||
               bytes <= (double)cpu->l1d || bytes > (double)cpu->l3_plan / 2);
    return !short_a && kb * (kb > 96 ? row : alias) >= half;
}

/* Thread tid's rows of team, split at whole tiles of mr rows, each part at least two tiles and
 * the last one keeping the rows past the last whole tile (tiles = m / mr), so that every tile is
 * the one a single thread would run and the bits do not depend on the thread count: the part of
 * g as a product of its own. (AVX-512's 8-row tiles of a whole panel, kernel_simd.inc's
 * tg__rows8, group a part's rows otherwise than the whole's, but each of their elements is one
 * chain of FMAs along k, as in the 6-row tiles of four rows or more, so the bits are the same.) */
static tg__gemm tg__rows_share(const tg__kernel *kern, const tg__gemm *g, int64_t tid,
                               int64_t team, int64_t tiles)
{
    const int64_t es = (int64_t)kern->es, r0 = tiles * tid / team * kern->mr;
    tg__gemm part = *g;
    part.m = tid == team - 1 ? g->m - r0 : tiles * (tid + 1) / team * kern->mr - r0;
    part.a.p = (const char *)g->a.p + r0 * g->a.rs * es;
    part.c = (char *)g->c + r0 * g->rs_c * es;
    return part;
}

/* One thread's rows in the rows mode: k blocks of kb, each through every chunk of rows and pair of
 * panels before the next. bp: B packed whole (panels of all of k, a block kb rows of each); NULL:
 * B read in place. */
static void tg__small_rows_run(const tg__kernel *kern, const tg__gemm *g, const void *alpha,
                               const void *beta, const char *bp, int64_t kb)
{
    const int64_t es = (int64_t)kern->es, nr = kern->nr, panels = tg__ceil_div(g->n, nr);
    /* A chunk's rows of A, a k block deep, within a quarter of L2, where the second pair of panels
     * finds them. Zen 5, 1 thread, ab-gemm: one chunk of all rows ran s 8192x128x512 0.93x, s
     * 4096x100x1024 0.95x, d 8192x64x256 0.96x; an eighth or a half of L2 0.97-1.04x. */
    const int64_t fit = tg__cpu()->l2 / 4 / (kb * es) / kern->mr * kern->mr;
    const int64_t rows = panels <= 2 ? g->m : fit > 2 * kern->mr ? fit : 2 * kern->mr;
    for (int64_t pc = 0; pc < g->k; pc += kb) {
        const int64_t kc = tg__min(kb, g->k - pc);
        const void *beta_now = pc == 0 ? beta : tg__one(kern->es);
        for (int64_t i0 = 0, h; i0 < g->m; i0 += h) {
            char *c = (char *)g->c + i0 * g->rs_c * es;
            const char *a = (const char *)g->a.p + (i0 * g->a.rs + pc * g->a.cs) * es;
            /* the last chunk keeps the rows short of a whole one (a chunk is a whole number of
             * tiles) */
            h = g->m - i0 < 2 * rows ? g->m - i0 : rows;
            for (int64_t jp = 0; jp < panels; jp += 2) {
                const int64_t n = tg__min(2 * nr, g->n - jp * nr);
                const char *b = bp ? bp + (jp * g->k + pc) * nr * es
                                   : (const char *)g->b.p + (pc * g->b.rs + jp * nr) * es;
                const int64_t rs_b = bp ? nr : g->b.rs, ps_b = bp ? g->k * nr : nr;
                if (n > nr)
                    kern->ukernel_pair(kc, alpha, a, g->a.rs, g->a.cs, b, rs_b, ps_b, beta_now,
                                       c + jp * nr * es, g->rs_c, h, n);
                else
                    kern->ukernel(kc, alpha, a, g->a.rs, g->a.cs, g->a.rs, b, rs_b, beta_now,
                                  c + jp * nr * es, g->rs_c, 1, h, n);
            }
        }
    }
}

/* One thread's part of the rows mode: B packed whole into its own bp (all of k; NULL: B read in
 * place), then its rows. */
static void tg__small_rows_own(const tg__kernel *kern, const tg__gemm *g, const tg__gemm *part,
                               const void *alpha, const void *beta, char *bp, int64_t kb)
{
    if (bp) kern->pack_b(g->n, g->k, g->b.p, g->b.rs, g->b.cs, bp);
    tg__small_rows_run(kern, part, alpha, beta, bp, kb);
}

/* The rows mode (cpu.h's tg__small_rows_fits): A read in place a chunk of rows at a time by the
 * pair kernel, so that each element of A comes from memory once and feeds two panels' FMAs a
 * broadcast. B is read in place where cpu.h's tg__small_rows_in_place says so, otherwise packed
 * whole, once (within L2); either way in k blocks within half of L2 (all of k, where B fits
 * there, so that C is read and written once), and each block goes through all the rows before
 * the next, so that B comes from memory or L3 once and from L2 for every chunk. Chunks through
 * every block instead (B's blocks re-read for every chunk of a few dozen rows), with B packed
 * whole in one block however large: Emerald Rapids (2 MiB of L2, an L3 that gives a core ~27
 * GB/s), ab-gemm against that, 1 thread: d 4096x64x4096 1.36x (B is 2 MiB: 12-row chunks read
 * it all from L3), d 8192x64x8192 1.28x, s 4096x128x4096 1.12x, s 8192x128x8192 1.21x; 2
 * threads 1.24x, 1.11x, 1.05x, 1.06x; shapes whose B fits half of L2 are unchanged (0.98-1.05x).
 * Threads split the rows as for one panel: every tile starts at a multiple of mr rows, as every
 * chunk does, and the pair kernel's elements are single chains along each k block, so the bits
 * do not depend on the thread count. Each packs B whole into a copy of its own (B packed fits L2,
 * so a team of T holds at most T L2's worth), where the calling thread had packed one copy before
 * the team started (a d 64x64x1024 spent a quarter of its time there and ran no faster at 2
 * threads than at 1, 0.98x): the copies cost a pack a thread, but a thread that reads panels
 * another core packed waits on that core's cache. The Xeon of results/intel-xeon-l3-105m-2c, 2
 * threads, ab-gemm against the caller's packing (results/.../cpu/ab-rows-pack/): d 64x64x1024
 * 1.56x, 64x64x2048 1.55x, 128x64x1024 1.34x, 256x64x256 1.35x, 1031x40x110 1.09x, s 64x96x1024
 * 1.68x, 256x128x512 1.17x, 1031x40x110 1.13x; a taller A, whose packing weighs little, 0.93-1.02x
 * (2048x64x512, 4096x64x4096), as products this mode does not take read (0.95-1.05x). Threads
 * packing a share each of one copy, then a barrier, gained about half as much (d 64x64x1024
 * 1.12-1.17x). */
static int tg__small_rows(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                          const void *alpha, const void *beta)
{
    const int64_t tiles = g->m / kern->mr;
    const int in_place = tg__small_rows_in_place(kern, g);
    const int64_t b_row = tg__packed_b_row(kern, g);
    const int64_t fit = tg__cpu()->l2 / 2 / b_row;
    const int64_t kb = tg__min(g->k, fit > 0 ? fit : 1);
    char *bp = NULL;
    int nt = (int)tg__min(tg__small_threads(kern, g, !in_place), tiles / 2);
    if (!in_place) {
        bp = (char *)tg__alloc((size_t)(g->k * b_row * (nt > 1 ? nt : 1)));
        if (!bp) return tg__fail(TG_ERR_NOMEM, fn, "no memory for the packed panels of B");
    }
    if (nt <= 1) {
        tg__small_rows_own(kern, g, g, alpha, beta, bp, kb);
    } else {
        TG__OMP(omp parallel num_threads(nt))
        {
            const int tid = TG__THREAD_NUM();
            const tg__gemm part = tg__rows_share(kern, g, tid, TG__TEAM_SIZE(), tiles);
            tg__small_rows_own(kern, g, &part, alpha, beta, bp ? bp + tid * g->k * b_row : NULL,
                               kb);
        }
    }
    tg__free(bp);
    return TG_OK;
}

/* Whether threads splitting C's columns at multiples of unit panels would write parts of one
 * cache line: where a strip's first column is off a 64-byte line in some row (C from malloc is
 * often 16 bytes off one; or rows whose length is not a multiple of a line). The line then moves
 * from core to core at every row of every tile both threads store. On the Xeon of
 * results/intel-xeon-l3-480m-2c (two 512-bit FMA units), 2 threads, panels split, C 16 bytes off a
 * line against C on one (a throwaway driver alternating the two in one process): s 64^3 0.51 (below
 * 1 thread), s 128x64x64 0.49, s 256x256x4 0.25, d 64^3 0.80, s and d 96^3-256^3 0.84-0.94. Split
 * by rows instead, a thread shares at most the lines where its rows begin and end. There, 2
 * threads, ab-gemm with C_OFFSET=16, against the panels' split: s 64^3 1.47, s 96^3 1.49, s
 * 128x64x64 1.62, s 256x256x4 2.5, d 64^3 1.11, d 128^3 1.07, d 256^3 1.10; C on a line 0.98-1.07
 * (the same path). But each thread then reads all of B: past L1 and over few rows a thread, that
 * costs more than the shared lines (rows against panels, C off a line, 32 rows a thread: s
 * 64x256x256 0.89, d 0.97; 48 and more: s 96x256x256 1.08, d 1.11, s 128^3 1.00, d 1.03, s 192^3
 * 1.07): rows from TG__SHARED_LINES_ROWS a thread. */
enum { TG__LINE = 64, TG__SHARED_LINES_ROWS = 48 };
static int tg__small_strips_share_lines(const tg__kernel *kern, const tg__gemm *g, int64_t unit)
{
    const uintptr_t es = kern->es, row = g->m > 1 ? (uintptr_t)g->rs_c * es : 0;
    return ((uintptr_t)g->c | (uintptr_t)(unit * kern->nr) * es | row) % TG__LINE != 0;
}

/* Everything but the rows mode: B's column panels, split among the threads. */
static int tg__small_panels_all(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                                const void *alpha, const void *beta, int paged)
{
    const int64_t nr = kern->nr, panels = tg__ceil_div(g->n, nr), last = tg__rem(g->n, nr);
    const int64_t kb = tg__small_block(kern, g, panels);
    const int triples = !paged && tg__small_triples(kern, g);
    const int pack_all = !triples && tg__small_pack_all(kern, g, kb);
    /* Rows shorter than a page are never grouped: a tiny product skips the call. */
    const int64_t group = !triples && (paged || g->n * (int64_t)kern->es >= TG__PAGE)
                              ? tg__small_group(kern, g, paged)
                              : 0;
    const int64_t panel_bytes = kb * nr * (int64_t)kern->es * (group ? group : 1);
    /* (the kernel of the last panel, and so of the only one when there is one) */
    const tg__kernel *last_kern = last && tg__use_narrow(kern, g->m, last) ? kern->narrow : kern;
    const int64_t last_part = tg__rem(last, last_kern->nr);
    const int packs = group || tg__panel_packs(kern, nr, g->b.cs, pack_all) ||
                      (last_part && tg__panel_packs(last_kern, last_part, g->b.cs, pack_all));
    const int threads = tg__small_threads(kern, g, packs);
    /* (threads split panels, at triples or pairs where they go so, tg__small_triples and
     * tg__small_pairs; or row tiles, two or more a thread, of one panel or a taller A's pairs) */
    const int pairs = !triples && tg__small_pairs(kern, g, kb, pack_all, panels, threads);
    const int64_t unit = triples ? 3 : pairs ? 2 : 1;
    const int64_t units = tg__ceil_div(panels, unit);
    /* The threads split the panels of B, at most one a unit (at most as many threads as units: a
     * team over one pair left a thread with nothing to do, and cost the call its start-up, Zen 4,
     * 2 threads against 1: s 16x64x1024 0.92, s 24x64x512 0.93, d 8x32x2048 0.95); one panel (a
     * narrow B over a tall A, gemm.c), or a taller A's pairs, they split by rows instead
     * (tg__rows_share), the pairs unless each thread would have as many and B is larger than L1.
     * Split by panels, each thread writes a strip of every row of C; rows give it whole rows, for
     * a read of all of B, which within L1 costs nothing. Zen 4, 2 threads, ab-gemm, rows against
     * the panels' split over B within L1: s 1000x128x8 3.12 (the split had run 0.59x as fast as
     * one thread), d 300x64x8 2.91 (0.55x), s 256x256x4 1.72 (0.80x), d 64x64x16 1.50, d
     * 128x64x32 1.20, d 72x64x64 1.07, d 64^3 1.05, s 512x256x16 1.05, s 100x128x64 1.05; past
     * L1 the panels' split stays ahead (rows: d 128^3 0.95, s and d 64x256x256 0.94, d 80x64x96
     * 0.97, s 128^3 0.985). */
    const double b_bytes = tg__small_b_bytes(kern, g), l1d = (double)tg__cpu()->l1d;
    const int by_rows =
        panels == 1 || (unit == 3 && panels < 3) ||
        (unit == 2 && !group && tg__small_pairs_by_rows(kern, g, panels, threads)) ||
        (threads > 1 && unit != 3 && !group && g->m / kern->mr >= 2 * threads &&
         tg__small_strips_share_lines(kern, g, unit) &&
         (b_bytes <= l1d || g->m >= TG__SHARED_LINES_ROWS * threads));
    const int64_t tiles = by_rows ? g->m / kern->mr : 0, most = by_rows ? tiles / 2 : units;
    double stack[TG__STACK_PANEL / sizeof(double)];
    char *heap = NULL, *buf = (char *)stack;
    const int nt = most > 1 ? (int)tg__min(threads, most) : 1;
    if (packs && (nt > 1 || panel_bytes > TG__STACK_PANEL)) {
        heap = (char *)tg__alloc((size_t)(nt * panel_bytes));
        if (!heap) return tg__fail(TG_ERR_NOMEM, fn, "no memory for packed panels of B");
        buf = heap;
    }
    /* Even a parallel region that runs on one thread costs as much as a tiny product: enter one
     * only when there is a team to use. */
    if (nt <= 1) {
        tg__small_range(kern, last_kern, g, alpha, beta, 0, panels, kb, buf, pack_all, group,
                        unit);
    } else {
        TG__OMP(omp parallel num_threads(nt))
        {
            const int64_t tid = TG__THREAD_NUM(), team = TG__TEAM_SIZE();
            /* this thread's panels of B, or its rows */
            int64_t jp0 = 0, jp1 = panels;
            const tg__gemm part = by_rows ? tg__rows_share(kern, g, tid, team, tiles) : *g;
            if (!by_rows) {
                jp0 = tg__min(unit * (units * tid / team), panels);
                jp1 = tg__min(unit * (units * (tid + 1) / team), panels);
            }
            tg__small_range(kern, last_kern, &part, alpha, beta, jp0, jp1, kb,
                            buf + tid * panel_bytes, pack_all, group, unit);
        }
    }
    tg__free(heap);
    return TG_OK;
}

/* One panel of B (or the narrow family's one or two) read in place, in one block of k, below a
 * team's size: straight to the kernel, before anything else of the path is formed, each test as
 * soon as what it needs is known (tg__small_panels_all would make the same call, with no buffer).
 * The set-up there cost an 8^3 sgemm a fifth of its time (Zen 4, 1 thread: 1.25x with the kernel
 * called directly); this test, first in the path, against the same shortcut taken after that
 * set-up had been formed (Zen 4, 1 thread, ab-gemm, a copy of the old build 0.99-1.00): s 8^3
 * 1.07-1.08, s 12^3 1.035-1.05, s 16^3 1.02-1.03, d 8^3 1.06-1.07, d 12^3 1.02-1.03, d 16^3
 * 1.01-1.05, s 8x8x64 1.02; a product it turns away pays for its tests (s 20^3, whose last
 * columns the narrow family packs, 0.98-0.99). The tiniest of these products (gemm.c's tiny route:
 * sides at most TG__TINY_SIDE within TG__TINY^3) never get here: gemm.c's tg__gemm_tiny makes
 * the same call from the entry. 0: not such a product. */
TG__ALWAYS_INLINE int tg__small_direct(const tg__kernel *kern, const tg__gemm *g, const void *alpha,
                                       const void *beta)
{
    const tg__kernel *k;
    int64_t kb, part;
    if (g->n > kern->nr || g->b.cs != 1 || tg__small_threads(kern, g, 0) != 1) return 0;
    k = tg__use_narrow(kern, g->m, g->n) ? kern->narrow : kern;
    part = tg__rem(g->n, k->nr);
    if (part && tg__panel_packs(k, part, g->b.cs, 0)) return 0;
    kb = tg__small_block(kern, g, 1);
    if (kb != g->k || tg__small_pack_all(kern, g, kb)) return 0;
    tg__small_column(kern, k, g, alpha, beta, 0, kb, 0, g->n, NULL, 0);
    return 1;
}

TG__PRIVATE int tg__gemm_small(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                               const void *alpha, const void *beta, int paged)
{
    if (paged) return tg__small_panels_all(fn, kern, g, alpha, beta, 1);
    if (tg__small_direct(kern, g, alpha, beta)) return TG_OK;
    return tg__small_rows_fits(kern, g) ? tg__small_rows(fn, kern, g, alpha, beta)
                                        : tg__small_panels_all(fn, kern, g, alpha, beta, 0);
}
