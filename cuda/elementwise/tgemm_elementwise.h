/* tgemm CUDA elementwise API: the CPU elementwise calls (common/api.h) on device pointers, queued on
 * the caller's stream.
 *
 * Public header of build/libtgemm_cuda and part of the single header tgemm_cuda.cuh. Same types,
 * parameter positions, argument checks and messages as tg_add ... tg_bias_act, plus a trailing
 * stream (0: the legacy default stream). fp16 and bf16 (TG_F16, TG_BF16) are stored as 16-bit
 * patterns (__half, __nv_bfloat16) and computed in fp32; fp32 and fp64 activations in their own
 * type, within the CPU's bound of 16 ulps. alpha is converted to the array's type once. Nothing copies or
 * synchronizes: TG_ERR_ARG queues nothing and leaves the output untouched, a launch failure is
 * TG_ERR_DEVICE (the CUDA error in tg_last_error()), and faults surface at the caller's next sync.
 * Pointers need not be 16-byte aligned (128-bit accesses are used where x, y and z allow), nor even
 * aligned to their element (then every access is bytewise, and slow).
 */
#ifndef TGEMM_CUDA_ELEMENTWISE_H
#define TGEMM_CUDA_ELEMENTWISE_H

#include "../tgemm_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

TGEMM_DEF int tg_cuda_add(tg_dtype t, int64_t n, const void *dx, const void *dy, void *dz,
                          cudaStream_t stream);                                   /* z = x + y */
TGEMM_DEF int tg_cuda_sub(tg_dtype t, int64_t n, const void *dx, const void *dy, void *dz,
                          cudaStream_t stream);                                   /* z = x - y */
TGEMM_DEF int tg_cuda_mul(tg_dtype t, int64_t n, const void *dx, const void *dy, void *dz,
                          cudaStream_t stream);                                   /* z = x * y */
TGEMM_DEF int tg_cuda_scale(tg_dtype t, int64_t n, double alpha, void *dx,
                            cudaStream_t stream);                                 /* x = alpha * x */
TGEMM_DEF int tg_cuda_axpy(tg_dtype t, int64_t n, double alpha, const void *dx, void *dy,
                           cudaStream_t stream);          /* y = alpha * x + y, rounded once */
TGEMM_DEF int tg_cuda_activate(tg_dtype t, tg_act act, int64_t n, const void *dx, void *dy,
                               cudaStream_t stream);                              /* y = act(x) */
/* c = act(c + bias); the sum is rounded to the computation type (fp32 for fp16 and bf16). */
TGEMM_DEF int tg_cuda_bias_act(tg_dtype t, tg_layout layout, int64_t rows, int64_t cols,
                               const void *dbias, tg_bias_mode mode, tg_act act, void *dc,
                               int64_t ldc, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_CUDA_ELEMENTWISE_H */
