/* GPU bandwidth of the elementwise kernels against a device-to-device copy, in one run (the issue's
 * target: >= 90% of the copy's bandwidth on 256 MiB and more). A benchmark, not a test.
 *
 *   make build/elementwise/bench_cuda_elementwise && build/elementwise/bench_cuda_elementwise [MiB [CASE]]
 *
 * CASE, if given, keeps only the cases whose name contains it (e.g. "gelu_erf").
 *
 * Each array holds MiB mebibytes (default 512). Bytes are counted as STREAM does, reads plus writes:
 * copy 2, add/sub/mul/axpy 3, scale/activate/bias_act 2 arrays. Each case runs 3 warm-ups, then 20
 * timed runs (CUDA events, one per run), alternating case by case with the copy, so that clocks and
 * other tenants affect both alike; prints the median and the spread, and the ratio to the copy's
 * median. Inputs are uniform in [-10, 10], the in-place outputs refilled before each timed run (the
 * figures of results/nvidia-h100-80gb-hbm3/3b295416671a and before were taken without: scale, axpy
 * and bias_act on the values of the runs before). One line of JSON per case on stdout after the
 * table, for results/<gpu>/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "elementwise/tgemm_elementwise.h"

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)
#define REPS 20

static int cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

enum { K_ADD, K_MUL, K_AXPY, K_SCALE, K_ACT, K_BIAS };
typedef struct {
    const char *name;
    int kind;   /* K_... */
    tg_dtype t;
    tg_act act; /* K_ACT, K_BIAS */
    int arrays; /* bytes moved = arrays * array bytes */
} bcase;

static void *dx, *dy, *dz;
static size_t bytes;

/* Uniform values in [-10, 10] (the tests' range), from a hash of the index: every branch of the
 * activations is taken by neighbouring elements, as with real data, not one side by every thread. */
__global__ void fill(tg_dtype t, int64_t n, void *p, unsigned seed)
{
    int64_t i;
    for (i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        float v;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
        v = (float)h * (20.0f / 4294967296.0f) - 10.0f;
        switch (t) {
        case TG_F32: ((float *)p)[i] = v; break;
        case TG_F64: ((double *)p)[i] = v; break;
        case TG_F16: ((__half *)p)[i] = __float2half_rn(v); break;
        default: ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn(v); break;
        }
    }
}

static int64_t elems(tg_dtype t) { return (int64_t)(bytes / (t == TG_F64 ? 8 : t == TG_F32 ? 4 : 2)); }

static void run(int k, const bcase *c)
{
    int64_t n = elems(c->t);
    int st = TG_OK;
    if (k < 0) { CK(cudaMemcpyAsync(dz, dx, bytes, cudaMemcpyDeviceToDevice, 0)); return; }
    switch (c->kind) {
    case K_ADD: st = tg_cuda_add(c->t, n, dx, dy, dz, 0); break;
    case K_MUL: st = tg_cuda_mul(c->t, n, dx, dy, dz, 0); break;
    case K_AXPY: st = tg_cuda_axpy(c->t, n, 1.0001, dx, dz, 0); break;
    case K_SCALE: st = tg_cuda_scale(c->t, n, 1.0000001, dz, 0); break;
    case K_ACT: st = tg_cuda_activate(c->t, c->act, n, dx, dz, 0); break;
    default: st = tg_cuda_bias_act(c->t, TG_ROW_MAJOR, n / 4096, 4096, dy, TG_BIAS_PER_COL, c->act, dz, 4096, 0); break;
    }
    if (st != TG_OK) { printf("%s: %s\n", c->name, tg_last_error()); exit(2); }
}

/* median seconds of REPS timed runs of case k (k < 0: the copy) */
static float timed(int k, const bcase *c, float *spread)
{
    cudaEvent_t a, b;
    float t[REPS];
    int r;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (r = 0; r < 3; r++) run(k, c);
    for (r = 0; r < REPS; r++) {
        /* in place (scale, axpy, bias_act): the output refilled first, untimed, so that every run
         * sees the same values and not those of the runs before (bias_act would drift) */
        if (k >= 0 && (c->kind == K_SCALE || c->kind == K_AXPY || c->kind == K_BIAS))
            fill<<<1024, 256>>>(c->t, elems(c->t), dz, 2000u + r);
        CK(cudaEventRecord(a, 0));
        run(k, c);
        CK(cudaEventRecord(b, 0));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&t[r], a, b));
    }
    qsort(t, REPS, sizeof t[0], cmp);
    *spread = (t[REPS - 2] - t[1]) / t[REPS / 2];
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    return t[REPS / 2] / 1e3f;
}

int main(int argc, char **argv)
{
#define ACTS(t, ts) \
    {"relu " ts, K_ACT, t, TG_ACT_RELU, 2}, {"gelu_tanh " ts, K_ACT, t, TG_ACT_GELU_TANH, 2}, \
    {"gelu_erf " ts, K_ACT, t, TG_ACT_GELU_ERF, 2}, {"sigmoid " ts, K_ACT, t, TG_ACT_SIGMOID, 2}, \
    {"silu " ts, K_ACT, t, TG_ACT_SILU, 2}
    static const bcase cases[] = {
        {"add f32", K_ADD, TG_F32, TG_ACT_NONE, 3}, {"add f64", K_ADD, TG_F64, TG_ACT_NONE, 3},
        {"add f16", K_ADD, TG_F16, TG_ACT_NONE, 3}, {"add bf16", K_ADD, TG_BF16, TG_ACT_NONE, 3},
        {"mul f32", K_MUL, TG_F32, TG_ACT_NONE, 3}, {"axpy f32", K_AXPY, TG_F32, TG_ACT_NONE, 3},
        {"axpy f64", K_AXPY, TG_F64, TG_ACT_NONE, 3}, {"scale f32", K_SCALE, TG_F32, TG_ACT_NONE, 2},
        ACTS(TG_F32, "f32"), ACTS(TG_F64, "f64"), ACTS(TG_F16, "f16"), ACTS(TG_BF16, "bf16"),
        {"bias_act relu f32 (rows x 4096)", K_BIAS, TG_F32, TG_ACT_RELU, 2},
        {"bias_act gelu_tanh f32 (rows x 4096)", K_BIAS, TG_F32, TG_ACT_GELU_TANH, 2},
        {"bias_act gelu_tanh bf16 (rows x 4096)", K_BIAS, TG_BF16, TG_ACT_GELU_TANH, 2}};
#undef ACTS
    cudaDeviceProp p;
    double mib = argc > 1 ? atof(argv[1]) : 512;
    float copy_s, s, sp, csp;
    char json[16384] = "";
    int k;
    CK(cudaGetDeviceProperties(&p, 0));
    bytes = (size_t)(mib * 1048576.0) / 16 * 16;
    CK(cudaMalloc(&dx, bytes)); CK(cudaMalloc(&dy, bytes)); CK(cudaMalloc(&dz, bytes));
    CK(cudaMemset(dz, 0, bytes));
    printf("%s, %d SMs, arrays of %.0f MiB, median of %d runs (spread = (2nd largest - 2nd smallest) / median)\n",
           p.name, p.multiProcessorCount, mib, REPS);
    for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        if (argc > 2 && !strstr(cases[k].name, argv[2])) continue;
        fill<<<1024, 256>>>(cases[k].t, elems(cases[k].t), dx, 1u + k);
        fill<<<1024, 256>>>(cases[k].t, elems(cases[k].t), dy, 1000u + k);
        CK(cudaGetLastError());
        copy_s = timed(-1, &cases[k], &csp); /* the copy beside each case: same conditions */
        s = timed(k, &cases[k], &sp);
        printf("%-34s %8.1f GB/s (spread %4.1f%%)   copy %8.1f GB/s   ratio %5.1f%%\n", cases[k].name,
               cases[k].arrays * bytes / s / 1e9, 100 * sp, 2.0 * bytes / copy_s / 1e9,
               100.0 * (cases[k].arrays * bytes / s) / (2.0 * bytes / copy_s));
        snprintf(json + strlen(json), sizeof json - strlen(json),
                 "{\"case\": \"%s\", \"mib\": %.0f, \"gbs\": %.2f, \"copy_gbs\": %.2f, \"spread\": %.3f}\n",
                 cases[k].name, mib, cases[k].arrays * bytes / s / 1e9, 2.0 * bytes / copy_s / 1e9, sp);
    }
    printf("%s", json);
    return 0;
}
