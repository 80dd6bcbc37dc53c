/* CPU emulation of the little of the CUDA runtime that the SGEMM ladder uses (tests/cuda/emulate.mk).
 *
 * Lets the kernels' own source run on a machine without a GPU, one block at a time, each CUDA thread
 * an OS thread, __syncthreads a barrier, __shared__ a static (shared by the threads of the block that
 * runs). It checks the index arithmetic, edges, transposes, layouts and both load paths; it says
 * nothing about speed and little about the memory model. Used only by the emulated test.
 */
#ifndef TG_EMU_CUDA_RUNTIME_API_H
#define TG_EMU_CUDA_RUNTIME_API_H

#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct float4 {
    float x, y, z, w;
} __attribute__((aligned(16)));
static inline float4 make_float4(float a, float b, float c, float d) { return float4{a, b, c, d}; }

typedef struct tg__emu_stream *cudaStream_t;
typedef enum { cudaSuccess = 0, cudaErrorInvalidConfiguration = 9 } cudaError_t;
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

inline thread_local dim3 threadIdx, blockIdx;
inline dim3 gridDim, blockDim;
inline std::barrier<> *tg__emu_barrier;
inline cudaError_t tg__emu_error = cudaSuccess;

static inline cudaError_t cudaGetLastError(void)
{
    cudaError_t e = tg__emu_error;
    tg__emu_error = cudaSuccess;
    return e;
}
static inline const char *cudaGetErrorString(cudaError_t e) { return e ? "invalid configuration" : "no error"; }
static inline const char *cudaGetErrorName(cudaError_t e) { return e ? "cudaErrorInvalidConfiguration" : "cudaSuccess"; }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr, int) { *v = 132; return cudaSuccess; }

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
static inline void __syncthreads(void) { tg__emu_barrier->arrive_and_wait(); }

/* kernel<<<grid, block, smem, stream>>>(args) becomes tg__emu_launch(kernel, grid, block, smem,
 * stream, args) (a sed line in emulate.mk). One OS thread per CUDA thread of a block; the threads
 * walk the blocks together, a barrier between blocks so that one block's shared memory is never
 * overwritten while another still reads it. */
template <class K, class... A>
static void tg__emu_launch(K kernel, dim3 grid, dim3 block, size_t, cudaStream_t, A... args)
{
    unsigned threads = block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || grid.y > 65535 || grid.z > 65535) {
        tg__emu_error = cudaErrorInvalidConfiguration;
        return;
    }
    gridDim = grid;
    blockDim = block;
    std::barrier<> bar((std::ptrdiff_t)threads);
    tg__emu_barrier = &bar;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            threadIdx = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
            for (unsigned bz = 0; bz < grid.z; ++bz)
                for (unsigned by = 0; by < grid.y; ++by)
                    for (unsigned bx = 0; bx < grid.x; ++bx) {
                        blockIdx = dim3(bx, by, bz);
                        kernel(args...);
                        bar.arrive_and_wait();
                    }
        });
    for (auto &th : pool) th.join();
}

#endif
