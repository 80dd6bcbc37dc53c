/* The GPU worker: `tgemm-bench-cuda worker IMPL [options] CASE...`, one GPU implementation in one
 * process, speaking the CPU worker's line protocol to the same parent (sweep.c; see worker.cc):
 *   check <case> <ok 0|1> <max_ratio> <method> <message>
 *   skip <case> <reason>
 *   time <case> <real_ns> <cpu_ns> <calls>      (one line per repetition)
 *   done <case>
 * so rounds, alternation, statistics and the JSON are the CPU sweep's own.
 *
 * Check (round 1, --check): the operands are made on the host exactly as for the CPU
 * (tg__problem_init: uniform in [-1, 1], C poisoned with NaN when beta is zero, guard elements on both
 * sides of C), copied to the device with C's guards, and C comes back guards included. Small cases
 * go through tg__check unchanged (the fp64 reference ratio test on the CPU, check "reference");
 * larger ones, where the CPU's reference would take minutes per implementation, through the same
 * ratio test on every element against cuBLAS DGEMM on the upcast operands (check_gpu.cu, check
 * "gpu-dgemm"), the guards compared on the host. cublas-tf32 is held to TF32's precision: its ratio
 * is taken against TF32's eps (2^-10) instead of fp32's (2^-23), and the check's name says so
 * ("reference-tf32", "gpu-dgemm-tf32"). tgemm-host (the crossover mode's CPU line) computes on the
 * host and its C goes to the device for the same checks. Elementwise cases (--op) are checked by the
 * CPU's own ew_check.c, whose call runs here on the device (gpu_ew_run: the arrays and the output's
 * guards copied over and back), or on the host for tgemm-host.
 *
 * Tests only: TGEMM_BENCH_GPU_PLANT=1 spoils one element of every result the check sees (of
 * tgemm-host's GEMM too); TGEMM_BENCH_GPU_CHECK=1 sends every GEMM, small ones too, through the GPU
 * check.
 *
 * Timing, after an untimed warm-up, in batches sized to last --min-time, each repetition reporting
 * its batch's time over its calls, in one of the ways gpu.h names:
 *   on the device   CUDA events around the batch; the calls rotate through copies of the operands
 *                   that together span at least twice the L2, so that no call finds its inputs left
 *                   in L2 by the one before (on an H100, 50 MB of L2 holds 2048^2 fp32 A, B and C
 *                   twice over)
 *   with transfers  (tgemm-cuda+pinned, +pageable) every call copies its inputs in (A and B, and C
 *                   when beta is not zero; x, y, the bias, and the output when it is updated in
 *                   place), runs, copies its output back and synchronises, as an offload that needs
 *                   its result on the host must; the host's monotonic clock around the batch.
 *                   Where pinned memory is refused, +pinned skips each case with the CUDA error.
 *   on the host     (tgemm-host) the CPU library's calls, the host's monotonic clock
 * cpu_ns is the process's CPU time per call (on the device the host thread mostly waits).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "api.h"
#include "check.h"
#include "elementwise/tgemm_elementwise.h"
#include "ew_bench.h"
#include "gpu_internal.h"
#include "vendors.h"

namespace {

struct WorkerOptions {
    int g = -1;
    int reps = 1;
    double min_time = 0.05, warmup = 0.0, alpha = 1, beta = 0;
    bool check = false;
};

/* The case being checked, on the device, for host_sgemm below. */
struct {
    const tg__problem *p;
    int g;
    float *a, *b, *cbuf; /* cbuf: C with its guards, as on the host */
    int64_t guard;       /* elements before (and after) C */
    char why[200];       /* the CUDA or cuBLAS error behind a failed call */
    bool lost;           /* a CUDA error the context does not survive */
} dev;

double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Test only (TGEMM_BENCH_GPU_PLANT=1, harness/tests/gpu_run.sh and gpu_emulated.sh): spoils the
 * result element at `at` on the device, as a kernel with an edge or tail bug would leave it: off by
 * 2^-10 of its value in fp32 and fp64 (a zero, such as a ReLU's, becomes 1), far past the 16 ulps
 * any check allows; by 4 ulps in fp16 and bf16 (their limit is 1). The check must fail the case. */
cudaError_t plant_on_device(void *at, size_t es)
{
    union { double d; float f; uint16_t h; } v = {0};
    cudaError_t e = cudaMemcpy(&v, at, es, cudaMemcpyDeviceToHost);
    if (es == 8) v.d = v.d != 0 ? v.d + v.d * (1.0 / 1024) : 1;
    else if (es == 4) v.f = v.f != 0 ? v.f + v.f * (1.0f / 1024) : 1;
    else v.h ^= 4;
    if (e == cudaSuccess) e = cudaMemcpy(at, &v, es, cudaMemcpyHostToDevice);
    return e;
}

/* tg__impl_ops.sgemm for tg__check: the operands are the problem's host buffers. A GPU
 * implementation runs on copies on the device (C with its guards) and C comes back; tgemm-host runs
 * on the host, and its operands and C then go to the device for the GPU check. */
int host_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
               const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
               int64_t ldc)
{
    const tg__problem *p = dev.p;
    const bool on_host = tg__gpu_impl_mode(dev.g) == TG__GPU_ON_HOST;
    const bool plant = getenv("TGEMM_BENCH_GPU_PLANT") != NULL;
    const char *why = NULL;
    int st = TG_OK;
    if (on_host)
        st = tg_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, a, lda, b, ldb,
                      beta, c, ldc);
    size_t c_bytes = (size_t)(p->c_len + 2 * dev.guard) * sizeof(float);
    cudaError_t e = cudaMemcpy(dev.a, a, (size_t)p->a_len * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(dev.b, b, (size_t)p->b_len * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dev.cbuf, c - dev.guard, c_bytes, cudaMemcpyHostToDevice);
    if (!on_host && e == cudaSuccess) {
        st = tg__gpu_sgemm(dev.g, layout, ta, tb, m, n, k, alpha, dev.a, lda, dev.b, ldb, beta,
                           dev.cbuf + dev.guard, ldc, 0, &why);
        if (st == TG_OK) e = cudaDeviceSynchronize();
    }
    /* The planted fault goes into C(m-1, n-1), the last edge tile; C then comes back (tgemm-host's
     * too), so the host's check and the GPU's see the same. */
    if (st == TG_OK && e == cudaSuccess && plant)
        e = plant_on_device(dev.cbuf + dev.guard +
                                (layout == TG_ROW_MAJOR ? (m - 1) * ldc + n - 1
                                                        : (n - 1) * ldc + m - 1),
                            sizeof(float));
    if (st == TG_OK && e == cudaSuccess && (!on_host || plant))
        e = cudaMemcpy(c - dev.guard, dev.cbuf, c_bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        snprintf(dev.why, sizeof dev.why, "%s", cudaGetErrorString(e));
        dev.lost = true;
        return TG_ERR_DEVICE;
    }
    if (st != TG_OK)
        snprintf(dev.why, sizeof dev.why, "%s", why ? why : tg_last_error());
    return st;
}

int no_dgemm(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
             const double *, int64_t, double, double *, int64_t)
{
    return TG_ERR_UNSUPPORTED;
}

void no_threads(int) {}

const char *runs_all(const tg__case *) { return NULL; }

uint64_t fresh_seed(int index)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^
           (uint64_t)index * 0x9e3779b97f4a7c15ull;
}

/* Operands depend only on the case (as in worker.cc), so every round and implementation multiplies
 * the same numbers. */
uint64_t case_seed(const char *spec)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *q = spec; *q; q++) h = (h ^ (unsigned char)*q) * 1099511628211ull;
    return h;
}

/* Whether tg__check checks the case directly against the CPU's fp64 reference (check.c's limits):
 * larger cases are checked on the GPU, where the CPU's randomized check with exact sampled rows and
 * columns would take minutes per implementation at 8192^3. */
bool checked_on_host(const tg__case *c)
{
    if (getenv("TGEMM_BENCH_GPU_CHECK")) return false; /* tests: every case through the GPU check */
    return c->m * c->n * c->k <= ((int64_t)1 << 24) && c->m * c->n <= ((int64_t)1 << 21);
}

/* The large cases: the implementation runs through host_sgemm (C between guards, copied back), the
 * guards are compared on the host, and every element by the ratio test against cuBLAS DGEMM on the
 * device (check_gpu.cu). */
void gpu_check(tg__problem *p, tg__check_result *r)
{
    const tg__case *c = &p->c;
    const float guard_value = 1234.5f; /* as check.c's: exact in fp32, unlike any result */
    memset(r, 0, sizeof *r);
    r->ok = 1;
    r->method = "gpu-dgemm";
    float *cmat = (float *)p->cmat, *c0 = (float *)p->c0;
    memcpy(cmat, c0, (size_t)p->c_len * sizeof(float));
    for (int64_t i = 0; i < dev.guard; i++) cmat[-1 - i] = cmat[p->c_len + i] = guard_value;
    int st = host_sgemm(c->layout, c->transa, c->transb, c->m, c->n, c->k, (float)p->alpha,
                        (const float *)p->a, p->lda, (const float *)p->b, p->ldb, (float)p->beta,
                        cmat, p->ldc);
    if (st == TG_ERR_UNSUPPORTED) {
        r->unsupported = 1;
        return;
    }
    r->max_ratio = INFINITY;
    if (st != TG_OK) {
        r->ok = 0;
        snprintf(r->msg, sizeof r->msg, "the implementation returned status %d", st);
        return;
    }
    for (int64_t i = 0; i < dev.guard && r->ok; i++)
        if (cmat[-1 - i] != guard_value || cmat[p->c_len + i] != guard_value) {
            r->ok = 0;
            snprintf(r->msg, sizeof r->msg, "wrote outside C (guard element %lld %s it changed)",
                     (long long)i, cmat[-1 - i] != guard_value ? "before" : "after");
        }
    float *dc0 = NULL;
    if (p->beta != 0) {
        TG__CUDA_OR_DIE(cudaMalloc(&dc0, (size_t)p->c_len * sizeof(float)));
        TG__CUDA_OR_DIE(cudaMemcpy(dc0, c0, (size_t)p->c_len * sizeof(float),
                                   cudaMemcpyHostToDevice));
    }
    int64_t bi, bj;
    double worst;
    char why[160];
    if (tg__gpu_ratio_check(c, p->alpha, p->beta, dev.a, p->lda, p->a_len, dev.b, p->ldb,
                            p->b_len, dc0, dev.cbuf + dev.guard, p->ldc, p->c_len, &worst, &bi,
                            &bj, why, sizeof why) != 0) {
        r->ok = 0;
        snprintf(r->msg, sizeof r->msg, "%s", why);
        dev.lost = cudaDeviceSynchronize() != cudaSuccess;
    } else {
        if (r->ok) r->max_ratio = worst;
        if (bi >= 0 && r->ok) {
            r->ok = 0;
            snprintf(r->msg, sizeof r->msg, "C(%lld, %lld): ratio >= %g (worst %.3g)",
                     (long long)bi, (long long)bj, TG__RATIO_LIMIT, worst);
        }
    }
    cudaFree(dc0);
}

/* Round 1's check; false when the device is lost and the worker must stop. */
bool check_case(int index, tg__problem *p, int g)
{
    dev.p = p;
    dev.g = g;
    dev.guard = ((const char *)p->cmat - (const char *)p->cbuf) / (int64_t)sizeof(float);
    dev.why[0] = 0;
    dev.lost = false;
    size_t c_bytes = (size_t)(p->c_len + 2 * dev.guard) * sizeof(float);
    TG__CUDA_OR_DIE(cudaMalloc(&dev.a, (size_t)p->a_len * sizeof(float)));
    TG__CUDA_OR_DIE(cudaMalloc(&dev.b, (size_t)p->b_len * sizeof(float)));
    TG__CUDA_OR_DIE(cudaMalloc(&dev.cbuf, c_bytes));
    tg__impl_ops ops = {host_sgemm, no_dgemm, no_threads, runs_all};
    tg__check_result r;
    if (checked_on_host(&p->c)) tg__check(p, &ops, fresh_seed(index), &r);
    else gpu_check(p, &r);
    char method[16];
    snprintf(method, sizeof method, "%s", r.method);
    if (tg__gpu_impl_tf32(g) && isfinite(r.max_ratio)) {
        /* The same test with TF32's eps: the ratio scales by eps_fp32 / eps_tf32 = 2^-13. */
        r.max_ratio *= (double)FLT_EPSILON / 0x1p-10;
        r.ok = r.max_ratio < TG__RATIO_LIMIT;
        if (r.ok) r.msg[0] = 0;
        else snprintf(r.msg, sizeof r.msg, "ratio %.3g against TF32's eps, limit %g", r.max_ratio,
                      TG__RATIO_LIMIT);
        /* "reference-tf32", "gpu-dgemm-tf32" */
        snprintf(method, sizeof method, "%.10s-tf32", r.method);
    }
    if (r.unsupported) {
        printf("skip %d the implementation cannot run this shape\n", index);
    } else {
        size_t used = strlen(r.msg);
        if (!r.ok && dev.why[0] && used + 4 < sizeof r.msg)
            snprintf(r.msg + used, sizeof r.msg - used, " (%s)", dev.why);
        printf("check %d %d %.6g %s %s\n", index, r.ok, r.max_ratio, method, r.msg);
    }
    fflush(stdout);
    cudaFree(dev.a);
    cudaFree(dev.b);
    cudaFree(dev.cbuf);
    return !dev.lost;
}

/* ---- elementwise cases: the launcher's call, and the check's run on the device ---- */

/* One tgemm-cuda call of the case on device arrays (x, y, bias: NULL where the operation has none). */
int ew_launch(const tg__ew_problem *p, const void *x, const void *y, const void *bias, void *z,
              double alpha)
{
    const tg__case *c = &p->c;
    const tg_dtype t = c->dtype == 's'   ? TG_F32
                       : c->dtype == 'd' ? TG_F64
                       : c->dtype == 'h' ? TG_F16
                                         : TG_BF16;
    switch (c->op) {
    case TG__OP_ADD: return tg_cuda_add(t, p->n, x, y, z, 0);
    case TG__OP_SUB: return tg_cuda_sub(t, p->n, x, y, z, 0);
    case TG__OP_MUL: return tg_cuda_mul(t, p->n, x, y, z, 0);
    case TG__OP_SCALE: return tg_cuda_scale(t, p->n, alpha, z, 0);
    case TG__OP_AXPY: return tg_cuda_axpy(t, p->n, alpha, x, z, 0);
    case TG__OP_ACTIVATE: return tg_cuda_activate(t, (tg_act)c->act, p->n, x, z, 0);
    case TG__OP_BIAS_ACT:
        return tg_cuda_bias_act(t, TG_ROW_MAJOR, c->m, c->n, bias, TG_BIAS_PER_COL, (tg_act)c->act,
                                z, c->n, 0);
    default: return TG_ERR_UNSUPPORTED;
    }
}

/* tg__ew_problem.run for the check (ew_check.c): the operands and the output between its guards go
 * to the device, one call, and the output comes back, guards included. */
int gpu_ew_run(tg__ew_problem *p, double alpha)
{
    const size_t bytes = (size_t)p->n * p->es;
    const size_t zbuf_bytes = bytes + 2 * (size_t)((char *)p->z - (char *)p->zbuf);
    const size_t bias_bytes = (size_t)p->c.n * p->es;
    char *x = NULL, *y = NULL, *bias = NULL, *zbuf = NULL;
    cudaError_t e = cudaMalloc(&zbuf, zbuf_bytes);
    if (e == cudaSuccess && p->x) e = cudaMalloc(&x, bytes);
    if (e == cudaSuccess && p->y) e = cudaMalloc(&y, bytes);
    if (e == cudaSuccess && p->bias) e = cudaMalloc(&bias, bias_bytes);
    if (e == cudaSuccess && x) e = cudaMemcpy(x, p->x, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && y) e = cudaMemcpy(y, p->y, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && bias) e = cudaMemcpy(bias, p->bias, bias_bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(zbuf, p->zbuf, zbuf_bytes, cudaMemcpyHostToDevice);
    char *z = zbuf + ((char *)p->z - (char *)p->zbuf);
    int st = e == cudaSuccess ? ew_launch(p, x, y, bias, z, alpha) : TG_ERR_DEVICE;
    if (st == TG_OK) e = cudaDeviceSynchronize();
    /* the planted fault: the last element, where a tail bug would live */
    if (st == TG_OK && e == cudaSuccess && getenv("TGEMM_BENCH_GPU_PLANT"))
        e = plant_on_device(z + bytes - p->es, p->es);
    if (st == TG_OK && e == cudaSuccess)
        e = cudaMemcpy(p->zbuf, zbuf, zbuf_bytes, cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(y);
    cudaFree(bias);
    cudaFree(zbuf);
    if (e != cudaSuccess) {
        snprintf(dev.why, sizeof dev.why, "%s", cudaGetErrorString(e));
        dev.lost = true;
        return TG_ERR_DEVICE;
    }
    return st;
}

/* ---- timing ----
 * A Job is one implementation on one case's operands: up to four arrays (GEMM: A, B, C; elementwise:
 * x, y, bias, the output), each an input, an output or both (C when beta is not zero, an array
 * updated in place). On the device they are laid out one after another, each 256-byte aligned like
 * a cudaMalloc, in `sets` copies: on the device alone the calls rotate through copies spanning at
 * least twice the L2, so that no call finds its inputs left in L2 by the one before (on an H100, 50 MB
 * of L2 holds 2048^2 fp32 A, B and C twice over); with transfers one copy, rewritten by every call's
 * own copies in. */
struct Job {
    int g = -1, mode = TG__GPU_ON_DEVICE;
    const tg__problem *gemm = nullptr; /* one of these two */
    tg__ew_problem *ew = nullptr;
    int narr = 0;
    void *host[4] = {};                /* where each array's copies come from and go to */
    size_t bytes[4] = {}, off[4] = {};
    bool in[4] = {}, out[4] = {};
    void *pinned[4] = {};              /* tgemm-cuda+pinned: cudaMallocHost copies of host[] */
    char *base = nullptr;
    size_t set = 0;
    long sets = 1, next = 0;
};

void job_add(Job *j, const void *host, size_t bytes, bool in, bool out)
{
    if (!host) return;
    j->host[j->narr] = (void *)host;
    j->bytes[j->narr] = bytes;
    j->in[j->narr] = in;
    j->out[j->narr++] = out;
}

/* The arrays of the case, on the device (and pinned) as the mode needs them. NULL, or why this way
 * cannot run: pinned host memory refused (cudaMallocHost fails where a runtime or a sandbox limits
 * page-locked memory), which the worker reports as a skip with the CUDA error, so that the pageable
 * line and the rest of the sweep go on. The error is cleared: it is not sticky, and left as the last
 * error it would fail the worker's next launch. */
const char *job_init(Job *j)
{
    static char text[200];
    if (j->gemm) {
        const tg__problem *p = j->gemm;
        /* C starts as C0; with transfers its host copy is the problem's C, rewritten each call */
        memcpy(p->cmat, p->c0, (size_t)p->c_len * sizeof(float));
        job_add(j, p->a, (size_t)p->a_len * sizeof(float), true, false);
        job_add(j, p->b, (size_t)p->b_len * sizeof(float), true, false);
        job_add(j, p->cmat, (size_t)p->c_len * sizeof(float), p->beta != 0, true);
    } else {
        const tg__ew_problem *p = j->ew;
        const size_t bytes = (size_t)p->n * p->es;
        job_add(j, p->x, bytes, true, false);
        job_add(j, p->y, bytes, true, false);
        job_add(j, p->bias, (size_t)p->c.n * p->es, true, false);
        job_add(j, p->z, bytes, tg__ew_in_place(p->c.op), true);
    }
    if (j->mode == TG__GPU_ON_HOST) return NULL;
    for (int a = 0; j->mode == TG__GPU_PINNED && a < j->narr; a++) {
        cudaError_t e = cudaMallocHost(&j->pinned[a], j->bytes[a]);
        if (e != cudaSuccess) {
            cudaGetLastError();
            snprintf(text, sizeof text, "pinned host memory refused: cudaMallocHost of %zu bytes "
                     "failed: %s", j->bytes[a], cudaGetErrorString(e));
            return text;
        }
        memcpy(j->pinned[a], j->host[a], j->bytes[a]);
        j->host[a] = j->pinned[a];
    }
    for (int a = 0; a < j->narr; a++) {
        j->off[a] = j->set;
        j->set += (j->bytes[a] + 255) / 256 * 256;
    }
    if (j->mode == TG__GPU_ON_DEVICE) {
        double l2 = (double)tg__gpu_l2_bytes();
        j->sets = (long)ceil(2 * (l2 > 0 ? l2 : 64e6) / (double)j->set);
        size_t free_bytes = 0, total = 0;
        TG__CUDA_OR_DIE(cudaMemGetInfo(&free_bytes, &total));
        long fit = (long)(0.8 * (double)free_bytes / (double)j->set);
        if (j->sets > fit) j->sets = fit; /* a set larger than L2 already leaves nothing there */
        if (j->sets < 1) j->sets = 1;
    }
    TG__CUDA_OR_DIE(cudaMalloc(&j->base, (size_t)j->sets * j->set));
    for (long s = 0; s < j->sets; s++)
        for (int a = 0; a < j->narr; a++)
            TG__CUDA_OR_DIE(cudaMemcpy(j->base + (size_t)s * j->set + j->off[a], j->host[a],
                                       j->bytes[a], cudaMemcpyHostToDevice));
    return NULL;
}

void job_free(Job *j)
{
    for (int a = 0; a < j->narr; a++) cudaFreeHost(j->pinned[a]);
    cudaFree(j->base);
}

/* One call on the device on copy s of the operands; `visit` counts the calls on that copy (scale
 * and axpy alternate their alpha by it, ew_check.c). TG_OK or the implementation's status. */
int job_launch(Job *j, long s, long visit, const char **why)
{
    char *q = j->base + (size_t)s * j->set;
    if (j->gemm) {
        const tg__problem *p = j->gemm;
        const tg__case *c = &p->c;
        return tg__gpu_sgemm(j->g, c->layout, c->transa, c->transb, c->m, c->n, c->k,
                             (float)p->alpha, (float *)(q + j->off[0]), p->lda,
                             (float *)(q + j->off[1]), p->ldb, (float)p->beta,
                             (float *)(q + j->off[2]), p->ldc, 0, why);
    }
    const tg__ew_problem *p = j->ew;
    void *arr[4] = {};
    for (int a = 0; a < j->narr; a++) arr[a] = q + j->off[a];
    int a = 0; /* the arrays in job_init's order, those the operation lacks left out */
    const void *x = p->x ? arr[a++] : NULL, *y = p->y ? arr[a++] : NULL;
    const void *bias = p->bias ? arr[a++] : NULL;
    return ew_launch(p, x, y, bias, arr[a], tg__ew_timed_alpha(p->c.op, visit));
}

/* The CPU library on the host's operands (tgemm-host). */
int job_host_call(Job *j)
{
    if (j->ew) return tg__ew_problem_run(j->ew);
    const tg__problem *p = j->gemm;
    const tg__case *c = &p->c;
    return tg_sgemm((tg_layout)c->layout, (tg_trans)c->transa, (tg_trans)c->transb, c->m, c->n,
                    c->k, (float)p->alpha, (const float *)p->a, p->lda, (const float *)p->b, p->ldb,
                    (float)p->beta, (float *)p->cmat, p->ldc);
}

/* Times `calls` calls: seconds in *secs, process CPU seconds in *cpu. On the device by CUDA events
 * around the batch; with transfers each call is the copies in, the call and the copies out,
 * synchronised, as an offload needs its result back, all by the host's clock; on the host by the
 * host's clock. NULL, or what failed. */
const char *time_calls(Job *j, long calls, cudaEvent_t ev[2], double *secs, double *cpu)
{
    static char text[200];
    const char *why = NULL;
    int st = TG_OK;
    cudaError_t e = cudaSuccess;
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);
    if (j->mode == TG__GPU_ON_HOST) {
        for (long i = 0; i < calls && st == TG_OK; i++) st = job_host_call(j);
        *secs = now(CLOCK_MONOTONIC) - t0;
    } else if (j->mode == TG__GPU_ON_DEVICE) {
        e = cudaEventRecord(ev[0], 0);
        for (long i = 0; i < calls && st == TG_OK; i++, j->next++)
            st = job_launch(j, j->next % j->sets, j->next / j->sets, &why);
        if (e == cudaSuccess) e = cudaEventRecord(ev[1], 0);
        if (e == cudaSuccess) e = cudaEventSynchronize(ev[1]);
        float ms = 0;
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
        *secs = 1e-3 * ms;
    } else {
        for (long i = 0; i < calls && st == TG_OK && e == cudaSuccess; i++, j->next++) {
            for (int a = 0; a < j->narr && e == cudaSuccess; a++)
                if (j->in[a])
                    e = cudaMemcpyAsync(j->base + j->off[a], j->host[a], j->bytes[a],
                                        cudaMemcpyHostToDevice, 0);
            if (e == cudaSuccess) st = job_launch(j, 0, j->next, &why);
            for (int a = 0; a < j->narr && e == cudaSuccess && st == TG_OK; a++)
                if (j->out[a])
                    e = cudaMemcpyAsync(j->host[a], j->base + j->off[a], j->bytes[a],
                                        cudaMemcpyDeviceToHost, 0);
            if (e == cudaSuccess) e = cudaStreamSynchronize(0);
        }
        *secs = now(CLOCK_MONOTONIC) - t0;
    }
    *cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (e == cudaSuccess && j->mode != TG__GPU_ON_HOST) e = cudaGetLastError();
    if (e != cudaSuccess) snprintf(text, sizeof text, "CUDA error while timing: %s",
                                   cudaGetErrorString(e));
    else if (st != TG_OK) snprintf(text, sizeof text, "the implementation returned status %d "
                                   "while timing (%s)", st, why ? why : tg_last_error());
    return e != cudaSuccess || st != TG_OK ? text : NULL;
}

/* Warm-up, batch sizing and the repetitions' `time` lines. Returns false when the device is lost. */
bool time_job(int index, Job *j, const WorkerOptions &o)
{
    const char *cannot = job_init(j);
    if (cannot) {
        printf("skip %d %s\n", index, cannot);
        fflush(stdout);
        job_free(j);
        return true;
    }
    cudaEvent_t ev[2];
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[0]));
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[1]));
    double secs = 0, cpu = 0;
    /* Warm-up: module loading, cuBLAS's first-call setup, the host's threads starting and clocks
     * ramping up stay out of the timed batches (the first batch of the sizing below, discarded,
     * warms up too); one call, then --warmup seconds. */
    const char *failed = time_calls(j, 1, ev, &secs, &cpu);
    for (double t0 = now(CLOCK_MONOTONIC); !failed && now(CLOCK_MONOTONIC) - t0 < o.warmup;)
        failed = time_calls(j, 1, ev, &secs, &cpu);
    /* Calls per batch: grown from 1 until a batch lasts half of --min-time, then scaled to it. */
    long calls = 1;
    const long most = 100000000;
    while (!failed) {
        failed = time_calls(j, calls, ev, &secs, &cpu);
        if (failed || secs >= 0.5 * o.min_time || calls >= most) break;
        double grow = secs > 0 ? 1.5 * o.min_time / secs : 10;
        calls = (long)ceil((double)calls * (grow < 10 ? grow : 10));
    }
    if (!failed && secs < o.min_time) calls = (long)ceil((double)calls * o.min_time / secs);
    if (calls > most) calls = most;
    for (int rep = 0; rep < o.reps && !failed; rep++) {
        failed = time_calls(j, calls, ev, &secs, &cpu);
        if (!failed)
            printf("time %d %.6g %.6g %ld\n", index, secs * 1e9 / (double)calls,
                   cpu * 1e9 / (double)calls, calls);
    }
    if (failed) printf("check %d 0 inf timing %s\n", index, failed);
    fflush(stdout);
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    job_free(j);
    return !failed || j->mode == TG__GPU_ON_HOST || cudaDeviceSynchronize() == cudaSuccess;
}

/* An elementwise case: tgemm-cuda's kernels (on the device or with transfers) or the CPU library on
 * the host (tgemm-host), checked by ew_check.c on the host, then timed. False when the device is
 * lost. */
bool run_ew_case(int index, const char *spec, const tg__case &c, const WorkerOptions &o)
{
    const int mode = tg__gpu_impl_mode(o.g);
    if (mode == TG__GPU_ON_DEVICE && o.g != tg__gpu_impl_parse("tgemm-cuda")) {
        printf("skip %d the SGEMM ladder and cuBLAS have no elementwise kernels here: tgemm-cuda "
               "has\n", index);
        return true;
    }
    const char *cpu_lacks = mode == TG__GPU_ON_HOST ? tg__ew_unsupported(TG__IMPL_TGEMM, &c) : NULL;
    if (cpu_lacks) {
        printf("skip %d %s\n", index, cpu_lacks);
        return true;
    }
    tg__ew_problem p;
    if (tg__ew_problem_init(&p, &c, TG__IMPL_TGEMM, case_seed(spec), NULL) != 0) {
        printf("check %d 0 inf all out of memory for the arrays of %s\n", index, spec);
        return true;
    }
    dev.why[0] = 0;
    dev.lost = false;
    if (o.check) {
        tg__ew_check_result r;
        p.run = mode == TG__GPU_ON_HOST ? NULL : gpu_ew_run;
        tg__ew_check(&p, fresh_seed(index), &r);
        p.run = NULL;
        size_t used = strlen(r.msg);
        if (!r.ok && dev.why[0] && used + 4 < sizeof r.msg)
            snprintf(r.msg + used, sizeof r.msg - used, " (%s)", dev.why);
        printf("check %d %d %.6g %s %s\n", index, r.ok, r.max_ulps, r.method, r.msg);
        fflush(stdout);
    }
    bool alive = !dev.lost;
    if (alive) {
        Job j;
        j.g = o.g;
        j.mode = mode;
        j.ew = &p;
        alive = time_job(index, &j, o);
    }
    tg__ew_problem_free(&p);
    return alive;
}

/* Returns false when the device is lost. */
bool run_case(int index, const char *spec, const WorkerOptions &o)
{
    tg__case c;
    if (tg__case_parse(spec, &c) != 0) {
        printf("check %d 0 inf reference malformed case '%s'\n", index, spec);
        return true;
    }
    if (c.op != TG__OP_GEMM) return run_ew_case(index, spec, c, o);
    if (c.dtype != 's') {
        printf("skip %d the GPU implementations are fp32 (s) only\n", index);
        return true;
    }
    tg__problem p;
    if (tg__problem_init(&p, &c, o.alpha, o.beta, case_seed(spec)) != 0) {
        printf("check %d 0 inf reference out of memory for the operands of %s\n", index, spec);
        return true;
    }
    if (o.check && !check_case(index, &p, o.g)) {
        tg__problem_free(&p);
        return false;
    }
    Job j;
    j.g = o.g;
    j.mode = tg__gpu_impl_mode(o.g);
    j.gemm = &p;
    bool alive = time_job(index, &j, o);
    tg__problem_free(&p);
    return alive;
}

int usage(const char *msg)
{
    fprintf(stderr, "tgemm-bench-cuda worker: %s\n(workers are started by tgemm-bench itself)\n",
            msg);
    return 2;
}

} // namespace

extern "C" int tg__worker_main(int argc, char **argv)
{
    /* argv[0] is "worker". */
    if (argc == 3 && !strcmp(argv[1], "--info")) {
        int g = tg__gpu_impl_parse(argv[2]);
        if (g >= 0) tg__gpu_impl_info_json(g, stdout);
        else if (tg__impl_parse(argv[2]) >= 0)
            printf("{\"present\": false, \"reason\": \"tgemm-bench-cuda runs GPU implementations "
                   "only; CPU sweeps run on build/tgemm-bench\"}");
        else return usage("unknown implementation");
        printf("\n");
        return 0;
    }
    if (argc < 2) return usage("no implementation given");
    WorkerOptions o;
    o.g = tg__gpu_impl_parse(argv[1]);
    if (o.g < 0) return usage("unknown GPU implementation");
    int i = 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--check")) { o.check = true; continue; }
        if (!strcmp(a, "--")) { i++; break; }
        if (!v) return usage("an option lacks its value");
        i++;
        if (!strcmp(a, "--reps")) o.reps = atoi(v);
        else if (!strcmp(a, "--min-time")) o.min_time = atof(v);
        else if (!strcmp(a, "--warmup")) o.warmup = atof(v);
        else if (!strcmp(a, "--alpha")) o.alpha = atof(v);
        else if (!strcmp(a, "--beta")) o.beta = atof(v);
        else return usage("unknown option");
    }
    const char *no_gpu = tg__gpu_unavailable();
    for (int j = i; j < argc; j++) {
        if (no_gpu) printf("skip %d %s\n", j - i, no_gpu);
        else if (!run_case(j - i, argv[j], o)) return 1; /* the parent fails the rest */
        printf("done %d\n", j - i);
        fflush(stdout);
    }
    return 0;
}
