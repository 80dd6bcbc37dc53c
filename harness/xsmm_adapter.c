/* libtg_xsmm.so: a plain GEMM call over libxsmm, for the harness to dlopen.
 *
 * Debian ships libxsmm only as static archives (/usr/lib/libxsmm.a, libxsmmnoblas.a), which cannot be
 * dlopen'd, and the harness must build and run without libxsmm; so harness.mk links this adapter and
 * the archives into build/harness/libtg_xsmm.so when the package is present. Built as:
 *   cc -shared -fPIC harness/xsmm_adapter.c /usr/lib/libxsmm.a /usr/lib/libxsmmnoblas.a -o ...
 * Each call asks libxsmm for its JIT kernel for the shape (a cached lookup after the first call: the
 * per-call path libxsmm offers small GEMMs) and runs it. libxsmm's kernels are column-major, alpha 1,
 * beta 0 or 1; a row-major call becomes the column-major call on the transposes (C^T = B^T A^T).
 * Where libxsmm has no kernel, the call returns TG_ERR_UNSUPPORTED (3) instead of falling back to a
 * BLAS (libxsmmnoblas has none), so the harness reports the case as skipped for libxsmm.
 */
#include <stdint.h>

#include <libxsmm.h>

#include "api.h"

int tg_xsmm_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc);
int tg_xsmm_dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                  double *c, int64_t ldc);
const char *tg_xsmm_version(void);
const char *tg_xsmm_target(void);

/* The column-major problem libxsmm sees: row-major swaps the operands and m with n. */
typedef struct {
    libxsmm_blasint m, n, k, lda, ldb, ldc;
    int flags;
    int swap;
} colmajor;

static colmajor to_colmajor(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k,
                            int64_t lda, int64_t ldb, int64_t ldc)
{
    colmajor p;
    p.swap = layout == TG_ROW_MAJOR;
    p.m = (libxsmm_blasint)(p.swap ? n : m);
    p.n = (libxsmm_blasint)(p.swap ? m : n);
    p.k = (libxsmm_blasint)k;
    p.lda = (libxsmm_blasint)(p.swap ? ldb : lda);
    p.ldb = (libxsmm_blasint)(p.swap ? lda : ldb);
    p.ldc = (libxsmm_blasint)ldc;
    int first = p.swap ? tb : ta, second = p.swap ? ta : tb;
    p.flags = (first == TG_TRANS ? LIBXSMM_GEMM_FLAG_TRANS_A : 0) |
              (second == TG_TRANS ? LIBXSMM_GEMM_FLAG_TRANS_B : 0);
    return p;
}

int tg_xsmm_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc)
{
    colmajor p = to_colmajor(layout, ta, tb, m, n, k, lda, ldb, ldc);
    int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
    libxsmm_smmfunction f = libxsmm_smmdispatch(p.m, p.n, p.k, &p.lda, &p.ldb, &p.ldc, &alpha,
                                                &beta, &p.flags, &prefetch);
    if (!f) return TG_ERR_UNSUPPORTED;
    if (p.swap) f(b, a, c);
    else f(a, b, c);
    return TG_OK;
}

int tg_xsmm_dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                  double *c, int64_t ldc)
{
    colmajor p = to_colmajor(layout, ta, tb, m, n, k, lda, ldb, ldc);
    int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
    libxsmm_dmmfunction f = libxsmm_dmmdispatch(p.m, p.n, p.k, &p.lda, &p.ldb, &p.ldc, &alpha,
                                                &beta, &p.flags, &prefetch);
    if (!f) return TG_ERR_UNSUPPORTED;
    if (p.swap) f(b, a, c);
    else f(a, b, c);
    return TG_OK;
}

const char *tg_xsmm_version(void) { return LIBXSMM_CONFIG_VERSION; }

const char *tg_xsmm_target(void) { return libxsmm_get_target_arch(); }
