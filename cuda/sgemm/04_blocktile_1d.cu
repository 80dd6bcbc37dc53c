/* SGEMM ladder, step 4: 1D register blocking. Each thread computes TM = 8 consecutive rows of one
 * column of C; a block of 512 threads covers a 64 x 64 tile, walking k in steps of 8.
 *
 * What it changes: one value of B, read once from shared memory into a register, serves 8 FMAs with
 * 8 values of A (which all threads of a warp read at the same address: a broadcast).
 * Why it helps: step 3 needed two shared-memory loads per FMA; here it is 9 loads per 8 FMAs, and
 * the larger tile halves the global traffic again. Accumulators live in registers (acc[] is indexed
 * with constants only, after unrolling).
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 12.1 TFLOP/s at 1024^3, 14.5 at 4096^3 (28% of
 * cuBLAS), 2.6-2.8x step 3 from 2048^3 (2.3x at 1024^3).
 */
#include "common.cuh"

namespace {
constexpr int tg__s04_bm = 64, tg__s04_bn = 64, tg__s04_bk = 8, tg__s04_tm = 8;
constexpr int tg__s04_threads = tg__s04_bm * tg__s04_bn / tg__s04_tm;
}

static __global__ void __launch_bounds__(tg__s04_threads) tg__sgemm04_kernel(tg__sgemm_problem g)
{
    constexpr int BM = tg__s04_bm, BN = tg__s04_bn, BK = tg__s04_bk, TM = tg__s04_tm;
    constexpr int THREADS = tg__s04_threads;
    __shared__ __align__(16) float as[BK * BM], bs[BK * BN];
    int64_t i0, j0;
    tg__block_origin<BM, BN>(g, i0, j0);
    int tid = threadIdx.x;
    int tj = tid % BN, ti = tid / BN; /* this thread: rows ti*TM .. ti*TM+TM-1 of column tj */
    float acc[TM] = {};
    for (int64_t q0 = 0; q0 < g.k; q0 += BK) {
        tg__tile_load<BM, BK, THREADS, BM, false>(as, g.a, g.k, i0, q0, tid);
        tg__tile_load<BN, BK, THREADS, BN, false>(bs, g.b, g.k, j0, q0, tid);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            float b = bs[q * BN + tj];
#pragma unroll
            for (int r = 0; r < TM; ++r)
                acc[r] += as[q * BM + ti * TM + r] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < TM; r += 4)
        tg__store4(g, i0 + ti * TM + r, j0 + tj, make_float4(acc[r], acc[r + 1], acc[r + 2], acc[r + 3]));
}

TG__PRIVATE int tg__sgemm_04_blocktile_1d(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, tg__s04_bm, tg__s04_bn, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm04_kernel<<<grid, tg__s04_threads, 0, stream>>>(g);
    return TG_OK;
}
