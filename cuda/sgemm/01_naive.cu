/* SGEMM ladder, step 1: naive. One thread per element of C, each reading its row of A and its
 * column of B straight from global memory.
 *
 * What it changes: nothing yet; this is the definition of the product, written as a kernel.
 * Why it is slow: threadIdx.x walks the columns of C, so the 32 threads of a warp touch 32 addresses
 * ldc apart in C and, for a non-transposed A, read the same element of A 32 times while their B reads
 * sit ldb apart: nearly every access is its own memory transaction. And nothing is reused on chip:
 * each element of A and B is fetched from memory n and m times.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder, row-major, cuBLAS FP32 in the same run):
 * 0.5 TFLOP/s from 1024^3 to 8192^3, 1% of cuBLAS; 1.2 at 1000^3 and 1.6 at 4093^3 (the power-of-two
 * sizes are 2-3x slower; not investigated).
 */
#include "common.cuh"

static __global__ void __launch_bounds__(1024) tg__sgemm01_kernel(tg__sgemm_problem g)
{
    int64_t i0, j0;
    tg__block_origin<32, 32>(g, i0, j0);
    int64_t i = i0 + threadIdx.y, j = j0 + threadIdx.x;
    if (i >= g.m || j >= g.n) return;
    float acc = 0.f;
    for (int64_t q = 0; q < g.k; ++q)
        acc += tg__at(g.a, i, q) * tg__at(g.b, j, q);
    tg__store1(g, i, j, acc);
}

TG__PRIVATE int tg__sgemm_01_naive(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, 32, 32, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm01_kernel<<<grid, dim3(32, 32), 0, stream>>>(g);
    return TG_OK;
}
