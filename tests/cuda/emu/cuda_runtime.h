/* CPU emulation of the CUDA runtime calls tests/cuda/test_cuda.cu makes (see cuda_runtime_api.h):
 * device memory is host memory, copies are memcpy, everything is synchronous, and there is one
 * device, named as emulated. */
#ifndef TG_EMU_CUDA_RUNTIME_H
#define TG_EMU_CUDA_RUNTIME_H

#include <cstdlib>
#include <cstring>

#include "cuda_runtime_api.h"

enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
struct cudaDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount;
};

static inline cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int)
{
    strcpy(p->name, "CPU emulation (tests/cuda/emu)");
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = 132;
    return cudaSuccess;
}
/* 256-byte aligned, as cudaMalloc's allocations are. */
static inline cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = aligned_alloc(256, (bytes + 255) / 256 * 256);
    return *p ? cudaSuccess : cudaErrorInvalidConfiguration;
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t bytes, cudaMemcpyKind)
{
    memcpy(d, s, bytes);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2D(void *d, size_t dpitch, const void *s, size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind)
{
    for (size_t r = 0; r < height; ++r) memcpy((char *)d + r * dpitch, (const char *)s + r * spitch, width);
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

#endif
