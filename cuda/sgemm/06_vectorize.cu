/* SGEMM ladder, step 6: 128-bit accesses. Step 5's kernel with every access that can be 4 floats wide
 * made so: global loads of the A and B tiles and shared-memory reads in the inner loop (stores of C
 * already go 4 rows at a time through common.cuh, and are too few to matter).
 *
 * What it changes: the loaders take their fast path (one LDG.128 per 4 elements, when the operand is
 * aligned, its leading dimension a multiple of 4 and the 4 inside the matrix; else the scalar path).
 * A k-contiguous operand (a transposed A, a non-transposed B) is transposed while it is stored, so
 * that in shared memory both tiles are k-major and a thread reads its 8 rows of A and its 8 columns
 * of B at one k as two 128-bit loads each (LDS.128; nvcc already merged step 5's scalar reads so,
 * as its PTX shows, but here the code says it and no longer depends on the compiler seeing it).
 * Why it helps: a quarter of the load instructions, for global and shared memory alike, leaves more
 * issue slots for FMAs. The transposing stores still collide in shared-memory banks; step 7 fixes it.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 30.8 TFLOP/s at 4096^3 (59% of cuBLAS, 1.21x step 5),
 * 31.7 at 8192^3.
 */
#include "common.cuh"

namespace {
constexpr int tg__s06_bm = 128, tg__s06_bn = 128, tg__s06_bk = 8, tg__s06_tm = 8, tg__s06_tn = 8;
constexpr int tg__s06_threads = tg__s06_bm * tg__s06_bn / (tg__s06_tm * tg__s06_tn);
}

static __global__ void __launch_bounds__(tg__s06_threads) tg__sgemm06_kernel(tg__sgemm_problem g)
{
    constexpr int BM = tg__s06_bm, BN = tg__s06_bn, BK = tg__s06_bk, TM = tg__s06_tm, TN = tg__s06_tn;
    constexpr int THREADS = tg__s06_threads;
    __shared__ __align__(16) float as[BK * BM], bs[BK * BN];
    int64_t i0, j0;
    tg__block_origin<BM, BN>(g, i0, j0);
    int tid = threadIdx.x;
    int tj = tid % (BN / TN), ti = tid / (BN / TN);
    float acc[TN][TM] = {};
    float4 ra[TM / 4], rb[TN / 4];
    for (int64_t q0 = 0; q0 < g.k; q0 += BK) {
        tg__tile_load<BM, BK, THREADS, BM, true>(as, g.a, g.k, i0, q0, tid);
        tg__tile_load<BN, BK, THREADS, BN, true>(bs, g.b, g.k, j0, q0, tid);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; ++q) {
#pragma unroll
            for (int r = 0; r < TM / 4; ++r)
                ra[r] = *reinterpret_cast<const float4 *>(&as[q * BM + ti * TM + 4 * r]);
#pragma unroll
            for (int c = 0; c < TN / 4; ++c)
                rb[c] = *reinterpret_cast<const float4 *>(&bs[q * BN + tj * TN + 4 * c]);
            const float *a = reinterpret_cast<const float *>(ra), *b = reinterpret_cast<const float *>(rb);
#pragma unroll
            for (int c = 0; c < TN; ++c)
#pragma unroll
                for (int r = 0; r < TM; ++r) acc[c][r] += a[r] * b[c];
        }
        __syncthreads();
    }
#pragma unroll
    for (int c = 0; c < TN; ++c)
#pragma unroll
        for (int r = 0; r < TM; r += 4)
            tg__store4(g, i0 + ti * TM + r, j0 + tj * TN + c,
                       make_float4(acc[c][r], acc[c][r + 1], acc[c][r + 2], acc[c][r + 3]));
}

TG__PRIVATE int tg__sgemm_06_vectorize(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, tg__s06_bm, tg__s06_bn, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm06_kernel<<<grid, tg__s06_threads, 0, stream>>>(g);
    return TG_OK;
}
