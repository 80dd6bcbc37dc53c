/* CPU stand-in for the two cuBLAS calls tests/cuda/test_cuda.cu makes, written from the BLAS
 * definition (column-major, C = alpha op(A) op(B) + beta C, C not read when beta is zero), so that
 * the test's own use of cuBLAS (the operations it picks for each layout and transpose) is checked
 * before it runs on a GPU. Plain loops, accumulated in the element type as cuBLAS does. */
#ifndef TG_EMU_CUBLAS_V2_H
#define TG_EMU_CUBLAS_V2_H

typedef struct tg__emu_cublas *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;

static inline cublasStatus_t cublasCreate(cublasHandle_t *h) { *h = nullptr; return CUBLAS_STATUS_SUCCESS; }
static inline cublasStatus_t cublasDestroy(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }

template <class T>
static cublasStatus_t tg__emu_gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const T *alpha, const T *a, int lda, const T *b, int ldb,
                                   const T *beta, T *c, int ldc)
{
    /* the argument checks cuBLAS makes on leading dimensions */
    if (m < 0 || n < 0 || k < 0 || lda < (ta == CUBLAS_OP_N ? m : k) || lda < 1 ||
        ldb < (tb == CUBLAS_OP_N ? k : n) || ldb < 1 || ldc < m || ldc < 1)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            T sum = 0;
            for (int p = 0; p < k; ++p)
                sum += (ta == CUBLAS_OP_N ? a[i + (long)p * lda] : a[p + (long)i * lda]) *
                       (tb == CUBLAS_OP_N ? b[p + (long)j * ldb] : b[j + (long)p * ldb]);
            T *e = &c[i + (long)j * ldc];
            *e = *beta == 0 ? *alpha * sum : *alpha * sum + *beta * *e;
        }
    return CUBLAS_STATUS_SUCCESS;
}

static inline cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m,
                                         int n, int k, const float *alpha, const float *a, int lda,
                                         const float *b, int ldb, const float *beta, float *c, int ldc)
{
    return tg__emu_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static inline cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m,
                                         int n, int k, const double *alpha, const double *a, int lda,
                                         const double *b, int ldb, const double *beta, double *c, int ldc)
{
    return tg__emu_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#endif
