/* The one problem every SGEMM ladder kernel solves, and the ladder's step launchers.
 *
 * cuda/launch.cu turns any call (layout, transposes, leading dimensions, via the shared views of
 * common/gemm_args.h) into this form: C is m x n column-major and C(i, j) = sum_q A(i, q) * B(j, q),
 * both operands seen as "rows x k" (op(A) is m x k, op(B) is stored as its transpose, n x k). A
 * row-major call is the column-major Cᵀ = op(B)ᵀ op(A)ᵀ, which in this form only swaps the two
 * operands. Each operand is then one of two storage orders, told by a flag, so kernels meet
 * transposes in their tile loaders only, and layouts never.
 */
#ifndef TGEMM_CUDA_SGEMM_PROBLEM_H
#define TGEMM_CUDA_SGEMM_PROBLEM_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../tgemm_cuda.h"

/* common/internal.h through a macro, for the reason given in tgemm_cuda.h: in the single header
 * tgemm.h's implementation already holds it. */
#ifndef TGEMM_CUDA_CUH_SINGLE_HEADER
#define TGEMM_CUDA__INTERNAL "../../common/internal.h"
#include TGEMM_CUDA__INTERNAL
#endif

/* One input operand as `rows` x k: element (r, q) lies at p[q + r*ld] when kcontig (runs along k are
 * contiguous), else at p[r + q*ld]. vec: 4 consecutive elements along the contiguous direction may be
 * read as one 128-bit access (p 16-byte aligned and ld a multiple of 4). */
typedef struct {
    const float *p;
    int64_t ld;
    int64_t rows;
    int kcontig;
    int vec;
} tg__sgemm_operand;

typedef struct {
    int64_t m, n, k;
    tg__sgemm_operand a; /* op(A): m x k */
    tg__sgemm_operand b; /* op(B)ᵀ: n x k */
    float *c;            /* C(i, j) at c[i + j*ldc] */
    int64_t ldc;
    int c_vec;           /* c 16-byte aligned and ldc a multiple of 4: 4 rows stored at once */
    float alpha, beta;   /* beta == 0: C is never read */
    int swap_grid;       /* set by tg__sgemm_grid: blockIdx.x walks the n tiles, blockIdx.y the m tiles */
} tg__sgemm_problem;

/* A step's launcher: queues its kernel for a problem with m, n, k > 0 and alpha != 0; TG_OK, or
 * TG_ERR_UNSUPPORTED when its grid does not fit the device's limits. The caller checks the launch. */
typedef int (*tg__sgemm_launcher)(tg__sgemm_problem g, cudaStream_t stream);

/* The grid of bm x bn tiles over C. The y dimension is limited to 65535 blocks, so the larger tile
 * count goes to x (swap_grid); kernels read their tile through tg__block_origin (common.cuh). */
static inline int tg__sgemm_grid(tg__sgemm_problem *g, int bm, int bn, dim3 *grid)
{
    int64_t tm = (g->m + bm - 1) / bm, tn = (g->n + bn - 1) / bn;
    int64_t big = tm > tn ? tm : tn, small = tm > tn ? tn : tm;
    if (big > 2147483647 || small > 65535) return TG_ERR_UNSUPPORTED;
    g->swap_grid = tn > tm;
    *grid = dim3((unsigned)big, (unsigned)small, 1);
    return TG_OK;
}

/* The ladder, one launcher per cuda/sgemm/NN_*.cu, in order. */
TG__PRIVATE int tg__sgemm_01_naive(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_02_coalesce(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_03_smem_tile(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_04_blocktile_1d(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_05_blocktile_2d(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_06_vectorize(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_07_bank_conflicts(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_08_warptile(tg__sgemm_problem g, cudaStream_t stream);
TG__PRIVATE int tg__sgemm_09_double_buffer(tg__sgemm_problem g, cudaStream_t stream);
/* Step 9's kernel with 64 x 64 block tiles, for problems too small to fill the GPU with 128 x 128. */
TG__PRIVATE int tg__sgemm_09_double_buffer_small(tg__sgemm_problem g, cudaStream_t stream);

/* C = beta * C (alpha or k zero: A and B unread; beta zero: C unread), cuda/sgemm/scale_c.cu. */
TG__PRIVATE int tg__sgemm_scale_c(tg__sgemm_problem g, cudaStream_t stream);

#endif /* TGEMM_CUDA_SGEMM_PROBLEM_H */
