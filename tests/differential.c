/* Differential tests: tg_sgemm / tg_dgemm against the fp64 reference (common/reference.c) by the
 * BLAS ratio test, threshold 16, inputs uniform in [-1, 1].
 *
 * One function runs one case with every guard (tgt_run_case); the sections only choose cases:
 * exhaustively where sizes are tiny (every layout, transpose and m, n, k in 0..17, where all the
 * edge handling of the register tiles lives), then one dimension at a time across the sizes where
 * code paths change (register tiles and cache blocks, one below / at / above), then the scalars,
 * NaN and Inf, and a seeded random sample of larger shapes. The block sizes probed are TGEMM_MC /
 * KC / NC when the runner sets them (tests/tests.mk does, to hit every block edge cheaply), else
 * the defaults the library has derived on the development machine (listed in tgt_edge_sizes; where
 * they differ these are just more sizes, and the overridden runs still hit every edge exactly).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

static const int tgt_layouts[2] = {TG_ROW_MAJOR, TG_COL_MAJOR};
static const int tgt_transes[2] = {TG_NO_TRANS, TG_TRANS};
/* alpha and beta: 0, 1, -1 and an "other" value; exactly representable in float so that the
 * reference and the library use the same scalars. */
static const double tgt_alphas[4] = {0.0, 1.0, -1.0, 1.5};
static const double tgt_betas[4] = {0.0, 1.0, -1.0, -0.75};

static int64_t tgt_max1(int64_t x) { return x > 1 ? x : 1; }

static const char *tgt_special_name(int special)
{
    switch (special) {
    case TGT_NAN_A: return " NaN-in-A";
    case TGT_INF_A: return " Inf-in-A";
    case TGT_INF_C: return " Inf-in-C";
    default: return "";
    }
}

/* Prints the case's description into buf, for failure messages. */
static void tgt_describe(const tgt_case *c, int64_t lda, int64_t ldb, int64_t ldc, char *buf,
                         size_t size)
{
    snprintf(buf, size,
             "%cgemm %s %s layout=%s A=%s B=%s m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld "
             "alpha=%g beta=%g%s seed=%llu",
             c->es == 4 ? 's' : 'd', tgt_config(), tg_cpu_arch(), tgt_layout_name(c->layout),
             tgt_trans_name(c->transa), tgt_trans_name(c->transb), (long long)c->m,
             (long long)c->n, (long long)c->k, (long long)lda, (long long)ldb, (long long)ldc,
             c->alpha, c->beta, tgt_special_name(c->special), (unsigned long long)c->seed);
}

int tgt_run_case(const tgt_case *c)
{
    uint64_t rng = c->seed;
    int64_t av, al, bv, bl, cv, cl, lda, ldb, ldc, wi = -1, wj = -1, where = 0;
    double alpha = c->es == 4 ? (double)(float)c->alpha : c->alpha;
    double beta = c->es == 4 ? (double)(float)c->beta : c->beta;
    size_t cells = (size_t)tgt_max1(c->m * c->n);
    double *out = (double *)malloc(cells * sizeof(double));
    double *bound = (double *)malloc(cells * sizeof(double));
    unsigned char *a0 = NULL, *b0 = NULL;
    tgt_buf A, B, C;
    char what[600];
    int ok, st;

    tgt_storage(c->layout, c->transa, c->m, c->k, &av, &al);
    tgt_storage(c->layout, c->transb, c->k, c->n, &bv, &bl);
    tgt_storage(c->layout, TG_NO_TRANS, c->m, c->n, &cv, &cl);
    lda = tgt_max1(al) + c->pad_a;
    ldb = tgt_max1(bl) + c->pad_b;
    ldc = tgt_max1(cl) + c->pad_c;
    tgt_describe(c, lda, ldb, ldc, what, sizeof what);

    ok = tgt_buf_init(&A, c->es, av, al, lda) & tgt_buf_init(&B, c->es, bv, bl, ldb) &
         tgt_buf_init(&C, c->es, cv, cl, ldc) && out && bound;
    if (ok) {
        a0 = (unsigned char *)malloc(A.total * c->es);
        b0 = (unsigned char *)malloc(B.total * c->es);
        ok = a0 && b0;
    }
    if (!ok) {
        tgt_check(0, "%s: the test ran out of memory", what);
        goto done;
    }

    /* With alpha zero A and B must not be read: leave them all NaN, so a read shows in C. */
    if (alpha != 0) {
        tgt_buf_fill(&A, &rng);
        tgt_buf_fill(&B, &rng);
    }
    if ((c->special == TGT_NAN_A || c->special == TGT_INF_A) && c->m > 0 && c->k > 0) {
        /* One element of op(A), drawn at random, in the storage the layout and transpose give. */
        int64_t i = tgt_range(&rng, 0, c->m - 1), p = tgt_range(&rng, 0, c->k - 1);
        int rows_run = (c->layout == TG_ROW_MAJOR) != (c->transa == TG_TRANS);
        tgt_buf_set(&A, rows_run ? i : p, rows_run ? p : i,
                    c->special == TGT_NAN_A ? NAN : INFINITY);
    }
    /* With beta zero C must not be read: it holds NaN (or Inf), which must not reach the result. */
    if (c->special == TGT_INF_C) {
        for (int64_t v = 0; v < C.vectors; v++)
            for (int64_t e = 0; e < C.len; e++) tgt_buf_set(&C, v, e, INFINITY);
    } else if (beta == 0) {
        tgt_buf_poison_all(&C);
    } else {
        tgt_buf_fill(&C, &rng);
    }
    memcpy(a0, A.mem, A.total * c->es);
    memcpy(b0, B.mem, B.total * c->es);

    tg_ref_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, alpha, A.p, lda, B.p,
                ldb, beta, C.p, ldc, out, bound);
    st = tgt_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, alpha, A.p, lda, B.p,
                  ldb, beta, C.p, ldc);

    if (st != TG_OK) {
        ok = tgt_check(0, "%s: status %d (%s): %s", what, st, tg_strerror(st), tg_last_error());
    } else if (!tgt_buf_poison_intact(&C, &where)) {
        ok = tgt_check(0, "%s: C's storage outside m x n was written at element offset %lld", what,
                       (long long)where);
    } else if (memcmp(a0, A.mem, A.total * c->es) != 0 || memcmp(b0, B.mem, B.total * c->es) != 0) {
        ok = tgt_check(0, "%s: A or B (or the storage around them) was modified", what);
    } else {
        double r = tg_ref_ratio(c->es, c->layout, c->m, c->n, C.p, ldc, out, bound, &wi, &wj);
        double got = wi >= 0 ? tg_ref_at(c->es, C.p, c->layout, TG_NO_TRANS, ldc, wi, wj) : 0;
        ok = tgt_check(r < 16, "%s: worst ratio %g at (i=%lld, j=%lld): got %.9g, want %.9g", what,
                       r, (long long)wi, (long long)wj, got, wi >= 0 ? out[wi * c->n + wj] : 0.0);
    }
done:
    free(a0);
    free(b0);
    free(out);
    free(bound);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C);
    return ok;
}

/* A case with the leading-dimension pads and scalars drawn from i (any counter): over many cases
 * every pad and every alpha x beta pair comes up with every shape family. */
static tgt_case tgt_case_at(size_t es, int layout, int transa, int transb, int64_t m, int64_t n,
                            int64_t k, uint64_t i)
{
    static const int64_t pads[3] = {0, 1, 3};
    tgt_case c;
    uint64_t h = i * 0x9e3779b97f4a7c15ull;
    c.es = es;
    c.layout = layout;
    c.transa = transa;
    c.transb = transb;
    c.m = m;
    c.n = n;
    c.k = k;
    c.pad_a = pads[(h >> 20) % 3];
    c.pad_b = pads[(h >> 24) % 3];
    c.pad_c = pads[(h >> 28) % 3];
    c.alpha = tgt_alphas[(h >> 32) % 4];
    c.beta = tgt_betas[(h >> 36) % 4];
    c.special = TGT_PLAIN;
    c.seed = i + (es << 40);
    return c;
}

void tgt_section_cube(int max)
{
    uint64_t i = 0;
    for (size_t es = 4; es <= 8; es += 4)
        for (int l = 0; l < 2; l++)
            for (int ta = 0; ta < 2; ta++)
                for (int tb = 0; tb < 2; tb++)
                    for (int64_t m = 0; m <= max; m++)
                        for (int64_t n = 0; n <= max; n++)
                            for (int64_t k = 0; k <= max; k++) {
                                tgt_case c = tgt_case_at(es, tgt_layouts[l], tgt_transes[ta],
                                                         tgt_transes[tb], m, n, k, i++);
                                tgt_run_case(&c);
                            }
}

/* The tiny products' route (cpu/gemm.c's tg__gemm_tiny: m, n and k each at most 64, m n k at most
 * 40^3): every width of C to one column past 40, so that each of its forms runs (one panel in
 * place, whole or partial, the narrow family's, the pair and triple kernels, the dot and column
 * products of the last columns, B's panels packed where it is transposed, and the widths it turns
 * away), over a few row counts from one (one row or column goes as gemv.c's matrix-vector
 * product) and about its tiles, and depths about the packing's register transposes; then sides of
 * 41 to 65, whose products the route takes up to 40^3 multiply-adds (fp64's whole panels three
 * at a time from 48 columns, fp32's one 3W tile at 48, and the bound's either side: 40x64x25 and
 * 63x63x16 in, 65x64x15, 64x64x16 and 41x40x40 out). Every layout and transpose. */
void tgt_section_tiny(void)
{
    static const int64_t ms[] = {1, 2, 3, 4, 5, 6, 8, 9, 16, 24, 32, 33, 40, 41};
    static const int64_t ks[] = {1, 4, 9, 32, 40, 41};
    static const int64_t sides[] = {1, 2, 7, 8, 12, 16, 24, 25, 41, 47, 48, 49, 63, 64, 65};
    static const int64_t edges[][3] = {{40, 64, 25}, {64, 25, 40}, {25, 40, 64}, {63, 63, 16},
                                       {16, 63, 63}, {65, 64, 15}, {64, 64, 16}, {41, 40, 40}};
    uint64_t i = 3000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (int combo = 0; combo < 8; combo++) {
            const int layout = tgt_layouts[combo >> 2], ta = tgt_transes[(combo >> 1) & 1],
                      tb = tgt_transes[combo & 1];
            for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
                for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++)
                    for (int64_t n = 1; n <= 41; n++) {
                        tgt_case c = tgt_case_at(es, layout, ta, tb, ms[a], n, ks[b], i++);
                        tgt_run_case(&c);
                    }
            /* (a side past 40 each time; the others any, products past the bound included) */
            for (size_t a = 0; a < sizeof sides / sizeof sides[0]; a++)
                for (size_t b = 0; b < sizeof sides / sizeof sides[0]; b++)
                    for (size_t d = 0; d < sizeof sides / sizeof sides[0]; d++) {
                        const int64_t m = sides[a], n = sides[b], k = sides[d];
                        tgt_case c = tgt_case_at(es, layout, ta, tb, m, n, k, i++);
                        if ((m > 40 || n > 40 || k > 40) && m * n * k <= 2 * 64000)
                            tgt_run_case(&c);
                    }
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
                tgt_case c = tgt_case_at(es, layout, ta, tb, edges[e][0], edges[e][1],
                                         edges[e][2], i++);
                tgt_run_case(&c);
            }
        }
}

/* Adds x to the list unless it is negative or already there. */
static int tgt_add(int64_t *list, int count, int cap, int64_t x)
{
    for (int i = 0; i < count; i++)
        if (list[i] == x) return count;
    if (x >= 0 && count < cap) list[count++] = x;
    return count;
}

/* Adds v - 1, v and v + 1. */
static int tgt_add_around(int64_t *list, int count, int cap, int64_t v)
{
    for (int64_t x = v - 1; x <= v + 1; x++) count = tgt_add(list, count, cap, x);
    return count;
}

static int64_t tgt_env_size(const char *name)
{
    const char *s = getenv(name);
    return s ? atoll(s) : 0;
}

/* The sizes where a code path changes: tiny and prime sizes, the register tiles of every kernel
 * family and their halves (4 x 8 generic, 6 x 16 and 6 x 8 AVX2, 6 x 32 and 6 x 16 AVX-512), and the
 * cache blocks, one below / at / above each
 * (two blocks' worth too where blocks are small enough to make that cheap). */
static int tgt_edge_sizes(int64_t *list, int cap)
{
    /* When the runner sets no block size: the defaults the library has derived on the development
     * machine across its versions (MC 30..252, KC 256..1024, NC 2040..4096, per family, type). */
    static const int64_t defaults[] = {30,  32,   60,   64,   126,  128,  252,
                                       256, 512, 1024, 2040, 2048, 4080, 4096};
    static const int64_t exact[] = {0, 1, 2, 3, 5, 7, 11, 13, 17, 31};
    static const int64_t tiles[] = {4, 6, 8, 16, 32};
    const char *env[3] = {"TGEMM_MC", "TGEMM_KC", "TGEMM_NC"};
    int count = 0, overridden = 0;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        count = tgt_add(list, count, cap, exact[i]);
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
        count = tgt_add_around(list, count, cap, tiles[i]);
    for (int i = 0; i < 3; i++) {
        int64_t b = tgt_env_size(env[i]);
        if (b <= 0) continue;
        overridden = 1;
        count = tgt_add_around(list, count, cap, b);
        if (b <= 64) count = tgt_add_around(list, count, cap, 2 * b);
    }
    if (!overridden)
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
            count = tgt_add_around(list, count, cap, defaults[i]);
    return count;
}

void tgt_section_edges(void)
{
    int64_t sizes[96];
    int count = tgt_edge_sizes(sizes, 96);
    uint64_t i = 1000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (int dim = 0; dim < 3; dim++)
            for (int s = 0; s < count; s++)
                for (int combo = 0; combo < 8; combo++) {
                    /* The other two dimensions stay small and off every tile multiple. */
                    int64_t d[3] = {7, 13, 11};
                    tgt_case c;
                    d[dim] = sizes[s];
                    /* Big sizes: a sample of the layout x transpose combinations keeps it cheap. */
                    if (sizes[s] > 600 && combo % 3 != 0) continue;
                    c = tgt_case_at(es, tgt_layouts[combo >> 2], tgt_transes[(combo >> 1) & 1],
                                    tgt_transes[combo & 1], d[0], d[1], d[2], i++);
                    /* alpha and beta stay "other" here: the scalars have their own section. */
                    c.alpha = tgt_alphas[3];
                    c.beta = tgt_betas[3];
                    tgt_run_case(&c);
                }
    /* A short A over a B six panels wide and then some (AVX-512's), larger than L1 and two
     * blocks of k deep: on a core with full-width AVX-512, 7, 8, 13, 16, 21 and 24 rows take B's
     * panels three at a time in tiles of eight rows (small.c's tg__small_triples; two triples,
     * then what is left, about 2.5, 4.5, 5.6 and 0.5 vectors: a partial 3W tile; a whole one and
     * a partial panel; a whole and a partial 3W tile; a partial panel alone), 17 rows pack B's
     * panels (tg__small_pack_all); where zmm is split (Zen 4) every count of rows takes them two
     * at a time in place (tg__small_pairs); elsewhere B is read in place a panel at a time; A
     * transposed and not. */
    for (size_t es = 4; es <= 8; es += 4)
        for (int h = 0; h < 7; h++)
            for (int ta = 0; ta < 2; ta++) {
                const int64_t ms[7] = {7, 8, 13, 16, 17, 21, 24};
                const int64_t ns[4] = {231, 263, 282, 200}, nd[4] = {117, 133, 141, 100};
                tgt_case c = tgt_case_at(es, TG_ROW_MAJOR, tgt_transes[ta], TG_NO_TRANS, ms[h],
                                         es == 4 ? ns[(h + ta) % 4] : nd[(h + ta) % 4], 300, i++);
                c.alpha = tgt_alphas[1 + ta];
                c.beta = tgt_betas[(h + ta) % 4];
                tgt_run_case(&c);
            }
    /* One panel of B (a narrow B: one whole AVX-512 panel, a partial one, and one of the narrow
     * family) over a tall A larger than any L2 here (2 MiB), which the small path takes in blocks
     * of k half of L2 deep (small.c's tg__small_kb): 8300 steps make two or more of them, 131 rows
     * end in a partial tile; A transposed too (blocks of L1's depth), B transposed (packed). */
    for (size_t es = 4; es <= 8; es += 4)
        for (int v = 0; v < 4; v++) {
            const int64_t nr = es == 4 ? 32 : 16, ns[4] = {nr, nr, nr - 3, nr / 2 - 1};
            tgt_case c = tgt_case_at(es, TG_ROW_MAJOR, v == 1 ? TG_TRANS : TG_NO_TRANS,
                                     v == 2 ? TG_TRANS : TG_NO_TRANS, 131, ns[v], 8300, i++);
            c.alpha = tgt_alphas[1 + v % 3];
            c.beta = tgt_betas[v];
            tgt_run_case(&c);
        }
    /* A shallow product whose C is past half of any L2 here, within the small path's count of
     * multiply-adds, which the blocked path takes (gemm.c's TG__SHALLOW_K); both layouts. */
    for (size_t es = 4; es <= 8; es += 4)
        for (int col = 0; col < 2; col++) {
            tgt_case c = tgt_case_at(es, tgt_layouts[col], tgt_transes[col], TG_NO_TRANS,
                                     es == 4 ? 1030 : 730, es == 4 ? 1031 : 731, 5 + col, i++);
            c.alpha = tgt_alphas[3];
            c.beta = tgt_betas[1 + col];
            tgt_run_case(&c);
        }
}

/* The small path's rows mode (small.c: a tall A over two to four panels of B, on AVX-512, from
 * 256 x 64 x 256 multiply-adds; up to sixteen past 256^3): widths from just past one panel to
 * sixteen panels of either type's AVX-512 kernel (32 floats, 16 doubles; the two widest at one
 * height), heights ending in every remainder of the six-row tiles, and where there are more than
 * two panels a depth whose rows of A go in several chunks; alpha and beta in turn, and at 601 rows
 * alpha 1 with beta 0 (the pair tile stores those plainly: kernel_simd.inc). Then every
 * layout and transpose on one shape (a column-major C is computed transposed, so there the rows
 * mode sees m as the width), and long depths over a B one or two whole pairs of panels wide,
 * which the rows mode takes in several blocks of k (on a 1 MiB L2 read in place, 2048 steps at two
 * panels, 1024 at four; on a 2 MiB L2 the four panels packed, 2048 steps a block), each block
 * through every chunk of rows (211 rows over four panels: several chunks), with and without a
 * transposed A. Under the other kernel families and paths these are more shapes of theirs. */
void tgt_section_rows(void)
{
    uint64_t i = 1800000;
    for (size_t es = 4; es <= 8; es += 4) {
        const int64_t nr = es == 4 ? 32 : 16, wide = 2 * nr + 5, tall = 603;
        const int64_t ns[] = {nr + 1, nr + 8, 2 * nr - 1, 2 * nr,     2 * nr + 1,
                              3 * nr, 3 * nr + 5, 4 * nr, 8 * nr + 5, 16 * nr};
        for (int w = 0; w < 10; w++)
            for (int64_t m = 601; m <= 606; m++) {
                const int chunked = ns[w] > 2 * nr, past4 = ns[w] > 4 * nr;
                tgt_case c;
                if (chunked && m % 3 != 1) continue; /* 601 and 604 rows */
                if (past4 && m != 604) continue;
                /* (past four panels the rows mode wants more than 256^3 multiply-adds) */
                c = tgt_case_at(es, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, m, ns[w],
                                past4     ? 16800000 / (m * ns[w]) + 1
                                : chunked ? 700
                                          : 4300000 / (m * ns[w]) + 1,
                                i++);
                c.alpha = tgt_alphas[1 + (m + w) % 3];
                c.beta = tgt_betas[(m + w) % 4];
                tgt_run_case(&c);
                /* alpha 1 and beta 0 too, which the tiles store by a path of their own */
                if (m == 601) {
                    c.alpha = 1;
                    c.beta = 0;
                    tgt_run_case(&c);
                }
            }
        for (int combo = 0; combo < 8; combo++) {
            const int col = combo >> 2;
            tgt_case c = tgt_case_at(es, tgt_layouts[col], tgt_transes[(combo >> 1) & 1],
                                     tgt_transes[combo & 1], col ? wide : tall, col ? tall : wide,
                                     4300000 / (tall * wide) + 1, i++);
            c.alpha = tgt_alphas[3];
            c.beta = tgt_betas[3];
            tgt_run_case(&c);
        }
        {
            const int64_t longs[][3] = {
                {37, 2 * nr, 5000}, {40, 4 * nr, 2100}, {211, 2 * nr, 2300}, {211, 4 * nr, 2100}};
            for (int l = 0; l < 4; l++)
                for (int ta = 0; ta < 2; ta++) {
                    tgt_case c = tgt_case_at(es, TG_ROW_MAJOR, tgt_transes[ta], TG_NO_TRANS,
                                             longs[l][0], longs[l][1], longs[l][2], i++);
                    c.alpha = tgt_alphas[2 + ta];
                    c.beta = tgt_betas[(l + ta) % 4];
                    tgt_run_case(&c);
                }
        }
    }
}

/* Products with one row or one column of C, which run as a matrix-vector product (cpu/gemv.c)
 * in one of two forms, by which operand is contiguous how: every layout and transpose, with
 * padded leading dimensions (strided vectors, which the dots form copies), over lengths of that
 * row or column around the narrow rows kept in registers (up to two vectors: 16 and 32 floats
 * under AVX-512, 8 and 16 under AVX2), the vectors of both families, and the rows form's chunk
 * of 8 KiB (2048 floats, 1024 doubles), and depths around its eight rows a pass and the dots
 * form's 2W-step blocks (16 and 32; 8 and 16). Then short ones over a long k, whose k goes in
 * parts, C of two to four rows or columns (the rows form's several rows of y), and NaN and Inf in
 * A and in C (beta zero must not read it) on a few shapes. */
/* One of them, or of a C of r rows or columns: combo's bit 0 picks columns of C (n = r) over
 * rows, bits 1 to 3 B's and A's transposes and the layout; y is those rows' or columns' length. */
static tgt_case tgt_gemv_case(size_t es, int combo, int64_t r, int64_t y, int64_t k, uint64_t i)
{
    const int col = combo & 1;
    return tgt_case_at(es, tgt_layouts[combo >> 3], tgt_transes[(combo >> 2) & 1],
                       tgt_transes[(combo >> 1) & 1], col ? y : r, col ? r : y, k, i);
}

void tgt_section_gemv(void)
{
    static const int64_t ys[] = {2,  3,  5,   7,    8,    9,    15,   16,   17,   31,   32,
                                 33, 40, 100, 1023, 1024, 1025, 2047, 2048, 2049, 4100};
    static const int64_t ks[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 300};
    enum { NY = sizeof ys / sizeof ys[0], NK = sizeof ks / sizeof ks[0] };
    uint64_t i = 5000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (int yi = 0; yi < NY; yi++)
            for (int ki = 0; ki < NK; ki++)
                for (int combo = 0; combo < 16; combo++) {
                    tgt_case c;
                    /* long ones: every other depth and half the layouts and transposes */
                    if (ys[yi] > 1000 && (ki % 2 || combo % 4 >= 2)) continue;
                    c = tgt_gemv_case(es, combo, 1, ys[yi], ks[ki], i++);
                    tgt_run_case(&c);
                }
    /* A short row or column over a long k (past 64^3 multiply-adds, under eight cache lines; in
     * the rows form under 128), which goes in four parts of k added at the end: a dot product, the
     * narrow rows kept in registers, wider ones, and one whose sums take more than the stack
     * buffer. */
    for (size_t es = 4; es <= 8; es += 4)
        for (int yi = 0; yi < 5; yi++)
            for (int combo = 0; combo < 16; combo++) {
                static const int64_t shorts[5] = {1, 3, 21, 40, 300};
                tgt_case c = tgt_gemv_case(es, combo, 1, shorts[yi],
                                           64 * 64 * 64 / shorts[yi] + 1 + combo, i++);
                tgt_run_case(&c);
            }
    /* A C of two to four rows or columns, which the rows form takes over the same M where it
     * has 128^2 elements or more (two) or is larger than L2 (up to four; 1100 x 520 doubles,
     * 2100 x 300 floats: larger than any L2 here): lengths around the chunk and a vector's end,
     * depths around the pass of eight rows, and the k parts (a long k under 128 cache lines of
     * y). */
    for (size_t es = 4; es <= 8; es += 4)
        for (int64_t r = 2; r <= 4; r++)
            for (int combo = 0; combo < 16; combo++) {
                static const int64_t yk[][2] = {{130, 130}, {129, 131}, {2049, 9}, {1023, 17},
                                                {300, 301}, {100, 2000}, {40, 5000}};
                tgt_case c;
                for (int s = 0; s < 7; s++) {
                    c = tgt_gemv_case(es, combo, r, yk[s][0], yk[s][1] + combo % 3, i++);
                    tgt_run_case(&c);
                }
                c = tgt_gemv_case(es, combo, r, es == 4 ? 2100 : 1100, es == 4 ? 300 : 520, i++);
                tgt_run_case(&c);
            }
    for (size_t es = 4; es <= 8; es += 4)
        for (int combo = 0; combo < 16; combo++)
            for (int special = TGT_NAN_A; special <= TGT_INF_C; special++) {
                tgt_case c = tgt_gemv_case(es, combo, 1 + combo % 3, combo % 4 == 0 ? 2049 : 150,
                                           combo % 3 == 0 ? 300 : 119, i++);
                c.special = special;
                if (c.alpha == 0) c.alpha = tgt_alphas[1 + combo % 3];
                if (special == TGT_INF_C) c.beta = tgt_betas[combo % 2 ? 0 : 3];
                tgt_run_case(&c);
            }
}

/* Every layout and transpose over the widths that end inside a register (n up to 40, past two
 * AVX-512 float vectors) and a few heights and depths, with each operand's last element the last
 * before an untouchable page: the kernels' partial-panel reads (masked or through a copy) and edge
 * stores must stay within the operands exactly. */
void tgt_section_pageend(void)
{
    static const int64_t ms[] = {1, 2, 3, 4, 5, 7, 8, 13}, ks[] = {1, 2, 5, 17};
    uint64_t i = 1500000;
    tgt_buf_at_page_end = 1;
    for (size_t es = 4; es <= 8; es += 4)
        for (int combo = 0; combo < 8; combo++)
            for (int mi = 0; mi < 8; mi++)
                for (int64_t n = 1; n <= 40; n++)
                    for (int ki = 0; ki < 4; ki++) {
                        tgt_case c = tgt_case_at(es, tgt_layouts[combo >> 2],
                                                 tgt_transes[(combo >> 1) & 1],
                                                 tgt_transes[combo & 1], ms[mi], n, ks[ki], i++);
                        tgt_run_case(&c);
                    }
    tgt_buf_at_page_end = 0;
}

void tgt_section_scalars(void)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {5, 17, 9}, {13, 7, 20}, {33, 40, 19}};
    uint64_t i = 2000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (int s = 0; s < 4; s++)
            for (int combo = 0; combo < 8; combo++)
                for (int ab = 0; ab < 16; ab++)
                    for (int inf_c = 0; inf_c < 2; inf_c++) {
                        tgt_case c = tgt_case_at(es, tgt_layouts[combo >> 2],
                                                 tgt_transes[(combo >> 1) & 1],
                                                 tgt_transes[combo & 1], shapes[s][0],
                                                 shapes[s][1], shapes[s][2], i++);
                        c.alpha = tgt_alphas[ab / 4];
                        c.beta = tgt_betas[ab % 4];
                        /* Inf in C: it must vanish with beta zero and propagate otherwise. */
                        c.special = inf_c ? TGT_INF_C : TGT_PLAIN;
                        tgt_run_case(&c);
                    }
    /* A NaN or infinite alpha with k zero: there is no product term, C = beta C, as in the
     * reference BLAS (make fuzz found the fp64 reference making it NaN). A NaN alpha with k > 0
     * makes C NaN. (An infinite one with k > 0 is left out: whether alpha multiplies the whole sum,
     * partial sums or each product decides between +-Inf and NaN, and the BLAS leaves it open.) */
    for (size_t es = 4; es <= 8; es += 4)
        for (int combo = 0; combo < 8; combo++)
            for (int64_t k = 0; k <= 9; k += 9)
                for (int a = 0; a < (k ? 1 : 3); a++)
                    for (int b = 0; b < 4; b++) {
                        tgt_case c = tgt_case_at(es, tgt_layouts[combo >> 2], tgt_transes[(combo >> 1) & 1],
                                                 tgt_transes[combo & 1], 7, 18, k, i++);
                        c.alpha = a == 0 ? NAN : a == 1 ? INFINITY : -INFINITY;
                        c.beta = tgt_betas[b];
                        tgt_run_case(&c);
                    }
}

void tgt_section_special(void)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {6, 16, 5}, {9, 19, 30}, {70, 45, 80}};
    uint64_t i = 3000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (int s = 0; s < 4; s++)
            for (int combo = 0; combo < 8; combo++)
                for (int special = TGT_NAN_A; special <= TGT_INF_A; special++)
                    for (int rep = 0; rep < 3; rep++) {
                        tgt_case c = tgt_case_at(es, tgt_layouts[combo >> 2],
                                                 tgt_transes[(combo >> 1) & 1],
                                                 tgt_transes[combo & 1], shapes[s][0],
                                                 shapes[s][1], shapes[s][2], i++);
                        c.special = special;
                        if (c.alpha == 0) c.alpha = tgt_alphas[1 + rep];
                        tgt_run_case(&c);
                    }
}

/* A random case: any layout and transposes, sizes mostly up to 150 with some up to 700 (at most
 * about 6M multiply-adds, so the reference stays quick), leading dimensions padded by up to 40,
 * scalars from the fixed set or random. */
tgt_case tgt_random_case(uint64_t *rng, size_t es)
{
    tgt_case c;
    int64_t hi = tgt_range(rng, 0, 3) == 0 ? 700 : 150;
    c.es = es;
    c.layout = tgt_layouts[tgt_range(rng, 0, 1)];
    c.transa = tgt_transes[tgt_range(rng, 0, 1)];
    c.transb = tgt_transes[tgt_range(rng, 0, 1)];
    do {
        c.m = tgt_range(rng, 1, hi);
        c.n = tgt_range(rng, 1, hi);
        c.k = tgt_range(rng, 1, hi);
    } while ((double)c.m * c.n * c.k > 6e6);
    c.pad_a = tgt_range(rng, 0, 1) ? tgt_range(rng, 1, 40) : 0;
    c.pad_b = tgt_range(rng, 0, 1) ? tgt_range(rng, 1, 40) : 0;
    c.pad_c = tgt_range(rng, 0, 1) ? tgt_range(rng, 1, 40) : 0;
    c.alpha = tgt_range(rng, 0, 4) == 0 ? tgt_uniform(rng) : tgt_alphas[tgt_range(rng, 1, 3)];
    c.beta = tgt_range(rng, 0, 4) == 0 ? tgt_uniform(rng) : tgt_betas[tgt_range(rng, 0, 3)];
    c.special = TGT_PLAIN;
    c.seed = tgt_rand(rng);
    return c;
}

void tgt_section_random(int count)
{
    uint64_t rng = 20261122;
    for (int i = 0; i < count; i++) {
        tgt_case c = tgt_random_case(&rng, i % 2 ? 8 : 4);
        tgt_run_case(&c);
    }
}
