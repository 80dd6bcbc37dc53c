/* A second opinion: OpenBLAS's cblas_sgemm / cblas_dgemm on the same random cases, called with the
 * same raw arguments (tgemm's enums equal CBLAS's, so they pass through a cast).
 *
 * The fp64 reference is this project's own code; agreeing with it proves little if it shares a
 * misreading of the BLAS contract with the library (say, of how a transposed column-major operand
 * is laid out). OpenBLAS is an independent reading: both its result and tgemm's must pass the ratio
 * test against the reference, and tgemm's must pass it against OpenBLAS's too, all with the same
 * threshold of 16 (in practice both sit far below 1, so a pass is not luck).
 */
#ifdef TGT_OPENBLAS
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

static void tgt_blas_gemm(const tgt_case *c, const void *a, int64_t lda, const void *b, int64_t ldb,
                          double alpha, double beta, void *cm, int64_t ldc)
{
    enum CBLAS_ORDER order = (enum CBLAS_ORDER)c->layout;
    enum CBLAS_TRANSPOSE ta = (enum CBLAS_TRANSPOSE)c->transa, tb = (enum CBLAS_TRANSPOSE)c->transb;
    if (c->es == 4)
        cblas_sgemm(order, ta, tb, (blasint)c->m, (blasint)c->n, (blasint)c->k, (float)alpha,
                    (const float *)a, (blasint)lda, (const float *)b, (blasint)ldb, (float)beta,
                    (float *)cm, (blasint)ldc);
    else
        cblas_dgemm(order, ta, tb, (blasint)c->m, (blasint)c->n, (blasint)c->k, alpha,
                    (const double *)a, (blasint)lda, (const double *)b, (blasint)ldb, beta,
                    (double *)cm, (blasint)ldc);
}

/* C as a dense row-major fp64 matrix, the reference's format. */
static void tgt_to_dense(const tgt_case *c, const void *cm, int64_t ldc, double *dense)
{
    for (int64_t i = 0; i < c->m; i++)
        for (int64_t j = 0; j < c->n; j++)
            dense[i * c->n + j] = tg_ref_at(c->es, cm, c->layout, TG_NO_TRANS, ldc, i, j);
}

static void tgt_second_opinion(const tgt_case *c)
{
    uint64_t rng = c->seed;
    int64_t av, al, bv, bl, cv, cl, lda, ldb, ldc, wi, wj;
    double alpha = c->es == 4 ? (double)(float)c->alpha : c->alpha;
    double beta = c->es == 4 ? (double)(float)c->beta : c->beta;
    size_t cells = (size_t)(c->m * c->n);
    double *out = (double *)malloc(cells * sizeof(double));
    double *bound = (double *)malloc(cells * sizeof(double));
    double *blas = (double *)malloc(cells * sizeof(double));
    tgt_buf A, B, C, D;
    double r_blas, r_tg;
    int st;

    tgt_storage(c->layout, c->transa, c->m, c->k, &av, &al);
    tgt_storage(c->layout, c->transb, c->k, c->n, &bv, &bl);
    tgt_storage(c->layout, TG_NO_TRANS, c->m, c->n, &cv, &cl);
    lda = al + c->pad_a;
    ldb = bl + c->pad_b;
    ldc = cl + c->pad_c;
    if (!(tgt_buf_init(&A, c->es, av, al, lda) & tgt_buf_init(&B, c->es, bv, bl, ldb) &
          tgt_buf_init(&C, c->es, cv, cl, ldc) & tgt_buf_init(&D, c->es, cv, cl, ldc)) ||
        !out || !bound || !blas) {
        tgt_check(0, "openblas case: the test ran out of memory");
        goto done;
    }
    tgt_buf_fill(&A, &rng);
    tgt_buf_fill(&B, &rng);
    tgt_buf_fill(&C, &rng);
    memcpy(D.mem, C.mem, C.total * c->es);
    tg_ref_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, alpha, A.p, lda, B.p,
                ldb, beta, C.p, ldc, out, bound);
    st = tgt_gemm(c->es, c->layout, c->transa, c->transb, c->m, c->n, c->k, alpha, A.p, lda, B.p,
                  ldb, beta, C.p, ldc);
    tgt_blas_gemm(c, A.p, lda, B.p, ldb, alpha, beta, D.p, ldc);
    tgt_to_dense(c, D.p, ldc, blas);

    r_blas = tg_ref_ratio(c->es, c->layout, c->m, c->n, D.p, ldc, out, bound, &wi, &wj);
    tgt_check(r_blas < 16, "openblas %cgemm layout=%s A=%s B=%s m=%lld n=%lld k=%lld: OpenBLAS "
              "against the reference: ratio %g at (%lld, %lld)", c->es == 4 ? 's' : 'd',
              tgt_layout_name(c->layout), tgt_trans_name(c->transa), tgt_trans_name(c->transb),
              (long long)c->m, (long long)c->n, (long long)c->k, r_blas, (long long)wi,
              (long long)wj);
    r_tg = st == TG_OK ? tg_ref_ratio(c->es, c->layout, c->m, c->n, C.p, ldc, blas, bound, &wi, &wj)
                       : -1;
    tgt_check(st == TG_OK && r_tg < 16,
              "openblas %cgemm %s %s layout=%s A=%s B=%s m=%lld n=%lld k=%lld lda=%lld ldb=%lld "
              "ldc=%lld alpha=%g beta=%g: status %d, tgemm against OpenBLAS: ratio %g at "
              "(%lld, %lld)",
              c->es == 4 ? 's' : 'd', tgt_config(), tg_cpu_arch(), tgt_layout_name(c->layout),
              tgt_trans_name(c->transa), tgt_trans_name(c->transb), (long long)c->m,
              (long long)c->n, (long long)c->k, (long long)lda, (long long)ldb, (long long)ldc,
              alpha, beta, st, r_tg, (long long)wi, (long long)wj);
done:
    free(out);
    free(bound);
    free(blas);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C);
    tgt_buf_free(&D);
}

void tgt_section_openblas(int count)
{
    uint64_t rng = 7700123;
    for (int i = 0; i < count; i++) {
        tgt_case c = tgt_random_case(&rng, i % 2 ? 8 : 4);
        tgt_second_opinion(&c);
    }
}
#endif /* TGT_OPENBLAS */
