/* SGEMM ladder, step 3: shared-memory tiles. A block of 32 x 32 threads computes a 32 x 32 tile of
 * C, walking k in steps of 32: it copies a 32 x 32 tile of A and one of B into shared memory, waits,
 * and every thread accumulates its element from them.
 *
 * What it changes: operands come from shared memory; each element fetched from global memory serves
 * 32 threads instead of one.
 * Why it helps: global traffic drops by the tile width (32x) and loads are coalesced by the shared
 * loader (common.cuh, scalar path here). The inner loop now pays two shared-memory loads per FMA,
 * which bounds the kernel well below the FMA peak; the next steps give each thread more results.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 5.2-5.8 TFLOP/s at every size from 1000^3 to 8192^3
 * (10-15% of cuBLAS): no longer falls with size, and 1.8x step 2 at 8192^3.
 */
#include "common.cuh"

static constexpr int tg__s03_t = 32; /* tile edge, in rows, columns and k */

static __global__ void __launch_bounds__(1024) tg__sgemm03_kernel(tg__sgemm_problem g)
{
    constexpr int T = tg__s03_t;
    __shared__ __align__(16) float as[T * T], bs[T * T]; /* k-major: as[q*T + i], bs[q*T + j] */
    int64_t i0, j0;
    tg__block_origin<T, T>(g, i0, j0);
    int tid = threadIdx.y * T + threadIdx.x;
    float acc = 0.f;
    for (int64_t q0 = 0; q0 < g.k; q0 += T) {
        tg__tile_load<T, T, T * T, T, false>(as, g.a, g.k, i0, q0, tid);
        tg__tile_load<T, T, T * T, T, false>(bs, g.b, g.k, j0, q0, tid);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < T; ++q)
            acc += as[q * T + threadIdx.x] * bs[q * T + threadIdx.y];
        __syncthreads(); /* before the next tiles overwrite these */
    }
    tg__store1(g, i0 + threadIdx.x, j0 + threadIdx.y, acc);
}

TG__PRIVATE int tg__sgemm_03_smem_tile(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, tg__s03_t, tg__s03_t, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm03_kernel<<<grid, dim3(tg__s03_t, tg__s03_t), 0, stream>>>(g);
    return TG_OK;
}
