/* CPU emulation of the CUDA runtime calls the elementwise kernels and their tests make
 * (test-cuda-elementwise-emulated, tests/elementwise/elementwise.mk).
 *
 * Builds on the SGEMM ladder's emulation (tests/cuda/emu/cuda_runtime_api.h: threads as fibers,
 * launches rewritten to tg__emu_launch) and adds what the elementwise code uses besides: 128-bit
 * uint4, device-to-device copies, memset, typed cudaMalloc, the device intrinsics of the
 * activations. Device memory is host memory, everything is synchronous. It checks the kernels'
 * index arithmetic (heads, 128-bit bodies, tails, runs of a matrix, grid-stride loops) and
 * arithmetic; it says nothing about speed or the memory model.
 */
#ifndef TG_EW_EMU_CUDA_RUNTIME_H
#define TG_EW_EMU_CUDA_RUNTIME_H

#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "cuda_runtime_api.h" /* tests/cuda/emu/, later on the include path */

struct uint4 {
    unsigned x, y, z, w;
} __attribute__((aligned(16)));
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return uint4{a, b, c, d}; }

enum cudaMemcpyKind {
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3
};
struct cudaDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount;
};

static inline cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int)
{
    strcpy(p->name, "CPU emulation (tests/elementwise/emu)");
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = 132;
    return cudaSuccess;
}
/* 256-byte aligned, as cudaMalloc's allocations are. */
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    *p = (T *)aligned_alloc(256, (bytes + 255) / 256 * 256);
    return *p ? cudaSuccess : cudaErrorInvalidConfiguration;
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t bytes, cudaMemcpyKind)
{
    memmove(d, s, bytes);
    return cudaSuccess;
}
static inline cudaError_t cudaMemset(void *d, int v, size_t bytes)
{
    memset(d, v, bytes);
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

/* The device intrinsics of the activations. The rounded products are plain products here (this
 * build does not contract a * b + c); the approximate exp and division of the fp16/bf16 path are
 * accurate ones, so their own error shows only on a GPU
 * (tests/elementwise/gpu_session.sh). */
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static inline double __longlong_as_double(long long u) { double d; memcpy(&d, &u, 8); return d; }
static inline long long __double_as_longlong(double d) { long long u; memcpy(&u, &d, 8); return u; }
#define __expf(v) expf(v) /* glibc declares an __expf of its own, not for use */

#endif
