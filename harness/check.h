/* Operands of one case and the correctness check a worker runs before timing it.
 *
 * Checks follow the reference BLAS test suite's ratio test (limit 16, inputs uniform in [-1, 1]):
 * directly against the fp64 reference (common/reference.c) when m*n*k is small enough for that to be
 * cheap; otherwise a randomized check plus exact sampled rows and columns. See check.c.
 */
#ifndef TGEMM_HARNESS_CHECK_H
#define TGEMM_HARNESS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "vendors.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TG__RATIO_LIMIT 16.0

typedef struct {
    tg__case c;
    size_t es;             /* 4 or 8 */
    double alpha, beta;
    void *a, *b;           /* dense, uniform in [-1, 1] */
    void *c0;              /* C before the call: uniform in [-1, 1], or NaN when beta is 0 */
    void *cbuf, *cmat;     /* C with guard elements on both sides; cmat points past the front guard */
    int64_t lda, ldb, ldc;
    int64_t a_len, b_len, c_len;
} tg__problem;

/* Allocates and fills the operands; 0, or -1 when memory is short. */
int tg__problem_init(tg__problem *p, const tg__case *c, double alpha, double beta, uint64_t seed);
void tg__problem_free(tg__problem *p);
/* One call of the implementation on the problem's operands (C as it stands); its status. */
int tg__problem_run(const tg__problem *p, const tg__impl_ops *ops);

typedef struct {
    int ok;
    int unsupported;       /* the implementation declined the case (TG_ERR_UNSUPPORTED) */
    double max_ratio;      /* worst ratio-test value seen (INFINITY for NaN or a wrong guard) */
    const char *method;    /* "reference" or "randomized" */
    char msg[256];         /* what failed, empty when ok */
} tg__check_result;

/* Restores C to C0 and the guards, runs the implementation once and checks the result; seed draws
 * the randomized check's vector and sampled rows/columns (pass a fresh one for every case). */
void tg__check(tg__problem *p, const tg__impl_ops *ops, uint64_t seed, tg__check_result *r);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_CHECK_H */
