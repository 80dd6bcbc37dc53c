/* SGEMM ladder, step 2: global-memory coalescing. The same thread-per-element kernel as step 1, with
 * the thread grid turned around: threadIdx.x now walks the rows of C.
 *
 * What it changes: which thread computes which element, nothing else.
 * Why it helps: C is column-major, so the 32 threads of a warp now store 32 consecutive floats (one
 * 128-byte transaction instead of 32), read 32 consecutive elements of a non-transposed A at each k,
 * and all read the same element of B (one broadcast). Memory traffic per useful byte drops by up to
 * 32x; the kernel still reuses nothing on chip, which the next step addresses.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 4.8 TFLOP/s at 1024^3 (14% of cuBLAS, 10x step 1),
 * falling to 3.0 at 8192^3 (6%), likely once the operands no longer sit in the L2.
 */
#include "common.cuh"

static __global__ void __launch_bounds__(1024) tg__sgemm02_kernel(tg__sgemm_problem g)
{
    int64_t i0, j0;
    tg__block_origin<32, 32>(g, i0, j0);
    int64_t i = i0 + threadIdx.x, j = j0 + threadIdx.y;
    if (i >= g.m || j >= g.n) return;
    float acc = 0.f;
    for (int64_t q = 0; q < g.k; ++q)
        acc += tg__at(g.a, i, q) * tg__at(g.b, j, q);
    tg__store1(g, i, j, acc);
}

TG__PRIVATE int tg__sgemm_02_coalesce(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, 32, 32, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm02_kernel<<<grid, dim3(32, 32), 0, stream>>>(g);
    return TG_OK;
}
