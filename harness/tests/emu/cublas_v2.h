/* The CPU emulation's cuBLAS (tests/cuda/emu/cublas_v2.h) with what tgemm-bench-cuda's GPU side
 * (harness/cuda/) calls beyond it: cublasGemmEx on FP32 operands, in plain FP32 for
 * CUBLAS_COMPUTE_32F and, for CUBLAS_COMPUTE_32F_FAST_TF32, on copies of A and B rounded to TF32's
 * 10-bit mantissa as the tensor cores take them, so the harness's TF32-scaled check meets an error
 * of the right size; the handle's stream and the version query. Found before tests/cuda/emu by the
 * include path of `make test-harness-cuda-emulated` (harness/gpu.mk).
 */
#ifndef TG_EMU_HARNESS_CUBLAS_V2_H
#define TG_EMU_HARNESS_CUBLAS_V2_H

#include <cstring>
#include <vector>

#include "../../../tests/cuda/emu/cublas_v2.h"
#include "../../../tests/cuda/emu/cuda_runtime_api.h"

typedef enum { CUDA_R_32F = 0, CUDA_R_64F = 1 } cudaDataType;
typedef enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77 } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1 } cublasGemmAlgo_t;
typedef enum { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL } libraryPropertyType;

static inline cublasStatus_t cublasGetProperty(libraryPropertyType, int *v)
{
    *v = 0;
    return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t)
{
    return CUBLAS_STATUS_SUCCESS;
}

/* x rounded to nearest on TF32's 10 explicit mantissa bits (13 of FP32's 23 dropped). */
static inline float tg__emu_tf32(float x)
{
    unsigned u;
    memcpy(&u, &x, sizeof u);
    u = (u + 0x1000u) & ~0x1fffu;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta,
                                          cublasOperation_t tb, int m, int n, int k,
                                          const void *alpha, const void *a, cudaDataType at,
                                          int lda, const void *b, cudaDataType bt, int ldb,
                                          const void *beta, void *c, cudaDataType ct, int ldc,
                                          cublasComputeType_t compute, cublasGemmAlgo_t)
{
    if (at != CUDA_R_32F || bt != CUDA_R_32F || ct != CUDA_R_32F)
        return CUBLAS_STATUS_INVALID_VALUE;
    const float *fa = (const float *)a, *fb = (const float *)b;
    std::vector<float> ra, rb;
    if (compute == CUBLAS_COMPUTE_32F_FAST_TF32) {
        /* the stored extents of A and B: ld x (columns of what is stored) */
        ra.assign(fa, fa + (size_t)lda * (ta == CUBLAS_OP_N ? k : m));
        rb.assign(fb, fb + (size_t)ldb * (tb == CUBLAS_OP_N ? n : k));
        for (float &x : ra) x = tg__emu_tf32(x);
        for (float &x : rb) x = tg__emu_tf32(x);
        fa = ra.data();
        fb = rb.data();
    }
    return tg__emu_gemm(ta, tb, m, n, k, (const float *)alpha, fa, lda, fb, ldb,
                        (const float *)beta, (float *)c, ldc);
}

#endif
