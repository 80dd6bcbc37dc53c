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
/* The CPU micro-kernel family in use: "avx512", "avx2" or "generic" (TGEMM_ARCH forces one). */
TGEMM_DEF const char *tg_cpu_arch(void);

/* ---- elementwise kernels (cpu/elementwise*.c; the same with tg_cuda_ in cuda/elementwise/) ----
 * On contiguous arrays of n elements of type t; fp16 and bf16 exist on the GPU only (TG_ERR_UNSUPPORTED
 * here). alpha is converted to the array's type once. Arguments are checked first (1-based positions
 * in the message): NULL, negative lengths, bad enums, ldc too small and an input that partly overlaps
 * the output are TG_ERR_ARG and leave the output untouched; an input that is exactly the output (in
 * place) is allowed. NaN in gives NaN out; at +-Inf an activation gives its limit. */
typedef enum { TG_F32 = 0, TG_F64 = 1, TG_F16 = 2, TG_BF16 = 3 } tg_dtype; /* f16/bf16: GPU only */
typedef enum { TG_ACT_NONE = 0, TG_ACT_RELU, TG_ACT_GELU_TANH, TG_ACT_GELU_ERF,
               TG_ACT_SIGMOID, TG_ACT_SILU } tg_act;
typedef enum { TG_BIAS_PER_ROW = 0, TG_BIAS_PER_COL = 1 } tg_bias_mode;
TGEMM_DEF int tg_add(tg_dtype t, int64_t n, const void *x, const void *y, void *z);   /* z = x + y */
TGEMM_DEF int tg_sub(tg_dtype t, int64_t n, const void *x, const void *y, void *z);   /* z = x - y */
TGEMM_DEF int tg_mul(tg_dtype t, int64_t n, const void *x, const void *y, void *z);   /* z = x * y */
TGEMM_DEF int tg_scale(tg_dtype t, int64_t n, double alpha, void *x);                 /* x = alpha * x */
/* y = alpha * x + y, rounded once (a fused multiply-add) */
TGEMM_DEF int tg_axpy(tg_dtype t, int64_t n, double alpha, const void *x, void *y);
TGEMM_DEF int tg_activate(tg_dtype t, tg_act act, int64_t n, const void *x, void *y); /* y = act(x) */
/* c = act(c + bias) on a rows x cols matrix with leading dimension ldc: bias[i] for row i
 * (TG_BIAS_PER_ROW, rows values) or bias[j] for column j (TG_BIAS_PER_COL, cols values); the sum is
 * rounded to the type before the activation. */
TGEMM_DEF int tg_bias_act(tg_dtype t, tg_layout layout, int64_t rows, int64_t cols, const void *bias,
                          tg_bias_mode mode, tg_act act, void *c, int64_t ldc);
/* ---- end of elementwise ---- */

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_API_H */
