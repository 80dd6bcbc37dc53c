/* SGEMM ladder, step 7: a bank-conflict-free shared-memory layout. Step 6 with two changes to where
 * things sit in shared memory and which thread reads what.
 *
 * What it changes:
 *  - each k-row of a tile is padded from 128 to 132 floats. A k-contiguous operand is transposed while
 *    stored: a warp writes 16 rows x 2 k-groups, and without padding the two k-groups (4 rows of 128
 *    floats apart) fall on the same 16 banks: a 2-way conflict on every store. 4 floats of padding
 *    move the second group onto the other 16 banks.
 *  - a thread's 8 x 8 block of C becomes four 4 x 4 blocks, 64 rows and 64 columns apart. In step 6 the
 *    8 threads served by one 128-bit shared-memory phase read addresses 32 bytes apart, two to a bank
 *    group; now they read 16 bytes apart, 128 consecutive bytes, one wavefront.
 * Why it helps: every shared-memory access of the kernel is now served without replays, so the inner
 * loop issues at the rate of its FMAs and LDS.128s.
 * H100 (results/nvidia-h100-80gb-hbm3/6e9df9b/ladder): 34.8 TFLOP/s at 4096^3 (67% of cuBLAS, 1.13x step 6),
 * 34.6 at 8192^3: the fastest step at 2048^3 and up, faster than steps 8 and 9 there.
 */
#include "common.cuh"

namespace {
constexpr int tg__s07_bm = 128, tg__s07_bn = 128, tg__s07_bk = 8, tg__s07_pad = 4;
constexpr int tg__s07_threads = 256; /* (128 / 8) x (128 / 8) threads, 8 x 8 results each */
}

static __global__ void __launch_bounds__(tg__s07_threads) tg__sgemm07_kernel(tg__sgemm_problem g)
{
    constexpr int BM = tg__s07_bm, BN = tg__s07_bn, BK = tg__s07_bk, THREADS = tg__s07_threads;
    constexpr int LDA = BM + tg__s07_pad, LDB = BN + tg__s07_pad;
    constexpr int HM = BM / 2, HN = BN / 2; /* the 4 x 4 blocks of a thread are HM rows, HN columns apart */
    __shared__ __align__(16) float as[BK * LDA], bs[BK * LDB];
    int64_t i0, j0;
    tg__block_origin<BM, BN>(g, i0, j0);
    int tid = threadIdx.x;
    int tj = tid % (HN / 4), ti = tid / (HN / 4); /* rows h*HM + ti*4 + 0..3, columns h*HN + tj*4 + 0..3 */
    float acc[2][2][4][4] = {}; /* [row half][column half][column][row] */
    float4 ra[2], rb[2];
    for (int64_t q0 = 0; q0 < g.k; q0 += BK) {
        tg__tile_load<BM, BK, THREADS, LDA, true>(as, g.a, g.k, i0, q0, tid);
        tg__tile_load<BN, BK, THREADS, LDB, true>(bs, g.b, g.k, j0, q0, tid);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; ++q) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                ra[h] = *reinterpret_cast<const float4 *>(&as[q * LDA + h * HM + ti * 4]);
                rb[h] = *reinterpret_cast<const float4 *>(&bs[q * LDB + h * HN + tj * 4]);
            }
#pragma unroll
            for (int hm = 0; hm < 2; ++hm)
#pragma unroll
                for (int hn = 0; hn < 2; ++hn) {
                    const float *a = reinterpret_cast<const float *>(&ra[hm]);
                    const float *b = reinterpret_cast<const float *>(&rb[hn]);
#pragma unroll
                    for (int c = 0; c < 4; ++c)
#pragma unroll
                        for (int r = 0; r < 4; ++r) acc[hm][hn][c][r] += a[r] * b[c];
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int hm = 0; hm < 2; ++hm)
#pragma unroll
        for (int hn = 0; hn < 2; ++hn)
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const float *v = acc[hm][hn][c];
                tg__store4(g, i0 + hm * HM + ti * 4, j0 + hn * HN + tj * 4 + c, make_float4(v[0], v[1], v[2], v[3]));
            }
}

TG__PRIVATE int tg__sgemm_07_bank_conflicts(tg__sgemm_problem g, cudaStream_t stream)
{
    dim3 grid;
    if (tg__sgemm_grid(&g, tg__s07_bm, tg__s07_bn, &grid)) return TG_ERR_UNSUPPORTED;
    tg__sgemm07_kernel<<<grid, tg__s07_threads, 0, stream>>>(g);
    return TG_OK;
}
