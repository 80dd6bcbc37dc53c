/* The implementations tgemm-bench-cuda times, on device pointers but for tgemm-host:
 *
 *   cuda-NN-<step>  one step of the SGEMM ladder (tg_cuda_sgemm_step, cuda/sgemm/NN_*.cu), named
 *                   from tg_cuda_sgemm_step_name, so a new step joins without an edit here
 *   tgemm-cuda      the launcher, tg_cuda_sgemm, which picks its kernel by shape (and, in an
 *                   elementwise sweep, tg_cuda_add ..., the elementwise launchers)
 *   cublas          cublasGemmEx, FP32 in and out, CUBLAS_COMPUTE_32F, the handle's default math
 *                   mode: the fair fp32 baseline (no TF32 unless NVIDIA_TF32_OVERRIDE says so, which
 *                   the device record notes)
 *   cublas-tf32     the same call with CUBLAS_COMPUTE_32F_FAST_TF32: tensor cores on inputs rounded
 *                   to TF32, a reference line for what the tensor cores give, not an fp32 result
 * and, for the crossover mode only (gpu.h's modes; worker.cu times them):
 *   tgemm-cuda+pinned    the launcher with its operands copied in from pinned host memory and its
 *                        result copied back on every call
 *   tgemm-cuda+pageable  the same from pageable (malloc'd) host memory
 *   tgemm-host           the CPU library on the host, all its cores (libtgemm_cuda.a holds it)
 *
 * cuBLAS is column-major; a row-major call is the column-major product of the transposes
 * (Cᵀ = op(B)ᵀ·op(A)ᵀ), so it swaps the operands and keeps the transposes, as cuda/launch.cu does.
 */
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>

#include "api.h"
#include "gpu_internal.h"
#include "tgemm_cuda.h"

/* The implementations after the ladder's steps, in this order. */
enum { AFTER_LAUNCHER, AFTER_CUBLAS, AFTER_CUBLAS_TF32, AFTER_PINNED, AFTER_PAGEABLE, AFTER_HOST,
       AFTER_COUNT };

static int steps(void) { return tg_cuda_sgemm_step_count(); }

extern "C" int tg__gpu_impl_count(void)
{
    int n = steps() + AFTER_COUNT;
    return n <= TG__GPU_IMPL_MAX ? n : TG__GPU_IMPL_MAX;
}

extern "C" const char *tg__gpu_impl_name(int g)
{
    static char names[TG__GPU_IMPL_MAX][48];
    if (g < 0 || g >= tg__gpu_impl_count()) return "(unknown GPU implementation)";
    if (g >= steps()) {
        static const char *const after[AFTER_COUNT] = {"tgemm-cuda", "cublas", "cublas-tf32",
                                                       "tgemm-cuda+pinned", "tgemm-cuda+pageable",
                                                       "tgemm-host"};
        return after[g - steps()];
    }
    if (!names[g][0]) snprintf(names[g], sizeof names[g], "cuda-%02d-%s", g + 1,
                               tg_cuda_sgemm_step_name(g + 1));
    return names[g];
}

extern "C" int tg__gpu_impl_parse(const char *name)
{
    for (int g = 0; g < tg__gpu_impl_count(); g++)
        if (!strcmp(name, tg__gpu_impl_name(g))) return g;
    return -1;
}

int tg__gpu_impl_tf32(int g) { return g == steps() + AFTER_CUBLAS_TF32; }

extern "C" int tg__gpu_impl_mode(int g)
{
    int after = g - steps();
    return after == AFTER_PINNED     ? TG__GPU_PINNED
           : after == AFTER_PAGEABLE ? TG__GPU_PAGEABLE
           : after == AFTER_HOST     ? TG__GPU_ON_HOST
                                     : TG__GPU_ON_DEVICE;
}

static cublasHandle_t blas; /* one per worker process, made on first use */

static const char *cublas_version(void)
{
    static char text[32];
    int major = 0, minor = 0, patch = 0;
    if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS)
        return "unknown";
    snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
    return text;
}

void tg__gpu_impl_info_json(int g, FILE *out)
{
    const char *what, *version = "the commit in the machine record";
    char buf[200];
    int s = steps();
    if (g < s) {
        snprintf(buf, sizeof buf, "SGEMM ladder step %d of %d (cuda/sgemm/%02d_%s.cu), "
                 "tg_cuda_sgemm_step", g + 1, s, g + 1, tg_cuda_sgemm_step_name(g + 1));
        what = buf;
    } else if (g == s + AFTER_LAUNCHER) {
        what = "the launchers: tg_cuda_sgemm (its kernel chosen by shape) for a GEMM, tg_cuda_add, "
               "... (cuda/elementwise/) for an elementwise case";
    } else if (g == s + AFTER_PINNED || g == s + AFTER_PAGEABLE) {
        snprintf(buf, sizeof buf, "the launcher (tg_cuda_sgemm, tg_cuda_add, ...) with its inputs "
                 "copied in from %s host memory and its output back on every call, synchronised",
                 g == s + AFTER_PINNED ? "pinned (cudaMallocHost)" : "pageable (malloc)");
        what = buf;
    } else if (g == s + AFTER_HOST) {
        snprintf(buf, sizeof buf, "the CPU library (tg_sgemm, tg_add, ...) on the host, %d OpenMP "
                 "threads, %s kernels", tg_get_num_threads(), tg_cpu_arch());
        what = buf;
    } else {
        version = cublas_version();
        what = g == s + AFTER_CUBLAS ? "cublasGemmEx, CUBLAS_COMPUTE_32F, default math mode"
                                     : "cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32 (TF32 tensor "
                                       "cores: a reference line, checked to TF32's precision)";
    }
    int cublas = g == s + AFTER_CUBLAS || g == s + AFTER_CUBLAS_TF32;
    fprintf(out, "{\"present\": true, \"path\": ");
    tg__json_str(out, cublas ? "libcublas (linked)" : "linked statically from build/libtgemm_cuda.a");
    fprintf(out, ", \"version\": ");
    tg__json_str(out, version);
    fprintf(out, ", \"config\": ");
    tg__json_str(out, what);
    fprintf(out, ", \"threads\": %d}", g == s + AFTER_HOST ? tg_get_num_threads() : 1);
}

static const char *cublas_error(cublasStatus_t st)
{
    static char text[64];
    snprintf(text, sizeof text, "cuBLAS status %d", (int)st);
    return text;
}

int tg__gpu_sgemm(int g, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                  float alpha, const float *dA, int64_t lda, const float *dB, int64_t ldb,
                  float beta, float *dC, int64_t ldc, cudaStream_t stream, const char **why)
{
    *why = NULL;
    int s = steps();
    if (g < s)
        return tg_cuda_sgemm_step((tg_layout)layout, (tg_trans)transa, (tg_trans)transb, m, n, k,
                                  alpha, dA, lda, dB, ldb, beta, dC, ldc, stream, g + 1);
    if (g == s + AFTER_HOST) {
        *why = "tgemm-host runs on the host, not on device pointers";
        return TG_ERR_UNSUPPORTED;
    }
    if (g == s + AFTER_LAUNCHER || g == s + AFTER_PINNED || g == s + AFTER_PAGEABLE)
        return tg_cuda_sgemm((tg_layout)layout, (tg_trans)transa, (tg_trans)transb, m, n, k, alpha,
                             dA, lda, dB, ldb, beta, dC, ldc, stream);
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (!blas) st = cublasCreate(&blas);
    if (st == CUBLAS_STATUS_SUCCESS) st = cublasSetStream(blas, stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
        *why = cublas_error(st);
        return TG_ERR_DEVICE;
    }
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || lda > INT32_MAX || ldb > INT32_MAX ||
        ldc > INT32_MAX)
        return TG_ERR_UNSUPPORTED; /* cublasGemmEx takes int */
    cublasOperation_t oa = transa == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t ob = transb == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasComputeType_t compute = g == s + AFTER_CUBLAS ? CUBLAS_COMPUTE_32F
                                                        : CUBLAS_COMPUTE_32F_FAST_TF32;
    if (layout == TG_ROW_MAJOR)
        st = cublasGemmEx(blas, ob, oa, (int)n, (int)m, (int)k, &alpha, dB, CUDA_R_32F, (int)ldb,
                          dA, CUDA_R_32F, (int)lda, &beta, dC, CUDA_R_32F, (int)ldc, compute,
                          CUBLAS_GEMM_DEFAULT);
    else
        st = cublasGemmEx(blas, oa, ob, (int)m, (int)n, (int)k, &alpha, dA, CUDA_R_32F, (int)lda,
                          dB, CUDA_R_32F, (int)ldb, &beta, dC, CUDA_R_32F, (int)ldc, compute,
                          CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) {
        *why = cublas_error(st);
        return TG_ERR_DEVICE;
    }
    return TG_OK;
}
