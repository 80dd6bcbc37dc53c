/* Private to tgemm-bench-cuda's GPU side (harness/cuda/): the GPU implementations, the device, the
 * GPU ceilings. What the rest of the harness sees of it is ../gpu.h.
 */
#ifndef TGEMM_HARNESS_CUDA_GPU_INTERNAL_H
#define TGEMM_HARNESS_CUDA_GPU_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "gpu.h"

/* ---- implementations (impls.cu) ---- */
/* One SGEMM by GPU implementation g on device pointers, queued on stream: the arguments of
 * tg_cuda_sgemm (BLAS meaning, either layout). Returns TG_OK or a tgemm status (a cuBLAS failure is
 * TG_ERR_DEVICE with its name in *why). */
int tg__gpu_sgemm(int g, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                  float alpha, const float *dA, int64_t lda, const float *dB, int64_t ldb,
                  float beta, float *dC, int64_t ldc, cudaStream_t stream, const char **why);
/* Whether g's results are only as precise as TF32 inputs (10-bit mantissa): its check scales the
 * ratio test's eps to TF32's (see worker.cu). */
int tg__gpu_impl_tf32(int g);
/* g's JSON record for `worker --info` (library, version, what it is). */
void tg__gpu_impl_info_json(int g, FILE *out);

/* ---- the ratio test on the GPU (check_gpu.cu) ---- */
/* Every element of C (dC, the case's storage with ldc) by the ratio test against cuBLAS DGEMM on the
 * upcast operands (dC0: C before the call, read only when beta is not zero). The worst ratio in
 * *max_ratio (INFINITY for NaN), the first element at or above the limit in (*bad_i, *bad_j), -1
 * when none. 0, or -1 with what failed in why. */
int tg__gpu_ratio_check(const tg__case *c, double alpha, double beta, const float *dA,
                        int64_t lda, int64_t a_len, const float *dB, int64_t ldb, int64_t b_len,
                        const float *dC0, const float *dC, int64_t ldc, int64_t c_len,
                        double *max_ratio, int64_t *bad_i, int64_t *bad_j, char *why, size_t len);

/* ---- the device (device.cu) ---- */
/* Bytes of L2 on device 0 (0 if unknown). */
int64_t tg__gpu_l2_bytes(void);
/* `tgemm-bench ceilings --device cuda` (ceilings.cu); argv[0] is "ceilings". */
int tg__gpu_ceilings_main(int argc, char **argv);

/* A CUDA call that must succeed, else the message and exit status 1 (a worker or probe that loses
 * its device cannot go on: the parent records its unfinished cases as failed). */
#define TG__CUDA_OR_DIE(call)                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "tgemm-bench-cuda: %s failed: %s (%s:%d)\n", #call,                    \
                    cudaGetErrorString(e_), __FILE__, __LINE__);                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif /* TGEMM_HARNESS_CUDA_GPU_INTERNAL_H */
