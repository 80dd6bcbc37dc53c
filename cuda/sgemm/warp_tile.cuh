/* The warp-tiled inner product shared by ladder steps 8 and 9: how the threads of a block split its
 * BM x BN tile of C, and what they compute from one pair of k-major shared-memory tiles.
 *
 * The block's warps form a WARPS_M x WARPS_N grid, each warp owning a WM x WN region of the tile. Inside
 * it the warp's 32 lanes form an 8 x 4 grid of 4 x 4 blocks (a 32 x 16 sub-tile), repeated
 * ITER_M x ITER_N times across the region. At each k a lane loads ITER_M float4 of A and ITER_N
 * float4 of B and does their 16 * ITER_M * ITER_N products. Reads of A by 8 neighbouring lanes cover
 * 128 consecutive bytes and reads of B are shared by 8 lanes (a broadcast): no bank conflicts. Keeping
 * a warp's reads inside a compact region is what makes that possible for any tile shape, and it is
 * the structure the tensor-core kernels will have (a warp = a unit of the matrix instructions).
 * Accumulators are indexed by constants only (every loop unrolls), so they stay in registers.
 */
#ifndef TGEMM_CUDA_SGEMM_WARP_TILE_CUH
#define TGEMM_CUDA_SGEMM_WARP_TILE_CUH

#include "common.cuh"

template <int BM, int BN, int WARPS_M, int WARPS_N>
struct tg__warp_tile {
    static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
    static constexpr int ITER_M = WM / 32, ITER_N = WN / 16;
    static_assert(WM % 32 == 0 && WN % 16 == 0, "a warp's region is whole 32 x 16 sub-tiles");

    float acc[ITER_M][ITER_N][4][4]; /* [sub-tile row][sub-tile column][column][row] */
    int row0, col0;                  /* this lane's first row and column in the block tile */

    __device__ __forceinline__ explicit tg__warp_tile(int tid)
    {
        int warp = tid / 32, lane = tid % 32;
        row0 = (warp % WARPS_M) * WM + (lane % 8) * 4;
        col0 = (warp / WARPS_M) * WN + (lane / 8) * 4;
#pragma unroll
        for (int im = 0; im < ITER_M; ++im)
#pragma unroll
            for (int in = 0; in < ITER_N; ++in)
#pragma unroll
                for (int c = 0; c < 4; ++c)
#pragma unroll
                    for (int r = 0; r < 4; ++r) acc[im][in][c][r] = 0.f;
    }

    /* acc += the products of one BK-deep pair of tiles (as[q*LDA + row], bs[q*LDB + column]). */
    template <int BK, int LDA, int LDB>
    __device__ __forceinline__ void multiply(const float *as, const float *bs)
    {
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            float4 ra[ITER_M], rb[ITER_N];
#pragma unroll
            for (int im = 0; im < ITER_M; ++im)
                ra[im] = *reinterpret_cast<const float4 *>(&as[q * LDA + row0 + im * 32]);
#pragma unroll
            for (int in = 0; in < ITER_N; ++in)
                rb[in] = *reinterpret_cast<const float4 *>(&bs[q * LDB + col0 + in * 16]);
#pragma unroll
            for (int im = 0; im < ITER_M; ++im)
#pragma unroll
                for (int in = 0; in < ITER_N; ++in) {
                    const float a[4] = {ra[im].x, ra[im].y, ra[im].z, ra[im].w};
                    const float b[4] = {rb[in].x, rb[in].y, rb[in].z, rb[in].w};
#pragma unroll
                    for (int c = 0; c < 4; ++c)
#pragma unroll
                        for (int r = 0; r < 4; ++r) acc[im][in][c][r] += a[r] * b[c];
                }
        }
    }

    /* C = alpha * acc + beta * C for this lane's elements of the tile at (i0, j0). */
    __device__ __forceinline__ void store(const tg__sgemm_problem &g, int64_t i0, int64_t j0) const
    {
#pragma unroll
        for (int im = 0; im < ITER_M; ++im)
#pragma unroll
            for (int in = 0; in < ITER_N; ++in)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    const float *v = acc[im][in][c];
                    tg__store4(g, i0 + row0 + im * 32, j0 + col0 + in * 16 + c,
                               make_float4(v[0], v[1], v[2], v[3]));
                }
    }
};

#endif /* TGEMM_CUDA_SGEMM_WARP_TILE_CUH */
