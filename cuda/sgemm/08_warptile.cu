/* SGEMM ladder, step 8: warp tiling. The 128 x 128 block tile is split between 8 warps (2 x 4), each
 * owning a 64 x 32 region; inside it a lane computes four 4 x 4 blocks (warp_tile.cuh). The k-step
 * grows from 8 to 16.
 *
 * What it changes: the third level of the tiling hierarchy (block tile in shared memory, warp tile,
 * thread tile in registers) is made explicit. Each warp reads from shared memory only the 64 rows of A
 * and 32 columns of B its region needs, with a conflict-free pattern fixed by the warp's shape rather
 * than by the block's; and the deeper k-step halves the barriers per FMA.
 * Why it helps: fewer shared-memory wavefronts per FMA (a warp's A reads are 8 distinct float4 shared
 * by 4 lanes each, its B reads are broadcasts), better locality in the register file and L1, and
 * half the __syncthreads. This is the structure of the fast SIMT GEMMs (and of the tensor-core ones).
 * Two blocks per SM, asked for in the launch bounds: without them ptxas gave the kernel 142 registers
 * a thread, one block of 256 threads per SM (8 warps) and nothing to hide the loads behind; with
 * them 127 registers and no spills. H100: 26.2 TFLOP/s at 4096^3 without (6e9df9b/ladder, 51% of
 * cuBLAS, 0.75x step 7), 39.9 with (427e1936a41f/step8: 77% of cuBLAS, 1.15x step 7, 1.22x step 9):
 * the fastest step, and the launcher's kernel wherever its tiles fill the GPU (cuda/launch.cu).
 */
#include "warp_tile.cuh"

namespace {
constexpr int tg__s08_bm = 128, tg__s08_bn = 128, tg__s08_bk = 16, tg__s08_pad = 4;
typedef tg__warp_tile<tg__s08_bm, tg__s08_bn, 2, 4> tg__s08_warps;
}

static __global__ void __launch_bounds__(tg__s08_warps::THREADS, 2) tg__sgemm08_kernel(tg__sgemm_problem g)
{
    constexpr int BM = tg__s08_bm, BN = tg__s08_bn, BK = tg__s08_bk, THREADS = tg__s08_warps::THREADS;
    constexpr int LDA = BM + tg__s08_pad, LDB = BN + tg__s08_pad;
    __shared__ __align__(16) float as[BK * LDA], bs[BK * LDB];
    int64_t i0, j0;
    tg__block_origin<BM, BN>(g, i0, j0);
    int tid = threadIdx.x;
    tg__s08_warps w(tid);
    for (int64_t q0 = 0; q0 < g.k; q0 += BK) {
        tg__tile_load<BM, BK, THREADS, LDA, true>(as, g.a, g.k, i0, q0, tid);
        tg__tile_load<BN, BK, THREADS, LDB, true>(bs, g.b, g.k, j0, q0, tid);
        __syncthreads();
        w.multiply<BK, LDA, LDB>(as, bs);
        __syncthreads();
    }
    w.store(g, i0, j0);
}

TG__PRIVATE int tg__sgemm_08_warptile(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, tg__s08_bm, tg__s08_bn, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm08_kernel<<<grid, tg__s08_warps::THREADS, 0, stream>>>(g);
    return TG_OK;
}
