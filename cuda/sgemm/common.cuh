/* What every SGEMM ladder step shares: element access, tile loaders, the alpha/beta store.
 *
 * Kernels see the column-major problem of problem.h. Tiles of both operands go to shared memory
 * "k-major": s[q * lds + r] holds element (r, q) of the tile, so the inner loop of every step reads a
 * run of rows of A and a run of columns of B at one k. Loaders work in units of 4 consecutive
 * elements along the operand's contiguous direction: one 128-bit load when the operand allows it (the
 * fast path: aligned pointer, leading dimension a multiple of 4, all 4 inside the matrix), else 4
 * bounds-checked scalar loads (the path for misaligned pointers, odd leading dimensions and edges).
 * Everything outside the matrix reads as zero, so kernels always multiply whole tiles and only the
 * store checks bounds. The store never reads C when beta is zero (C may hold NaN then).
 */
#ifndef TGEMM_CUDA_SGEMM_COMMON_CUH
#define TGEMM_CUDA_SGEMM_COMMON_CUH

#include <cuda_pipeline.h>

#include "problem.h"

/* The first row and column of the C tile this block computes (see tg__sgemm_grid). */
template <int BM, int BN>
static __device__ __forceinline__ void tg__block_origin(const tg__sgemm_problem &g, int64_t &i0,
                                                        int64_t &j0)
{
    i0 = (int64_t)(g.swap_grid ? blockIdx.y : blockIdx.x) * BM;
    j0 = (int64_t)(g.swap_grid ? blockIdx.x : blockIdx.y) * BN;
}

/* Element (r, q) of an operand, unchecked: for the steps without tiles, which stay inside. */
static __device__ __forceinline__ float tg__at(const tg__sgemm_operand &x, int64_t r, int64_t q)
{
    return x.kcontig ? x.p[q + r * x.ld] : x.p[r + q * x.ld];
}

/* The 4 elements from (r, q) on along the contiguous direction, zero where outside rows x k. */
template <bool VEC>
static __device__ __forceinline__ float4 tg__fetch4(const tg__sgemm_operand &x, int64_t k,
                                                    int64_t r, int64_t q)
{
    int64_t along = x.kcontig ? q : r, along_end = x.kcontig ? k : x.rows;
    int64_t across = x.kcontig ? r : q, across_end = x.kcontig ? x.rows : k;
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (across >= across_end) return v;
    const float *p = x.p + along + across * x.ld;
    if (VEC && x.vec && along + 4 <= along_end) return *reinterpret_cast<const float4 *>(p);
    if (along < along_end) v.x = p[0];
    if (along + 1 < along_end) v.y = p[1];
    if (along + 2 < along_end) v.z = p[2];
    if (along + 3 < along_end) v.w = p[3];
    return v;
}

/* Loader geometry for a ROWS x BK tile: vector v (4 elements) starts at tile element (r, q), and runs
 * along q when the operand is k-contiguous, else along r. An r-contiguous tile is read a k-row at a
 * time (a warp reads 128 consecutive floats). A k-contiguous one is read by each warp as 16 rows x 2
 * neighbouring k-groups: every row gives one whole 32-byte sector, and when the tile is stored
 * transposed the two k-groups land 4 rows apart in shared memory, on different banks once a row is
 * padded by 4 floats (step 7). */
template <int ROWS, int BK>
static __device__ __forceinline__ void tg__vec_origin(int kcontig, int v, int &r, int &q)
{
    static_assert(ROWS % 16 == 0 && BK % 8 == 0, "tiles are whole warps of vectors");
    constexpr int pairs = BK / 8; /* pairs of k-groups per 16 rows */
    if (kcontig) {
        int lane = v % 32, w = v / 32;
        r = (w / pairs) * 16 + lane / 2;
        q = ((w % pairs) * 2 + lane % 2) * 4;
    } else {
        q = v / (ROWS / 4);
        r = (v % (ROWS / 4)) * 4;
    }
}

/* Per thread, the vectors of a ROWS x BK tile loaded by THREADS threads. */
template <int ROWS, int BK, int THREADS>
struct tg__tile_regs {
    static constexpr int count = (ROWS * BK / 4 + THREADS - 1) / THREADS;
    float4 v[count];
};

/* Global -> registers: this thread's vectors of the tile whose first element is (r0, q0). Kept apart
 * from the store to shared memory so that a kernel can fetch the next tile while it computes. */
template <int ROWS, int BK, int THREADS, bool VEC>
static __device__ __forceinline__ void tg__tile_fetch(tg__tile_regs<ROWS, BK, THREADS> &t,
                                                      const tg__sgemm_operand &x, int64_t k,
                                                      int64_t r0, int64_t q0, int tid)
{
#pragma unroll
    for (int it = 0; it < (tg__tile_regs<ROWS, BK, THREADS>::count); ++it) {
        int v = tid + it * THREADS, r, q;
        if ((ROWS * BK / 4) % THREADS != 0 && v >= ROWS * BK / 4) break;
        tg__vec_origin<ROWS, BK>(x.kcontig, v, r, q);
        t.v[it] = tg__fetch4<VEC>(x, k, r0 + r, q0 + q);
    }
}

/* Registers -> shared memory, k-major with row stride LDS. A k-contiguous vector lands in 4 rows of
 * the tile (the transpose happens here); an r-contiguous one is a single 128-bit store. */
template <int ROWS, int BK, int THREADS, int LDS>
static __device__ __forceinline__ void tg__tile_store(float *s, const tg__tile_regs<ROWS, BK, THREADS> &t,
                                                      int kcontig, int tid)
{
    static_assert(LDS % 4 == 0 && LDS >= ROWS, "rows of the tile hold whole aligned vectors");
#pragma unroll
    for (int it = 0; it < (tg__tile_regs<ROWS, BK, THREADS>::count); ++it) {
        int v = tid + it * THREADS, r, q;
        if ((ROWS * BK / 4) % THREADS != 0 && v >= ROWS * BK / 4) break;
        tg__vec_origin<ROWS, BK>(kcontig, v, r, q);
        if (kcontig) {
            s[(q + 0) * LDS + r] = t.v[it].x;
            s[(q + 1) * LDS + r] = t.v[it].y;
            s[(q + 2) * LDS + r] = t.v[it].z;
            s[(q + 3) * LDS + r] = t.v[it].w;
        } else {
            *reinterpret_cast<float4 *>(&s[q * LDS + r]) = t.v[it];
        }
    }
}

/* Global -> shared memory in one go (the kernels without prefetching). */
template <int ROWS, int BK, int THREADS, int LDS, bool VEC>
static __device__ __forceinline__ void tg__tile_load(float *s, const tg__sgemm_operand &x, int64_t k,
                                                     int64_t r0, int64_t q0, int tid)
{
    tg__tile_regs<ROWS, BK, THREADS> t;
    tg__tile_fetch<ROWS, BK, THREADS, VEC>(t, x, k, r0, q0, tid);
    tg__tile_store<ROWS, BK, THREADS, LDS>(s, t, x.kcontig, tid);
}

/* Global -> shared memory without passing through registers (cp.async, sm_80+): the copy runs in
 * the background until the caller waits for its commit group. An r-contiguous vector on the fast path
 * is one 16-byte copy; anything else goes element by element (4 bytes), and elements outside the
 * matrix are zero-filled by the copy itself (source size 0, nothing read). */
template <int ROWS, int BK, int THREADS, int LDS>
static __device__ __forceinline__ void tg__tile_load_async(float *s, const tg__sgemm_operand &x,
                                                           int64_t k, int64_t r0, int64_t q0, int tid)
{
    constexpr int vectors = ROWS * BK / 4;
#pragma unroll
    for (int it = 0; it < (vectors + THREADS - 1) / THREADS; ++it) {
        int v = tid + it * THREADS, r, q;
        if (vectors % THREADS != 0 && v >= vectors) break;
        tg__vec_origin<ROWS, BK>(x.kcontig, v, r, q);
        int64_t gr = r0 + r, gq = q0 + q;
        if (!x.kcontig && x.vec && gq < k && gr + 4 <= x.rows) {
            __pipeline_memcpy_async(&s[q * LDS + r], x.p + gr + gq * x.ld, 16);
            continue;
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            int64_t er = x.kcontig ? gr : gr + e, eq = x.kcontig ? gq + e : gq;
            float *dst = x.kcontig ? &s[(q + e) * LDS + r] : &s[q * LDS + r + e];
            bool inside = er < x.rows && eq < k;
            const float *src = inside ? x.p + (x.kcontig ? eq + er * x.ld : er + eq * x.ld) : x.p;
            __pipeline_memcpy_async(dst, src, 4, inside ? 0 : 4);
        }
    }
}

/* alpha * acc + beta * c, C read only when beta is not zero. */
static __device__ __forceinline__ float tg__blend(const tg__sgemm_problem &g, float acc, const float *c)
{
    return g.beta == 0.f ? g.alpha * acc : fmaf(g.beta, *c, g.alpha * acc);
}

/* Stores one element of C, if inside. */
static __device__ __forceinline__ void tg__store1(const tg__sgemm_problem &g, int64_t i, int64_t j,
                                                  float acc)
{
    if (i < g.m && j < g.n) {
        float *c = g.c + i + j * g.ldc;
        *c = tg__blend(g, acc, c);
    }
}

/* Stores rows i..i+3 of column j (those inside C): one 128-bit access when C allows it. */
static __device__ __forceinline__ void tg__store4(const tg__sgemm_problem &g, int64_t i, int64_t j,
                                                  float4 acc)
{
    if (i >= g.m || j >= g.n) return;
    float *c = g.c + i + j * g.ldc;
    if (g.c_vec && i + 4 <= g.m) {
        float4 out = make_float4(g.alpha * acc.x, g.alpha * acc.y, g.alpha * acc.z, g.alpha * acc.w);
        if (g.beta != 0.f) {
            float4 old = *reinterpret_cast<const float4 *>(c);
            out.x = fmaf(g.beta, old.x, out.x);
            out.y = fmaf(g.beta, old.y, out.y);
            out.z = fmaf(g.beta, old.z, out.z);
            out.w = fmaf(g.beta, old.w, out.w);
        }
        *reinterpret_cast<float4 *>(c) = out;
        return;
    }
    c[0] = tg__blend(g, acc.x, c);
    if (i + 1 < g.m) c[1] = tg__blend(g, acc.y, c + 1);
    if (i + 2 < g.m) c[2] = tg__blend(g, acc.z, c + 2);
    if (i + 3 < g.m) c[3] = tg__blend(g, acc.w, c + 3);
}

#endif /* TGEMM_CUDA_SGEMM_COMMON_CUH */
