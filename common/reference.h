/* The trusted fp64 reference GEMM and the BLAS ratio test, for tests and the harness.
 *
 * Not part of libtgemm: it is linked only into checking code. It indexes the raw BLAS arguments
 * (layout, transposes, leading dimensions) itself and shares no code with the library's views, so a
 * bug in turning arguments into views cannot hide behind a reference that has the same bug.
 */
#ifndef TGEMM_REFERENCE_H
#define TGEMM_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element (i, j) of a matrix given by raw BLAS arguments; es is 4 (float) or 8 (double). */
double tg_ref_at(size_t es, const void *p, int layout, int trans, int64_t ld, int64_t i, int64_t j);

/* out = alpha * op(A) * op(B) + beta * C in fp64 with the reference BLAS semantics (alpha or k zero:
 * A and B unread; beta zero: C unread), and bound = |alpha| * sum |a||b| + |beta| * |c|, the scale of
 * the ratio test. out and bound are m x n row-major, dense. c may be NULL when beta is zero. */
void tg_ref_gemm(size_t es, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                 double alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                 double beta, const void *c, int64_t ldc, double *out, double *bound);

/* The worst element of a computed C (es, layout, ldc as given to the GEMM) against the reference:
 * ratio = |c - out| / (eps * bound), eps = FLT_EPSILON or DBL_EPSILON. A NaN reference must be NaN,
 * an infinite one equal; a mismatch there, or a NaN in c where out is finite, is reported as INFINITY.
 * *wi, *wj (may be NULL) get the worst element's position. The BLAS test suites pass below 16. */
double tg_ref_ratio(size_t es, int layout, int64_t m, int64_t n, const void *c, int64_t ldc,
                    const double *out, const double *bound, int64_t *wi, int64_t *wj);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_REFERENCE_H */
