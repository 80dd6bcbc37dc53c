/* SGEMM ladder, step 9: multi-stage buffering with cp.async. Step 8's warp-tiled kernel, with the
 * shared-memory tiles kept in STAGES buffers filled by asynchronous copies (sm_80+ cp.async), so the
 * tiles for the next k-steps are on their way while the current one is multiplied.
 *
 * What it changes: in step 8 every k-step loads, waits at a barrier, then computes: the warps idle
 * while the loads travel (hundreds of cycles), unless other blocks on the SM happen to cover it.
 * Here tile t + STAGES - 1 is requested before tile t is multiplied, straight from global to shared
 * memory without passing through registers (which also frees the registers a register-staged
 * prefetch would need). One barrier per k-step remains: it says both that tile t has landed for
 * every thread and that everyone is done with the buffer about to be refilled.
 * Why it helps: memory latency hides behind the FMAs of the previous tiles within one block, so the
 * kernel needs less occupancy to keep the FMA pipes busy. With STAGES = 2 this is double buffering.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 32.9 TFLOP/s at 4096^3 (63% of cuBLAS), 0.95x
 * step 7; 13.8 at 1024^3 (39%). Since step 8 runs two blocks per SM (427e1936a41f/step8) step 9 is
 * 0.82x step 8 there (32.7 against 39.9): the buffering has not paid for itself yet, and the launcher
 * keeps it only for its 64 x 64 instance. Why is the next profiling question (ncu: stalls, and
 * whether its copies reach shared memory without bank conflicts).
 *
 * The launcher also has a 64 x 64-tile instance for problems whose 128 x 128 tiles would not fill
 * the GPU (cuda/launch.cu chooses).
 */
#include "warp_tile.cuh"

namespace {
constexpr int tg__s09_bk = 16, tg__s09_pad = 4, tg__s09_stages = 2;
}

template <int BM, int BN, int WARPS_M, int WARPS_N>
static __global__ void __launch_bounds__(32 * WARPS_M * WARPS_N) tg__sgemm09_kernel(tg__sgemm_problem g)
{
    typedef tg__warp_tile<BM, BN, WARPS_M, WARPS_N> warps;
    constexpr int BK = tg__s09_bk, STAGES = tg__s09_stages, THREADS = warps::THREADS;
    constexpr int LDA = BM + tg__s09_pad, LDB = BN + tg__s09_pad;
    __shared__ __align__(16) float as[STAGES][BK * LDA], bs[STAGES][BK * LDB];
    int64_t i0, j0;
    tg__block_origin<BM, BN>(g, i0, j0);
    int tid = threadIdx.x;
    warps w(tid);
    int64_t tiles = (g.k + BK - 1) / BK;

    /* Prologue: request the first STAGES - 1 tiles. Every step commits one group, empty or not, so
     * that "all but the newest STAGES - 2 groups are done" always means "tile t is here". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles) {
            tg__tile_load_async<BM, BK, THREADS, LDA>(as[s], g.a, g.k, i0, (int64_t)s * BK, tid);
            tg__tile_load_async<BN, BK, THREADS, LDB>(bs[s], g.b, g.k, j0, (int64_t)s * BK, tid);
        }
        __pipeline_commit();
    }
    for (int64_t t = 0; t < tiles; ++t) {
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads(); /* tile t is in for all threads; the buffer of tile t - 1 is free */
        int64_t next = t + STAGES - 1;
        if (next < tiles) {
            int s = (int)(next % STAGES);
            tg__tile_load_async<BM, BK, THREADS, LDA>(as[s], g.a, g.k, i0, next * BK, tid);
            tg__tile_load_async<BN, BK, THREADS, LDB>(bs[s], g.b, g.k, j0, next * BK, tid);
        }
        __pipeline_commit();
        int s = (int)(t % STAGES);
        w.template multiply<BK, LDA, LDB>(as[s], bs[s]);
    }
    w.store(g, i0, j0);
}

template <int BM, int BN, int WARPS_M, int WARPS_N>
static int tg__sgemm09_launch(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, BM, BN, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm09_kernel<BM, BN, WARPS_M, WARPS_N><<<grid, 32 * WARPS_M * WARPS_N, 0, stream>>>(g);
    return TG_OK;
}

TG__PRIVATE int tg__sgemm_09_double_buffer(tg__sgemm_problem g, cudaStream_t stream)
{
    return tg__sgemm09_launch<128, 128, 2, 4>(g, stream);
}

TG__PRIVATE int tg__sgemm_09_double_buffer_small(tg__sgemm_problem g, cudaStream_t stream)
{
    return tg__sgemm09_launch<64, 64, 2, 2>(g, stream);
}
