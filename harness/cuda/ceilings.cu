/* `tgemm-bench ceilings --device cuda`: what the GPU can do, the roofline of the GPU sweep.
 *
 *   FP32 FMA peak   every thread runs 8 independent FMA chains (no chain waits on another, so the
 *                   FMA pipes' latency is covered by 8 chains x many warps per scheduler), on 8
 *                   blocks of 256 threads per SM: 2 FLOPs per FMA over the kernel's time
 *   DRAM            a copy kernel (16-byte loads and stores, grid-stride) over 1 GiB, counting bytes
 *                   read plus written, against cudaMemcpyAsync device-to-device of the same bytes in
 *                   the same run: the probe should be no slower than the runtime's own copy
 *   L2              a read-only kernel over working sets from 4 MiB to 2 GiB (the "sweep"); the L2
 *                   figure is the best rate at a set of at most half the L2, where every pass after
 *                   the first finds the set in L2
 *   host<->device   cudaMemcpyAsync host-to-device and device-to-host, from and to pinned
 *                   (cudaMallocHost) and pageable (malloc'd, touched) host memory, over copies of
 *                   64 KiB to 1 GiB (the "transfer_sweep"); each ceiling is the best rate at 64 MiB
 *                   and more, where a copy's fixed cost no longer counts. Bytes are counted once
 *                   (what crosses the bus), unlike the device copy's read plus written
 * Every probe is timed with CUDA events, sized to run at least 20 ms, and repeated; the best
 * repetition counts (noise only ever makes a probe slower).
 *
 * Output, results/<gpu-slug>/ceilings.json unless --out says otherwise (the CPU's layout, so the
 * sweep's peak_pct and report.py read it alike; "threads" is 1, the host thread):
 *   {"machine": {host}, "device": {the GPU: device.cu}, "command": "...",
 *    "threads": [{"threads": 1, "peak_gflops": {"s": {"fp32_fma": x}},
 *                 "bandwidth_gbs": {"L2": x, "DRAM": x}, "copy_gbs": x, "memcpy_gbs": x,
 *                 "sweep": [[bytes, GB/s], ...],
 *                 "transfer_sweep": {"h2d_pinned": [[bytes, GB/s], ...], "d2h_pinned": ...,
 *                                    "h2d_pageable": ..., "d2h_pageable": ...},
 *                 "transfer_gbs": {"h2d_pinned": x, "d2h_pinned": x, "h2d_pageable": x,
 *                                  "d2h_pageable": x}}]}
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "gpu_internal.h"

#define CHAINS 8
#define BLOCK 256
#define TARGET_S 0.02
#define REPEATS 5

/* 8 chains acc = acc * a + b; a and b come from the caller, so nothing folds at compile time, and
 * with a = 0.999 the values settle near b / (1 - a): no overflow, no subnormals. */
__global__ void fma_probe(float *out, long iters, float a, float b)
{
    float acc[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) acc[c] = (float)(threadIdx.x + c);
    for (long i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
#pragma unroll
            for (int c = 0; c < CHAINS; c++) acc[c] = fmaf(acc[c], a, b);
        }
    }
    float sum = 0;
#pragma unroll
    for (int c = 0; c < CHAINS; c++) sum += acc[c];
    if (sum == -1.0f) /* never: keeps the chains */
        out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void read_probe(const float4 *in, size_t n4, long passes, float *out)
{
    float4 s = make_float4(0, 0, 0, 0);
    size_t start = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (long p = 0; p < passes; p++)
        for (size_t i = start; i < n4; i += step) {
            float4 v = in[i];
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
    if (s.x + s.y + s.z + s.w == -1.0f) out[start] = s.x; /* never: keeps the loads */
}

__global__ void copy_probe(const float4 *in, float4 *dst, size_t n4)
{
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += step)
        dst[i] = in[i];
}

enum probe { FMA, READ, COPY, MEMCPY, H2D, D2H };

struct job {
    probe kind;
    int sms;
    float *src, *dst, *sink;
    void *host;   /* H2D, D2H: the host side of the copy */
    size_t bytes; /* READ, COPY, MEMCPY: the working set; H2D, D2H: one copy */
};

/* Runs the probe `work` times (FMA: loop rounds per thread; READ: passes; the others: copies) and
 * returns its seconds by CUDA events. */
static double run(const job *j, long work, cudaEvent_t ev[2])
{
    int blocks = j->sms * 8;
    size_t n4 = j->bytes / 16;
    size_t need = (n4 + BLOCK - 1) / BLOCK; /* the read probe: no more threads than vectors */
    int read_blocks = need < (size_t)blocks ? (int)need : blocks;
    TG__CUDA_OR_DIE(cudaEventRecord(ev[0], 0));
    /* Launches on lines of their own, with all four launch parameters: the CPU emulation's build
     * rewrites them (cuda/cuda.mk). */
    if (j->kind == FMA)
        fma_probe<<<blocks, BLOCK, 0, 0>>>(j->sink, work, 0.999f, 0.001f);
    if (j->kind == READ)
        read_probe<<<read_blocks, BLOCK, 0, 0>>>((const float4 *)j->src, n4, work, j->sink);
    for (long i = 0; j->kind == COPY && i < work; i++)
        copy_probe<<<blocks, BLOCK, 0, 0>>>((const float4 *)j->src, (float4 *)j->dst, n4);
    for (long i = 0; j->kind == MEMCPY && i < work; i++)
        TG__CUDA_OR_DIE(cudaMemcpyAsync(j->dst, j->src, j->bytes, cudaMemcpyDeviceToDevice, 0));
    for (long i = 0; j->kind == H2D && i < work; i++)
        TG__CUDA_OR_DIE(cudaMemcpyAsync(j->dst, j->host, j->bytes, cudaMemcpyHostToDevice, 0));
    for (long i = 0; j->kind == D2H && i < work; i++)
        TG__CUDA_OR_DIE(cudaMemcpyAsync(j->host, j->src, j->bytes, cudaMemcpyDeviceToHost, 0));
    TG__CUDA_OR_DIE(cudaGetLastError());
    TG__CUDA_OR_DIE(cudaEventRecord(ev[1], 0));
    TG__CUDA_OR_DIE(cudaEventSynchronize(ev[1]));
    float ms = 0;
    TG__CUDA_OR_DIE(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    return 1e-3 * ms;
}

/* The probe's best rate over REPEATS runs of at least TARGET_S each, in units of work per second
 * times `per_work` (FLOPs or bytes per unit of work). */
static double measure(const job *j, double per_work, cudaEvent_t ev[2])
{
    long work = 1;
    double t = run(j, work, ev); /* also the warm-up */
    while (t < TARGET_S && work < (1L << 40)) {
        double grow = t > 0 ? 1.3 * TARGET_S / t : 16;
        work = (long)((double)work * (grow < 16 ? grow : 16)) + 1;
        t = run(j, work, ev);
    }
    double best = 0;
    for (int r = 0; r < REPEATS; r++) {
        double rate = per_work * (double)work / run(j, work, ev);
        if (rate > best) best = rate;
    }
    return best;
}

static void make_parents(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0777);
        *p = '/';
    }
}

/* The host<->device probes: the sweep of each direction and host memory, then the ceilings. */
static void transfers(FILE *f, job *j, void *pageable, size_t most, cudaEvent_t ev[2])
{
    static const char *const names[4] = {"h2d_pinned", "d2h_pinned", "h2d_pageable",
                                         "d2h_pageable"};
    const size_t smallest = (size_t)64 << 10, large = (size_t)64 << 20;
    void *pinned = NULL;
    /* A machine may refuse to pin this much (a container's locked-memory limit): the pinned ways
     * are then written as null and an empty sweep, and the rest of the file still stands. */
    bool have_pinned = cudaMallocHost(&pinned, most) == cudaSuccess;
    if (have_pinned) {
        memcpy(pinned, pageable, most);
    } else {
        fprintf(stderr, "ceilings (GPU): no pinned host memory (%s): pinned ways left out\n",
                cudaGetErrorString(cudaGetLastError()));
    }
    double best[4] = {0, 0, 0, 0};
    fprintf(f, ",\n     \"transfer_sweep\": {");
    for (int t = 0; t < 4; t++) {
        j->kind = t % 2 ? D2H : H2D;
        j->host = t < 2 ? pinned : pageable;
        fprintf(f, "%s\"%s\": [", t ? ",\n                        " : "", names[t]);
        for (size_t w = smallest; w <= most && (t >= 2 || have_pinned); w *= 4) {
            j->bytes = w;
            double gbs = measure(j, (double)w, ev) / 1e9;
            if (w >= large && gbs > best[t]) best[t] = gbs;
            fprintf(f, "%s[%zu, %.6g]", w == smallest ? "" : ", ", w, gbs);
        }
        fprintf(f, "]");
        if (t >= 2 || have_pinned)
            fprintf(stderr, "ceilings (GPU): %s %.1f GB/s (copies of 64 MiB and more)\n", names[t],
                    best[t]);
    }
    fprintf(f, "},\n     \"transfer_gbs\": {");
    for (int t = 0; t < 4; t++) {
        if (t < 2 && !have_pinned)
            fprintf(f, "%s\"%s\": null", t ? ", " : "", names[t]);
        else
            fprintf(f, "%s\"%s\": %.6g", t ? ", " : "", names[t], best[t]);
    }
    fprintf(f, "}");
    if (have_pinned) cudaFreeHost(pinned);
}

static int measure_all(FILE *f)
{
    job j;
    memset(&j, 0, sizeof j);
    cudaDeviceProp prop;
    TG__CUDA_OR_DIE(cudaGetDeviceProperties(&prop, 0));
    j.sms = prop.multiProcessorCount;
    const size_t big = (size_t)1 << 30, sweep_max = (size_t)2 << 30;
    size_t free_bytes = 0, total = 0;
    TG__CUDA_OR_DIE(cudaMemGetInfo(&free_bytes, &total));
    if (free_bytes < sweep_max + big + (64 << 20)) {
        fprintf(stderr, "tgemm-bench ceilings: the GPU has %zu MiB free, the probes need %zu\n",
                free_bytes >> 20, (sweep_max + big) >> 20);
        return -1;
    }
    TG__CUDA_OR_DIE(cudaMalloc(&j.src, sweep_max));
    TG__CUDA_OR_DIE(cudaMalloc(&j.dst, big));
    TG__CUDA_OR_DIE(cudaMalloc(&j.sink, (size_t)j.sms * 8 * BLOCK * sizeof(float)));
    /* Ones, never zeros: a probe must read what real data would be. */
    float *ones = (float *)malloc(sweep_max);
    if (!ones) return -1;
    for (size_t i = 0; i < sweep_max / sizeof(float); i++)
        ones[i] = 1.0f + 1e-7f * (float)(i & 1023);
    TG__CUDA_OR_DIE(cudaMemcpy(j.src, ones, sweep_max, cudaMemcpyHostToDevice));
    TG__CUDA_OR_DIE(cudaMemcpy(j.dst, ones, big, cudaMemcpyHostToDevice));
    cudaEvent_t ev[2];
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[0]));
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[1]));

    j.kind = FMA;
    double fma = measure(&j, 2.0 * CHAINS * 16 * (double)j.sms * 8 * BLOCK, ev) / 1e9;
    j.kind = COPY;
    j.bytes = big;
    double copy = measure(&j, 2.0 * (double)big, ev) / 1e9;
    j.kind = MEMCPY;
    double memcpy_rate = measure(&j, 2.0 * (double)big, ev) / 1e9;
    fprintf(stderr, "ceilings (GPU): fp32 FMA %.0f GFLOP/s; copy kernel %.0f GB/s, "
                    "cudaMemcpyAsync %.0f GB/s (read + written)\n", fma, copy, memcpy_rate);

    double l2 = (double)tg__gpu_l2_bytes(), best_l2 = 0;
    fprintf(f, "    {\"threads\": 1, \"peak_gflops\": {\"s\": {\"fp32_fma\": %.6g}},\n", fma);
    fprintf(f, "     \"sweep\": [");
    j.kind = READ;
    int first = 1;
    for (size_t w = (size_t)4 << 20; w <= sweep_max; w *= 2) {
        j.bytes = w;
        double gbs = measure(&j, (double)w, ev) / 1e9;
        if ((double)w <= l2 / 2 && gbs > best_l2) best_l2 = gbs;
        fprintf(f, "%s[%zu, %.6g]", first ? "" : ", ", w, gbs);
        fprintf(stderr, "ceilings (GPU): read %zu MiB: %.0f GB/s\n", w >> 20, gbs);
        first = 0;
    }
    fprintf(f, "],\n     \"bandwidth_gbs\": {\"L2\": ");
    if (best_l2 > 0) fprintf(f, "%.6g", best_l2);
    else fprintf(f, "null"); /* L2 unknown or below the sweep's smallest set */
    fprintf(f, ", \"DRAM\": %.6g},\n     \"copy_gbs\": %.6g, \"memcpy_gbs\": %.6g", copy, copy,
            memcpy_rate);
    transfers(f, &j, ones, big, ev); /* the host's ones, touched: pageable memory in use */
    fprintf(f, "}");
    free(ones);
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    cudaFree(j.src);
    cudaFree(j.dst);
    cudaFree(j.sink);
    return 0;
}

int tg__gpu_ceilings_main(int argc, char **argv)
{
    const char *out = NULL;
    int force = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--force")) force = 1;
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) i++; /* "cuda": how we got here */
        else if (!strcmp(argv[i], "--device=cuda")) continue;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strncmp(argv[i], "--out=", 6)) out = argv[i] + 6;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: tgemm-bench ceilings --device cuda [--out FILE] [--force]\n"
                   "  measures the GPU's FP32 FMA peak, DRAM bandwidth (a copy kernel against\n"
                   "  cudaMemcpyAsync), L2 bandwidth (a read sweep) and host<->device bandwidth\n"
                   "  (cudaMemcpyAsync each way, pinned and pageable host memory) into FILE (default\n"
                   "  results/<gpu-slug>/ceilings.json); an existing FILE is kept unless --force\n");
            return 0;
        } else {
            fprintf(stderr, "tgemm-bench ceilings: unknown option '%s' with --device cuda (see "
                            "--help)\n", argv[i]);
            return 2;
        }
    }
    const char *no_gpu = tg__gpu_unavailable();
    if (no_gpu) {
        fprintf(stderr, "tgemm-bench: --device cuda: %s\n", no_gpu);
        return 2;
    }
    char default_out[256], tmp[4200];
    snprintf(default_out, sizeof default_out, "results/%s/ceilings.json", tg__gpu_slug());
    if (!out) out = default_out;
    if (!force && access(out, F_OK) == 0) {
        fprintf(stderr, "ceilings: %s exists; kept (--force measures again)\n", out);
        return 0;
    }
    make_parents(out);
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "tgemm-bench ceilings: cannot write '%s': %s\n", tmp, strerror(errno));
        return 2;
    }
    fprintf(f, "{\"machine\": ");
    tg__machine_json(f);
    fprintf(f, ",\n \"device\": ");
    tg__gpu_device_json(f);
    fprintf(f, ",\n \"command\": ");
    tg__json_command(f, argc, argv);
    fprintf(f, ",\n \"threads\": [\n");
    int rc = measure_all(f);
    fprintf(f, "\n ]\n}\n");
    if (fclose(f) != 0 || rc != 0 || rename(tmp, out) != 0) {
        fprintf(stderr, "tgemm-bench ceilings: could not finish '%s'\n", out);
        remove(tmp);
        return 1;
    }
    fprintf(stderr, "ceilings: written to %s\n", out);
    return 0;
}
