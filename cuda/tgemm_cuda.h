/* tgemm CUDA API: SGEMM on device pointers, asynchronous on the caller's stream.
 *
 * Public header of build/libtgemm_cuda (which also holds the whole CPU library, so a program links
 * libtgemm_cuda or libtgemm, never both) and of the single header tgemm_cuda.cuh. The types, status
 * codes and error messages are the CPU library's (common/api.h; tgemm.h in the single header): one
 * tg_last_error() serves both sides. Nothing here copies between host and device or synchronizes:
 * launch errors come back as TG_ERR_DEVICE, faults at the caller's next synchronization.
 */
#ifndef TGEMM_CUDA_H
#define TGEMM_CUDA_H

#include <cuda_runtime_api.h>

/* The shared part is included through a macro so that tools/amalgamate.py leaves the line alone:
 * the single header then includes tgemm.h (which it ships beside) instead of a copy of its types.
 * A file that defines TGEMM_CUDA_IMPLEMENTATION also needs tgemm.h's implementation (argument
 * checks, messages), so it turns on TGEMM_IMPLEMENTATION before tgemm.h is first seen. */
#ifdef TGEMM_CUDA_CUH_SINGLE_HEADER
#if defined(TGEMM_CUDA_IMPLEMENTATION) && !defined(TGEMM_IMPLEMENTATION)
#ifdef TGEMM_H_SINGLE_HEADER
#error "tgemm_cuda.cuh: in the TGEMM_CUDA_IMPLEMENTATION file, include tgemm_cuda.cuh before tgemm.h (it brings tgemm.h's implementation), or define TGEMM_IMPLEMENTATION first"
#endif
#define TGEMM_IMPLEMENTATION
#endif
#define TGEMM_CUDA__BASE "tgemm.h"
#else
#define TGEMM_CUDA__BASE "../common/api.h"
#endif
#include TGEMM_CUDA__BASE

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha * op(A) * op(B) + beta * C on device pointers, queued on `stream` (0: the legacy default
 * stream). The same contract, argument checks (positions 1-14), quick returns and messages as
 * tg_sgemm; TG_ERR_ARG leaves C untouched and queues nothing. The kernel is chosen by shape. Returns
 * TG_OK, TG_ERR_ARG, TG_ERR_UNSUPPORTED (a grid this device cannot launch) or TG_ERR_DEVICE (the CUDA
 * error is in tg_last_error()). */
TGEMM_DEF int tg_cuda_sgemm(tg_layout layout, tg_trans transa, tg_trans transb,
                            int64_t m, int64_t n, int64_t k, float alpha,
                            const float *dA, int64_t lda, const float *dB, int64_t ldb,
                            float beta, float *dC, int64_t ldc, cudaStream_t stream);

/* The same call run by one chosen step of the SGEMM ladder (cuda/sgemm/NN_*.cu), 1 to
 * tg_cuda_sgemm_step_count(): for the harness, and for learners who compare the steps. Argument
 * positions match tg_cuda_sgemm; `step` is parameter 16. Every step is correct for every call. */
TGEMM_DEF int tg_cuda_sgemm_step(tg_layout layout, tg_trans transa, tg_trans transb,
                                 int64_t m, int64_t n, int64_t k, float alpha,
                                 const float *dA, int64_t lda, const float *dB, int64_t ldb,
                                 float beta, float *dC, int64_t ldc, cudaStream_t stream, int step);

/* How many ladder steps there are (9). */
TGEMM_DEF int tg_cuda_sgemm_step_count(void);

/* A step's short name ("naive", ..., "double_buffer"); NULL outside 1..tg_cuda_sgemm_step_count(). */
TGEMM_DEF const char *tg_cuda_sgemm_step_name(int step);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_CUDA_H */
