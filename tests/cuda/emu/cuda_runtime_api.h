/* CPU emulation of the little of the CUDA runtime that the SGEMM ladder uses (test-cuda-emulated).
 *
 * Lets the kernels' own source run on a machine without a GPU, one block at a time, each CUDA thread
 * a fiber (ucontext) with its own stack: a thread runs until its next __syncthreads, then the next
 * thread runs, and the barrier opens when every thread of the block has reached it. __shared__ is a
 * static, shared by the threads of the block that runs. Running each thread to its barrier makes a
 * missing barrier show (a thread reads shared memory the later threads have not written yet), and
 * the order is the same on every run, so a failure replays. It checks the index arithmetic, edges,
 * transposes, layouts and both load paths; it says nothing about speed and little about the memory
 * model. Used by `make test-cuda-emulated` (cuda/cuda.mk) to run tests/cuda/test_cuda.cu.
 */
#ifndef TG_EMU_CUDA_RUNTIME_API_H
#define TG_EMU_CUDA_RUNTIME_API_H

#include <ucontext.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
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

/* A pending cp.async (cuda_pipeline.h), and one emulated CUDA thread. */
struct tg__emu_copy {
    void *dst;
    const void *src;
    size_t bytes, zeros;
};
struct tg__emu_thread {
    ucontext_t ctx;
    dim3 tid;
    bool done;
    std::vector<tg__emu_copy> open;               /* cp.async since the last commit */
    std::deque<std::vector<tg__emu_copy>> groups; /* committed, not yet waited for */
};
inline tg__emu_thread *tg__emu_current;
inline ucontext_t tg__emu_scheduler;
inline std::function<void()> tg__emu_body;
inline dim3 blockIdx, gridDim, blockDim;
#define threadIdx (tg__emu_current->tid)
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
#define __constant__
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
static inline void __syncthreads(void) { swapcontext(&tg__emu_current->ctx, &tg__emu_scheduler); }

static void tg__emu_entry(void)
{
    tg__emu_body();
    tg__emu_current->done = true;
}

/* The context calls live in functions of their own: their callers' locals are then never live
 * across a return-twice call (what -Wclobbered warns about). */
__attribute__((noinline)) static void tg__emu_start(tg__emu_thread &th, char *stack, size_t bytes)
{
    th.done = false;
    getcontext(&th.ctx);
    th.ctx.uc_stack.ss_sp = stack;
    th.ctx.uc_stack.ss_size = bytes;
    th.ctx.uc_link = &tg__emu_scheduler;
    makecontext(&th.ctx, tg__emu_entry, 0);
}

__attribute__((noinline)) static void tg__emu_resume(tg__emu_thread &th)
{
    tg__emu_current = &th;
    swapcontext(&tg__emu_scheduler, &th.ctx);
}

/* kernel<<<grid, block, smem, stream>>>(args) becomes tg__emu_launch(kernel, grid, block, smem,
 * stream, args) (a sed line in cuda/cuda.mk). Blocks run one after the other; inside a block the
 * threads run in turn from barrier to barrier. Threads that leave the kernel while others wait at
 * a barrier are a kernel bug (undefined on a GPU), reported and fatal. */
template <class K, class... A>
static void tg__emu_launch(K kernel, dim3 grid, dim3 block, size_t, cudaStream_t, A... args)
{
    static std::vector<char> stacks;
    const size_t stack_bytes = 64 * 1024;
    unsigned threads = block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || grid.y > 65535 || grid.z > 65535) {
        tg__emu_error = cudaErrorInvalidConfiguration;
        return;
    }
    gridDim = grid;
    blockDim = block;
    stacks.resize(threads * stack_bytes);
    std::vector<tg__emu_thread> team(threads);
    tg__emu_body = [&] { kernel(args...); };
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = dim3(bx, by, bz);
                for (unsigned t = 0; t < threads; ++t) {
                    team[t].tid = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
                    tg__emu_start(team[t], &stacks[t * stack_bytes], stack_bytes);
                }
                for (;;) { /* one round: every thread runs to its next barrier or its end */
                    unsigned finished = 0;
                    for (tg__emu_thread &th : team) {
                        tg__emu_resume(th);
                        finished += th.done;
                    }
                    if (finished == threads) break;
                    if (finished != 0) {
                        fprintf(stderr, "emulated kernel: %u of %u threads left while others wait at a barrier\n",
                                finished, threads);
                        abort();
                    }
                }
            }
    tg__emu_current = nullptr;
}

#endif
