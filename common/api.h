/* tgemm public API: types, status codes and the CPU entry points.
 *
 * This is the one header a user of libtgemm includes (through tgemm.h, the generated single-header
 * drop-in, or directly when linking build/libtgemm). Enum values equal CBLAS's, so CBLAS enums pass
 * through a cast. Every entry point that can fail returns a status; tg_last_error() says why.
 */
#ifndef TGEMM_API_H
#define TGEMM_API_H

#include <stdint.h>

#define TGEMM_VERSION_MAJOR 0
#define TGEMM_VERSION_MINOR 1
#define TGEMM_VERSION_PATCH 0
#define TGEMM_VERSION "0.1.0"

/* TGEMM_STATIC gives every function internal linkage (for the single header used privately). */
#ifndef TGEMM_DEF
#if defined(TGEMM_STATIC) && defined(__GNUC__)
#define TGEMM_DEF static __attribute__((unused)) /* a user may call only some of them */
#elif defined(TGEMM_STATIC)
#define TGEMM_DEF static
#else
#define TGEMM_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TG_ROW_MAJOR = 101, TG_COL_MAJOR = 102 } tg_layout;
typedef enum { TG_NO_TRANS = 111, TG_TRANS = 112 } tg_trans;

/* Status codes. */
enum {
    TG_OK = 0,          /* success */
    TG_ERR_ARG,         /* an invalid argument; tg_last_error() names it; outputs untouched */
    TG_ERR_NOMEM,       /* working memory could not be had; outputs untouched */
    TG_ERR_UNSUPPORTED, /* a type or path this build or machine lacks */
    TG_ERR_DEVICE       /* a CUDA error */
};

/* C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n, C m x n: the CBLAS contract.
 * Arguments are checked first, then the BLAS quick returns apply: m or n zero touches nothing; alpha
 * or k zero scales C by beta without reading A or B; beta zero never reads C. */
TGEMM_DEF int tg_sgemm(tg_layout layout, tg_trans transa, tg_trans transb,
                       int64_t m, int64_t n, int64_t k, float alpha,
                       const float *a, int64_t lda, const float *b, int64_t ldb,
                       float beta, float *c, int64_t ldc);
TGEMM_DEF int tg_dgemm(tg_layout layout, tg_trans transa, tg_trans transb,
                       int64_t m, int64_t n, int64_t k, double alpha,
                       const double *a, int64_t lda, const double *b, int64_t ldb,
                       double beta, double *c, int64_t ldc);

/* A fixed text for a status code ("invalid argument", ...). */
TGEMM_DEF const char *tg_strerror(int status);
/* This thread's message for its last failed call: the parameter's 1-based position and name, its
 * value and what was expected. "" when this thread has had no failure. */
TGEMM_DEF const char *tg_last_error(void);
/* Process-wide thread count for the CPU kernels; 0 = follow OMP_NUM_THREADS / all cores. */
TGEMM_DEF void tg_set_num_threads(int n);
/* The thread count a call made now would use at most. */
TGEMM_DEF int tg_get_num_threads(void);
/* The CPU micro-kernel family in use: "avx2" or "generic" (TGEMM_ARCH forces one). */
TGEMM_DEF const char *tg_cpu_arch(void);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_API_H */
