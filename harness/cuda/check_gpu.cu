/* The ratio test on the GPU, for cases too large for the CPU's fp64 reference: every element of C
 * against cuBLAS DGEMM on the operands upcast to fp64.
 *
 * The reference BLAS test's ratio |C - ref| / (eps * bound) < 16, with ref = alpha*op(A)*op(B) +
 * beta*C0 and bound = |alpha|*|op(A)|*|op(B)| + |beta|*|C0|, both computed in fp64 by cublasDgemm
 * (the bound as a DGEMM of the absolute values), so the test is the one check.c's direct reference
 * makes, only on the device: for 8192^3 it takes milliseconds where the plain CPU loops would take
 * minutes per implementation. Every element is tested (not a sample), NaN never passes, and beta = 0
 * never reads C0 (cuBLAS does not read C when beta is zero). cuBLAS's DGEMM rounds in fp64, 2^29
 * times finer than the fp32 eps the ratio is measured in.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "api.h"
#include "check.h"
#include "gpu_internal.h"

__global__ void upcast(const float *x, int64_t len, double *out, double *abs_out)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x) {
        double v = x[i];
        out[i] = v;
        abs_out[i] = fabs(v);
    }
}

/* The worst ratio (as the bits of a non-negative double, which order like the double) and the first
 * element, in storage order, at or above the limit. */
__global__ void ratios(const float *c, const double *ref, const double *bound, int64_t m, int64_t n,
                       int64_t ldc, int row_major, double eps, double limit,
                       unsigned long long *worst, unsigned long long *first_bad)
{
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < m * n;
         t += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = row_major ? t / n : t % m, j = row_major ? t % n : t / m;
        int64_t at = row_major ? i * ldc + j : i + j * ldc;
        double diff = fabs((double)c[at] - ref[at]), b = eps * bound[at], r;
        if (isnan(diff) || isinf(diff)) r = INFINITY;
        else if (b == 0) r = diff == 0 ? 0 : INFINITY;
        else r = diff / b;
        atomicMax(worst, (unsigned long long)__double_as_longlong(r));
        if (r >= limit) atomicMin(first_bad, (unsigned long long)t);
    }
}

struct buffers {
    double *a, *a_abs, *b, *b_abs, *ref, *bound;
    unsigned long long *flags;
};

/* Enough blocks of 256 for one element per thread, at most 4096 (the loops are grid-stride). */
static int blocks_for(int64_t len)
{
    int64_t b = (len + 255) / 256;
    return b < 1 ? 1 : b > 4096 ? 4096 : (int)b;
}

static cublasHandle_t blas; /* this check's own: impls.cu's handle belongs to what is measured */

#define TRY(call, what)                                                                            \
    do {                                                                                           \
        if (!(call)) {                                                                             \
            snprintf(why, len, "GPU check: %s failed", what);                                      \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

int tg__gpu_ratio_check(const tg__case *c, double alpha, double beta, const float *dA,
                        int64_t lda, int64_t a_len, const float *dB, int64_t ldb, int64_t b_len,
                        const float *dC0, const float *dC, int64_t ldc, int64_t c_len,
                        double *max_ratio, int64_t *bad_i, int64_t *bad_j, char *why, size_t len)
{
    struct buffers d;
    memset(&d, 0, sizeof d);
    int rc = -1, row = c->layout == TG_ROW_MAJOR;
    cublasOperation_t oa = c->transa == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t ob = c->transb == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    double abs_alpha = fabs(alpha), abs_beta = fabs(beta);
    unsigned long long flags[2] = {0, ~0ull}, *bad = NULL; /* the worst ratio, the first failure */
    const double eps = FLT_EPSILON, limit = TG__RATIO_LIMIT;
    const int nb = blocks_for(c->m * c->n);
    TRY(blas || cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    TRY(cublasSetStream(blas, 0) == CUBLAS_STATUS_SUCCESS, "cublasSetStream");
    TRY(cudaMalloc(&d.a, 2 * a_len * sizeof(double)) == cudaSuccess, "cudaMalloc (A)");
    TRY(cudaMalloc(&d.b, 2 * b_len * sizeof(double)) == cudaSuccess, "cudaMalloc (B)");
    TRY(cudaMalloc(&d.ref, 2 * c_len * sizeof(double)) == cudaSuccess, "cudaMalloc (C)");
    TRY(cudaMalloc(&d.flags, sizeof flags) == cudaSuccess, "cudaMalloc");
    d.a_abs = d.a + a_len;
    d.b_abs = d.b + b_len;
    d.bound = d.ref + c_len;
    /* Launches on lines of their own, with all four launch parameters: the CPU emulation's build
     * rewrites them (cuda/cuda.mk). */
    upcast<<<blocks_for(a_len), 256, 0, 0>>>(dA, a_len, d.a, d.a_abs);
    upcast<<<blocks_for(b_len), 256, 0, 0>>>(dB, b_len, d.b, d.b_abs);
    /* C0 and |C0| straight into the DGEMMs' outputs, which they then update with beta. */
    if (beta != 0)
        upcast<<<blocks_for(c_len), 256, 0, 0>>>(dC0, c_len, d.ref, d.bound);
    TRY(cudaGetLastError() == cudaSuccess, "upcast");
    /* Row-major: the column-major product of the transposes, operands swapped (as impls.cu). */
    if (row) {
        TRY(cublasDgemm(blas, ob, oa, (int)c->n, (int)c->m, (int)c->k, &alpha, d.b, (int)ldb, d.a,
                        (int)lda, &beta, d.ref, (int)ldc) == CUBLAS_STATUS_SUCCESS, "cublasDgemm");
        TRY(cublasDgemm(blas, ob, oa, (int)c->n, (int)c->m, (int)c->k, &abs_alpha, d.b_abs,
                        (int)ldb, d.a_abs, (int)lda, &abs_beta, d.bound, (int)ldc) ==
                CUBLAS_STATUS_SUCCESS, "cublasDgemm (bound)");
    } else {
        TRY(cublasDgemm(blas, oa, ob, (int)c->m, (int)c->n, (int)c->k, &alpha, d.a, (int)lda, d.b,
                        (int)ldb, &beta, d.ref, (int)ldc) == CUBLAS_STATUS_SUCCESS, "cublasDgemm");
        TRY(cublasDgemm(blas, oa, ob, (int)c->m, (int)c->n, (int)c->k, &abs_alpha, d.a_abs,
                        (int)lda, d.b_abs, (int)ldb, &abs_beta, d.bound, (int)ldc) ==
                CUBLAS_STATUS_SUCCESS, "cublasDgemm (bound)");
    }
    TRY(cudaMemcpy(d.flags, flags, sizeof flags, cudaMemcpyHostToDevice) == cudaSuccess, "flags");
    bad = d.flags + 1;
    ratios<<<nb, 256, 0, 0>>>(dC, d.ref, d.bound, c->m, c->n, ldc, row, eps, limit, d.flags, bad);
    TRY(cudaGetLastError() == cudaSuccess, "the ratio kernel");
    TRY(cudaMemcpy(flags, d.flags, sizeof flags, cudaMemcpyDeviceToHost) == cudaSuccess,
        "reading the ratios");
    memcpy(max_ratio, &flags[0], sizeof *max_ratio);
    *bad_i = *bad_j = -1;
    if (flags[1] != ~0ull) {
        int64_t t = (int64_t)flags[1];
        *bad_i = row ? t / c->n : t % c->m;
        *bad_j = row ? t % c->n : t / c->m;
    }
    rc = 0;
out:
    cudaFree(d.a);
    cudaFree(d.b);
    cudaFree(d.ref);
    cudaFree(d.flags);
    return rc;
}
