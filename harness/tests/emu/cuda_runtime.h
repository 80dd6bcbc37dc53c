/* The CPU emulation's CUDA runtime (tests/cuda/emu/cuda_runtime.h) with what tgemm-bench-cuda's GPU
 * side (harness/cuda/) calls beyond the ladder's tests: events timed by the host clock (every call
 * is synchronous here, so the time at record is the time the work before it ended), asynchronous
 * copies done at once, typed cudaMalloc, pinned host memory (plain malloc, or refused on demand), a
 * memory report, version numbers, the device attributes by name, and the two atomics and the bit
 * cast its ratio kernel uses. Found before tests/cuda/emu by the include path of
 * `make test-harness-cuda-emulated` (harness/gpu.mk), which also links the elementwise kernels built
 * on their own emulation (tests/elementwise/emu). No PCI bus id: the device record then leaves
 * NVML's fields null, as on a machine without the driver's NVML library.
 */
#ifndef TG_EMU_HARNESS_CUDA_RUNTIME_H
#define TG_EMU_HARNESS_CUDA_RUNTIME_H

#include <time.h>

#include "../../../tests/cuda/emu/cuda_runtime.h"

#define cudaMemcpyDeviceToDevice ((cudaMemcpyKind)3)
#define cudaDevAttrClockRate ((cudaDeviceAttr)13)
#define cudaDevAttrMemoryClockRate ((cudaDeviceAttr)36)
#define cudaDevAttrGlobalMemoryBusWidth ((cudaDeviceAttr)37)
#define cudaDevAttrL2CacheSize ((cudaDeviceAttr)38)

/* The runtime's typed overload, as cuda_runtime.h has it. */
template <class T>
static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return cudaMalloc((void **)p, bytes);
}

struct tg__emu_event {
    double t;
};
typedef tg__emu_event *cudaEvent_t;

static inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = new tg__emu_event{0};
    return cudaSuccess;
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    e->t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    return cudaSuccess;
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)(1e3 * (b->t - a->t));
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t bytes, cudaMemcpyKind k,
                                          cudaStream_t)
{
    return cudaMemcpy(d, s, bytes, k);
}
/* Pinned host memory is host memory; the stream is always idle. TG_EMU_NO_PINNED=1 (tests) refuses
 * it, as a runtime that limits page-locked memory may: the error is returned and, as the runtime
 * does, left for the next cudaGetLastError, so a caller that goes on without clearing it sees its
 * next kernel launch fail. */
template <class T>
static inline cudaError_t cudaMallocHost(T **p, size_t bytes)
{
    *p = getenv("TG_EMU_NO_PINNED") ? NULL : (T *)malloc(bytes ? bytes : 1);
    if (!*p) tg__emu_error = cudaErrorInvalidConfiguration;
    return *p ? cudaSuccess : cudaErrorInvalidConfiguration;
}
static inline cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    *free_bytes = *total = (size_t)1 << 30;
    return cudaSuccess;
}
static inline cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
static inline cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }
static inline cudaError_t cudaDeviceGetPCIBusId(char *, int, int)
{
    return cudaErrorInvalidConfiguration;
}

static inline unsigned long long atomicMax(unsigned long long *p, unsigned long long v)
{
    unsigned long long old = *p;
    if (v > old) *p = v;
    return old;
}
static inline unsigned long long atomicMin(unsigned long long *p, unsigned long long v)
{
    unsigned long long old = *p;
    if (v < old) *p = v;
    return old;
}
static inline long long __double_as_longlong(double x)
{
    long long v;
    memcpy(&v, &x, sizeof v);
    return v;
}

#endif
