/* Results must not depend on the thread count: bitwise-equal C for 1, 2 and 3 threads, and from
 * inside a caller's OpenMP parallel region (where each call runs on one thread).
 *
 * The shapes are big enough to be split across threads on every path: several blocks of A (tall),
 * one block of A whose B panels are split instead (short and wide), k deeper than a KC block (so
 * partial sums are carried across blocks), a short A over a B large enough that the small path
 * packs it a page group at a time (9 x 1100 x 700 and 1030 x 10 x 530: fp64 row-major, and both
 * types column-major, where the problem is computed transposed; but not where zmm is split, whose
 * AVX-512 reads such a B in place from L3: TGEMM_PATH=paged groups it), a B narrow enough to be one
 * panel, whose threads split the rows of a tall A instead (1030 x 10 x 530 row-major and the last
 * three, whose 602, 583 and 595 rows end in tiles of 4 + 4, 4 + 3 and 4 + 3: a split at arbitrary
 * rows instead of whole tiles fails them in AVX-512 fp32 and fp64 and in AVX2 fp32, in one or two
 * transposes each, where the kernel's loop for a tile of that height rounds differently), a tall A
 * over a few panels of B, whose threads split its rows in the small path's rows mode (1031 x 40 x
 * 110; 605 x 100 x 700 in fp32, whose rows go in chunks; 61 x 64 x 3000, whose B it reads in place
 * in blocks of k; 211 x 64 x 2100, whose B it takes in blocks of k, packed in fp64 on a 2 MiB L2,
 * each through several chunks of rows; 604 x 90 x 80 in fp32 and 604 x 44 x 160 in fp64, a pair and
 * a last panel in 6-row tiles, whose rounding a split at arbitrary rows changes), one panel of B
 * over a tall A larger than L2, which the small path takes in blocks of k half of L2 deep, its
 * threads splitting the rows (131 x 32 x 8300 row-major; 32 x 131 x 8300 the same column-major),
 * products with one row or one column of C, which run as a matrix-vector product whose threads
 * split that row or column (cpu/gemv.c: 1 x 5000 x 300 and 1 x 3000 x 403 in each of its two forms,
 * by type, 2500 x 1 x 700 in its rows form, 4000 x 1 x 301 in its dots form; k off the rows form's
 * eight rows a pass; 1 x 64 x 20001, 8 x 1 x 100003 and, in its rows form, 1 x 1000 x 700 split
 * along k instead, where y is short; 700 x 1 x 1000 in the dots form, split along y; 1 x 400 x 401,
 * under 64^3 multiply-adds, whose k is never split; and over several rows or columns of C at once,
 * 2 x 5000 x 300 and 3000 x 4 x 403 split along y, 2 x 1000 x 700 along k), a short A whose B's
 * panels AVX-512 takes two at a time, the threads splitting them at pairs (4 x 700 x 300, 9 x 700 x
 * 300; 3 x 900 x 200 in fp64 and 900 x 3 x 200 column-major in fp32, where B's rows run along C's:
 * odd counts of whole panels, a partial last one; a split inside a pair gives its second panel the
 * 1-3-row tile's two chains of k instead of one) or, on a core with full-width AVX-512, three at a
 * time in tiles of eight rows, the threads splitting them at triples (21 x 500 x 100 in fp64, where
 * a split inside a triple gives the last rows the 3-row tile's two chains, and 1100 x 8 x 300
 * column-major: a partial unit last; the Zen 4 takes that one so too, its B past L2), a taller A
 * whose B's panels AVX-512 takes two at a time where zmm is split (Zen 4), the threads splitting
 * the pairs where each gets as many and B does not fit L1, the rows otherwise (98 x 96 x 70: fp32
 * a pair and a panel, fp64 three pairs; 100 x 128 x 60: two pairs in fp32, within L1, four in
 * fp64; 100 x 128 x 160: two and four pairs, past L1; 300 x 64 x 8: one and two pairs, within L1),
 * and where zmm is full-width, past L1 where a k block's strip of two panels fits half of it, the
 * threads splitting the rows (80 x 80 x 80 in fp64, 300 x 200 x 80) or the pairs where those go
 * evenly to the threads, the panels one by one in 8-row tiles where neither does (30 x 700 x 90:
 * pairs at one thread in both types, at two in fp64 only, at three in neither, which must not
 * change the bits),
 * C on a cache line and one element past one, where the threads that would split the panels split
 * the rows instead (128 x 64 x 64, 256 x 256 x 4, 96 x 256 x 256, 64 x 96 x 64), a B exactly one
 * 3W tile wide, whose rows the threads split in 8-row triple tiles (90 x 24 x 70 in fp64; 48 x 96
 * x 96 column-major, computed as 96 x 48 in fp32), one whole AVX-512 panel of B over a tall A,
 * whose rows go in 8-row tiles of as even heights as fit, grouped otherwise in each thread's part
 * (605 x 16 x 90 in fp64; 131 x 32 x 8300 in fp32, above), a panel narrower than AVX2's vector
 * over an A tall enough for AVX-512 to give it to AVX2, whose threads' parts would not be (40 x 5 x
 * 20000 in fp32: cpu.h's tg__use_narrow), the last one or two columns past whole vectors over a
 * tall A, as dot products with its rows (300 x 18 x 64 row-major, 17 x 200 x 100 column-major in
 * fp32) or, A transposed, as products of its columns (200 x 17 x 100 row-major, 17 x 200 x 100 and
 * 18 x 300 x 64 column-major in fp64: cpu.h's tg__dots_fit, whose rule must not turn on a
 * thread's rows), and both layouts and transposes. Each is also
 * checked once against the reference, so "equal" cannot mean "equally wrong". Without OpenMP (some
 * header builds) there is only one thread, and the checks still hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

static const int64_t tgt_thread_shapes[][3] = {
    {600, 40, 60}, {7, 1500, 90}, {97, 101, 300}, {200, 190, 130}, {9, 1100, 700}, {1030, 10, 530},
    {602, 20, 70}, {583, 8, 300}, {595, 10, 200}, {1031, 40, 110}, {605, 100, 700}, {61, 64, 3000},
    {211, 64, 2100}, {604, 90, 80}, {604, 44, 160}, {32, 131, 8300}, {131, 32, 8300},
    {1, 5000, 300}, {2500, 1, 700}, {4000, 1, 301}, {1, 3000, 403}, {1, 64, 20001},
    {8, 1, 100003}, {700, 1, 1000}, {1, 1000, 700}, {1, 400, 401}, {2, 5000, 300},
    {3000, 4, 403}, {2, 1000, 700}, {4, 700, 300}, {3, 900, 200}, {900, 3, 200},
    {9, 700, 300}, {1100, 8, 300}, {21, 500, 100}, {98, 96, 70}, {100, 128, 60},
    {100, 128, 160}, {300, 64, 8}, {128, 64, 64}, {256, 256, 4}, {96, 256, 256}, {64, 96, 64},
    {64, 24, 8}, {90, 24, 70}, {48, 96, 96}, {605, 16, 90}, {40, 5, 20000}, {300, 18, 64},
    {17, 200, 100}, {200, 17, 100}, {18, 300, 64}, {80, 80, 80}, {300, 200, 80}, {30, 700, 90},
    {100, 35, 40}, {99, 36, 17}, {2000, 3, 60}, {1500, 2, 100}, {1500, 7, 80}, {700, 21, 40}};

/* Runs the call on a fresh copy of C0's bytes into C (same buffers, same arguments each time). */
static int tgt_call(const tgt_case *c, const tgt_buf *A, int64_t lda, const tgt_buf *B,
                    int64_t ldb, const tgt_buf *C0, tgt_buf *C, int64_t ldc)
{
    memcpy(C->mem, C0->mem, C0->total * c->es);
    return tgt_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, c->alpha, A->p, lda,
                    B->p, ldb, c->beta, C->p, ldc);
}

static void tgt_thread_case(const tgt_case *c)
{
    enum { TGT_TEAM = 3 };
    uint64_t rng = c->seed;
    int64_t av, al, bv, bl, cv, cl, wi, wj;
    tgt_buf A, B, C0, C1, Cn, Cp[TGT_TEAM];
    double *out = (double *)malloc((size_t)(c->m * c->n) * sizeof(double));
    double *bound = (double *)malloc((size_t)(c->m * c->n) * sizeof(double));
    const size_t c_bytes = (size_t)(c->m * c->n) * c->es;
    unsigned char *line_mem = (unsigned char *)malloc(c_bytes + 128), *lined = line_mem;
    int ok = out && bound && line_mem, st[TGT_TEAM];
    char what[400];

    snprintf(what, sizeof what, "threads %cgemm %s %s layout=%s A=%s B=%s m=%lld n=%lld k=%lld",
             c->es == 4 ? 's' : 'd', tgt_config(), tg_cpu_arch(), tgt_layout_name(c->layout),
             tgt_trans_name(c->transa), tgt_trans_name(c->transb), (long long)c->m,
             (long long)c->n, (long long)c->k);
    tgt_storage(c->layout, c->transa, c->m, c->k, &av, &al);
    tgt_storage(c->layout, c->transb, c->k, c->n, &bv, &bl);
    tgt_storage(c->layout, TG_NO_TRANS, c->m, c->n, &cv, &cl);
    ok &= tgt_buf_init(&A, c->es, av, al, al) & tgt_buf_init(&B, c->es, bv, bl, bl) &
          tgt_buf_init(&C0, c->es, cv, cl, cl) & tgt_buf_init(&C1, c->es, cv, cl, cl) &
          tgt_buf_init(&Cn, c->es, cv, cl, cl);
    for (int t = 0; t < TGT_TEAM; t++) ok &= tgt_buf_init(&Cp[t], c->es, cv, cl, cl);
    if (!ok) {
        tgt_check(0, "%s: the test ran out of memory", what);
        goto done;
    }
    lined += (64 - (uintptr_t)line_mem % 64) % 64; /* (C99: no aligned_alloc) */
    tgt_buf_fill(&A, &rng);
    tgt_buf_fill(&B, &rng);
    tgt_buf_fill(&C0, &rng);

    tg_set_num_threads(1);
    st[0] = tgt_call(c, &A, al, &B, bl, &C0, &C1, cl);
    tg_ref_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, c->alpha, A.p, al, B.p,
                bl, c->beta, C0.p, cl, out, bound);
    {
        double r = tg_ref_ratio(c->es, c->layout, c->m, c->n, C1.p, cl, out, bound, &wi, &wj);
        tgt_check(st[0] == TG_OK && r < 16, "%s, 1 thread: status %d, ratio %g at (%lld, %lld)",
                  what, st[0], r, (long long)wi, (long long)wj);
    }
    for (int nt = 2; nt <= 3; nt++) {
        int s;
        tg_set_num_threads(nt);
#ifdef _OPENMP
        tgt_check(tg_get_num_threads() == nt, "tg_get_num_threads() = %d after setting %d",
                  tg_get_num_threads(), nt);
#endif
        s = tgt_call(c, &A, al, &B, bl, &C0, &Cn, cl);
        tgt_check(s == TG_OK && memcmp(C1.mem, Cn.mem, C1.total * c->es) == 0,
                  "%s: %d threads (status %d) differ bitwise from 1 thread", what, nt, s);
        /* C on a cache line and one element past one: the small path splits C's rows or its
         * columns by where its lines fall, and neither may change a bit. */
        for (int shift = 0; ok && shift <= 1; shift++) {
            unsigned char *at = lined + (size_t)shift * c->es;
            memcpy(at, C0.p, c_bytes);
            s = tgt_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, c->alpha, A.p,
                         al, B.p, bl, c->beta, at, cl);
            tgt_check(s == TG_OK && memcmp(C1.p, at, c_bytes) == 0,
                      "%s: %d threads, C %s a cache line (status %d), differ bitwise from 1 "
                      "thread", what, nt, shift ? "one element past" : "on", s);
        }
    }

    /* Inside a caller's parallel region: each member makes its own call. */
    tg_set_num_threads(0);
#ifdef _OPENMP
    _Pragma("omp parallel for num_threads(TGT_TEAM) schedule(static, 1)")
#endif
    for (int t = 0; t < TGT_TEAM; t++) st[t] = tgt_call(c, &A, al, &B, bl, &C0, &Cp[t], cl);
    for (int t = 0; t < TGT_TEAM; t++)
        tgt_check(st[t] == TG_OK && memcmp(C1.mem, Cp[t].mem, C1.total * c->es) == 0,
                  "%s: call from member %d of a caller's parallel region (status %d) differs "
                  "bitwise from 1 thread", what, t, st[t]);
done:
    tg_set_num_threads(0);
    free(out);
    free(bound);
    free(line_mem);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C0);
    tgt_buf_free(&C1);
    tgt_buf_free(&Cn);
    for (int t = 0; t < TGT_TEAM; t++) tgt_buf_free(&Cp[t]);
}

void tgt_section_threads(void)
{
    uint64_t i = 4000000;
    for (size_t es = 4; es <= 8; es += 4)
        for (size_t s = 0; s < sizeof tgt_thread_shapes / sizeof tgt_thread_shapes[0]; s++) {
            tgt_case c;
            c.es = es;
            c.layout = s % 2 ? TG_COL_MAJOR : TG_ROW_MAJOR;
            c.transa = s / 2 % 2 ? TG_TRANS : TG_NO_TRANS;
            c.transb = (s + es / 4) % 2 ? TG_TRANS : TG_NO_TRANS;
            c.m = tgt_thread_shapes[s][0];
            c.n = tgt_thread_shapes[s][1];
            c.k = tgt_thread_shapes[s][2];
            c.pad_a = c.pad_b = c.pad_c = 0;
            c.alpha = 1.5;
            c.beta = -0.75;
            c.special = TGT_PLAIN;
            c.seed = i++;
            tgt_thread_case(&c);
        }
}
