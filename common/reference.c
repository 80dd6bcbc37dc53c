/* fp64 reference GEMM and the BLAS ratio test: see reference.h. Deliberately the plainest triple
 * loop over raw arguments; it is slow and meant to be. */
#include <float.h>
#include <math.h>

#include "reference.h"

double tg_ref_at(size_t es, const void *p, int layout, int trans, int64_t ld, int64_t i, int64_t j)
{
    /* op(X)(i, j) is stored at (j, i) when transposed; then the layout picks the linear index. */
    int64_t r = trans == TG_TRANS ? j : i, s = trans == TG_TRANS ? i : j;
    int64_t idx = layout == TG_ROW_MAJOR ? r * ld + s : r + s * ld;
    return es == 4 ? (double)((const float *)p)[idx] : ((const double *)p)[idx];
}

void tg_ref_gemm(size_t es, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                 double alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                 double beta, const void *c, int64_t ldc, double *out, double *bound)
{
    /* The product term exists only where alpha and k are both non-zero: with k zero an Inf or NaN
     * alpha leaves C = beta C, as in the reference BLAS (alpha times an empty sum would be NaN). */
    const int product = alpha != 0 && k > 0;
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < n; j++) {
            double sum = 0, mag = 0;
            if (product) {
                for (int64_t p = 0; p < k; p++) {
                    double x = tg_ref_at(es, a, layout, transa, lda, i, p);
                    double y = tg_ref_at(es, b, layout, transb, ldb, p, j);
                    sum += x * y;
                    mag += fabs(x) * fabs(y);
                }
            }
            double v = product ? alpha * sum : 0, g = product ? fabs(alpha) * mag : 0;
            if (beta != 0) {
                double cij = tg_ref_at(es, c, layout, TG_NO_TRANS, ldc, i, j);
                v += beta * cij;
                g += fabs(beta) * fabs(cij);
            }
            out[i * n + j] = v;
            bound[i * n + j] = g;
        }
    }
}

double tg_ref_ratio(size_t es, int layout, int64_t m, int64_t n, const void *c, int64_t ldc,
                    const double *out, const double *bound, int64_t *wi, int64_t *wj)
{
    double eps = es == 4 ? FLT_EPSILON : DBL_EPSILON, worst = 0;
    if (wi) *wi = -1;
    if (wj) *wj = -1;
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < n; j++) {
            double got = tg_ref_at(es, c, layout, TG_NO_TRANS, ldc, i, j), want = out[i * n + j];
            double r;
            if (isnan(want)) r = isnan(got) ? 0 : INFINITY;
            else if (isinf(want)) r = got == want ? 0 : INFINITY;
            else if (isnan(got) || isinf(got)) r = INFINITY;
            else if (bound[i * n + j] == 0) r = got == want ? 0 : INFINITY;
            else r = fabs(got - want) / (eps * bound[i * n + j]);
            if (r > worst || (wi && *wi < 0)) {
                if (r > worst) worst = r;
                if (wi) *wi = i;
                if (wj) *wj = j;
            }
        }
    }
    return worst;
}
