/* Working memory that cannot be had: TG_ERR_NOMEM, C untouched, and the next call works again.
 *
 * Only in builds of the library sources with TGEMM_TESTING, whose hook tg__test_fail_alloc makes
 * every working-memory allocation fail. The calls are large and have a transposed B whose width is
 * no multiple of any register tile, so that every path (blocked, or small with B panels copied)
 * needs working memory whatever TGEMM_PATH says; the second shape is one for the small path's
 * rows mode (a tall A over two or three panels of B, row-major), which packs all of B; the last is
 * one row of C over a transposed A, padded: a strided vector, which the matrix-vector product's
 * dots form copies (cpu/gemv.c), longer than the copy it keeps on the stack; and one row of C
 * column-major, which its rows form takes in parts of k whose sums do not fit that copy either,
 * and two rows of C over a transposed A the same way (a call the small path also needs memory for).
 */
#ifdef TGEMM_TESTING
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "tgt.h"

static void tgt_nomem_case(size_t es, int layout, int transa, int64_t m, int64_t n, int64_t k)
{
    int64_t av, al, bv, bl, cv, cl, wi, wj;
    uint64_t rng = 99 + es + (uint64_t)layout;
    tgt_buf A, B, C;
    unsigned char *c0 = NULL;
    double *out = (double *)malloc((size_t)(m * n) * sizeof(double));
    double *bound = (double *)malloc((size_t)(m * n) * sizeof(double));
    const char *fn = es == 4 ? "tg_sgemm" : "tg_dgemm";
    int st, ok = out && bound;

    tgt_storage(layout, transa, m, k, &av, &al);
    tgt_storage(layout, TG_TRANS, k, n, &bv, &bl);
    tgt_storage(layout, TG_NO_TRANS, m, n, &cv, &cl);
    ok &= tgt_buf_init(&A, es, av, al, al + 2) & tgt_buf_init(&B, es, bv, bl, bl) &
          tgt_buf_init(&C, es, cv, cl, cl + 1);
    if (ok) ok = (c0 = (unsigned char *)malloc(C.total * es)) != NULL;
    if (!ok) {
        tgt_check(0, "nomem: the test ran out of memory");
        goto done;
    }
    tgt_buf_fill(&A, &rng);
    tgt_buf_fill(&B, &rng);
    tgt_buf_fill(&C, &rng);
    memcpy(c0, C.mem, C.total * es);

    tg__test_fail_alloc = 1;
    st = tgt_gemm(es, layout, transa, TG_TRANS, m, n, k, 1.0, A.p, A.ld, B.p, B.ld, 0.5, C.p, C.ld);
    tg__test_fail_alloc = 0;
    tgt_check(st == TG_ERR_NOMEM, "%s %s %s layout=%s: status %d (%s) while allocation fails, want "
              "TG_ERR_NOMEM", fn, tgt_config(), tg_cpu_arch(), tgt_layout_name(layout), st,
              tg_strerror(st));
    tgt_check(memcmp(c0, C.mem, C.total * es) == 0, "%s %s layout=%s: C modified by a call that "
              "failed for memory", fn, tgt_config(), tgt_layout_name(layout));
    tgt_check(strstr(tg_last_error(), fn) && strstr(tg_last_error(), "memory"),
              "%s: message after TG_ERR_NOMEM is \"%s\"", fn, tg_last_error());

    /* Memory back: the same call succeeds and is right. */
    tg_ref_gemm(es, layout, transa, TG_TRANS, m, n, k, 1.0, A.p, A.ld, B.p, B.ld, 0.5, C.p, C.ld,
                out, bound);
    st = tgt_gemm(es, layout, transa, TG_TRANS, m, n, k, 1.0, A.p, A.ld, B.p, B.ld, 0.5, C.p, C.ld);
    {
        double r = tg_ref_ratio(es, layout, m, n, C.p, C.ld, out, bound, &wi, &wj);
        tgt_check(st == TG_OK && r < 16, "%s %s layout=%s after memory came back: status %d, ratio "
                  "%g at (%lld, %lld)", fn, tgt_config(), tgt_layout_name(layout), st, r,
                  (long long)wi, (long long)wj);
    }
done:
    free(c0);
    free(out);
    free(bound);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C);
}

void tgt_section_nomem(void)
{
    for (size_t es = 4; es <= 8; es += 4) {
        tgt_nomem_case(es, TG_ROW_MAJOR, TG_NO_TRANS, 150, 201, 170);
        tgt_nomem_case(es, TG_COL_MAJOR, TG_NO_TRANS, 150, 201, 170);
        tgt_nomem_case(es, TG_ROW_MAJOR, TG_NO_TRANS, 600, 40, 200);
        tgt_nomem_case(es, TG_ROW_MAJOR, TG_TRANS, 1, 300, 2000);
        tgt_nomem_case(es, TG_COL_MAJOR, TG_NO_TRANS, 1, 300, 2000);
        tgt_nomem_case(es, TG_ROW_MAJOR, TG_TRANS, 2, 300, 2000);
    }
}
#endif /* TGEMM_TESTING */
