/* The implementations a worker can time, behind one set of function pointers.
 *
 * tgemm is linked in (build/libtgemm.a); every vendor library is opened at run time with dlopen, so
 * the harness builds and runs without any of them and reports an absent one as absent. A worker
 * process loads exactly one implementation (see bench.h for why), so the loaded library's entry
 * points live in this file's statics.
 */
#ifndef TGEMM_HARNESS_VENDORS_H
#define TGEMM_HARNESS_VENDORS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*tg__sgemm_fn)(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                            float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                            float beta, float *c, int64_t ldc);
typedef int (*tg__dgemm_fn)(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                            double alpha, const double *a, int64_t lda, const double *b,
                            int64_t ldb, double beta, double *c, int64_t ldc);

typedef struct {
    tg__sgemm_fn sgemm;  /* return 0, or a nonzero status the implementation reported */
    tg__dgemm_fn dgemm;
    void (*set_threads)(int n);
    /* NULL when the implementation can run the case, else why not (libxsmm: small, 1 thread). */
    const char *(*unsupported)(const tg__case *c);
} tg__impl_ops;

/* Loads implementation id into this process. 0 on success; -1 with the reason in why (an absent
 * library: "libmkl_rt.so not found ...") otherwise. */
int tg__impl_load(tg__impl_id id, tg__impl_ops *ops, char *why, size_t len);

/* Loads id and writes its JSON record: {"present": true, "path": the resolved file, "version",
 * "config", "threads", ...} or {"present": false, "reason": ...}. */
void tg__impl_info_json(tg__impl_id id, FILE *out);

/* An entry point of the loaded vendor library by name (cblas_saxpy ...); NULL for tgemm, or when
 * the library lacks it. */
void *tg__impl_sym(const char *name);

/* The planted implementation corrupts one element, C(m-1, n-1), the last edge tile, of this shape. */
void tg__planted_target(int64_t m, int64_t n, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_VENDORS_H */
