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
 * ("reference-tf32", "gpu-dgemm-tf32").
 *
 * Tests only: TGEMM_BENCH_GPU_PLANT=1 spoils one element of every result the check sees;
 * TGEMM_BENCH_GPU_CHECK=1 sends every case, small ones too, through the GPU check.
 *
 * Timing: CUDA events around a batch of calls, after an untimed warm-up; the batch is sized so that
 * it lasts --min-time, and each repetition reports the batch's time over its calls. The calls rotate
 * through copies of the operands that together span at least twice the L2, so that no call finds its
 * inputs left in L2 by the one before (on an H100, 50 MB of L2 holds 2048^2 fp32 A, B and C twice
 * over). cpu_ns is the process's CPU time per call (the host thread mostly waits on the event).
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

/* tg__impl_ops.sgemm for tg__check: the operands are the problem's host buffers. */
int host_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
               const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
               int64_t ldc)
{
    const tg__problem *p = dev.p;
    size_t c_bytes = (size_t)(p->c_len + 2 * dev.guard) * sizeof(float);
    cudaError_t e = cudaMemcpy(dev.a, a, (size_t)p->a_len * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(dev.b, b, (size_t)p->b_len * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dev.cbuf, c - dev.guard, c_bytes, cudaMemcpyHostToDevice);
    const char *why = NULL;
    int st = e == cudaSuccess ? tg__gpu_sgemm(dev.g, layout, ta, tb, m, n, k, alpha, dev.a, lda,
                                              dev.b, ldb, beta, dev.cbuf + dev.guard, ldc, 0, &why)
                              : TG_ERR_DEVICE;
    if (st == TG_OK) e = cudaDeviceSynchronize();
    if (st == TG_OK && e == cudaSuccess && getenv("TGEMM_BENCH_GPU_PLANT")) {
        /* Test only (harness/tests/gpu_run.sh): C(m-1, n-1), the last edge tile, off by 2^-10 on
         * the device, as a kernel with an edge bug would leave it; the check must fail the case. */
        float *last = dev.cbuf + dev.guard +
                      (layout == TG_ROW_MAJOR ? (m - 1) * ldc + n - 1 : (n - 1) * ldc + m - 1), v;
        e = cudaMemcpy(&v, last, sizeof v, cudaMemcpyDeviceToHost);
        v += v * (1.0f / 1024);
        if (e == cudaSuccess) e = cudaMemcpy(last, &v, sizeof v, cudaMemcpyHostToDevice);
    }
    if (st == TG_OK && e == cudaSuccess)
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

/* Copies of A, B and C one after another, each 256-byte aligned like a cudaMalloc, repeated. */
struct Rotation {
    float *base = nullptr;
    size_t set;            /* floats per copy */
    size_t a_off, b_off, c_off;
    long sets, next = 0;
};

size_t round_up(int64_t floats) { return ((size_t)floats + 63) / 64 * 64; }

void rotation_init(Rotation *r, const tg__problem *p)
{
    r->a_off = 0;
    r->b_off = round_up(p->a_len);
    r->c_off = r->b_off + round_up(p->b_len);
    r->set = r->c_off + round_up(p->c_len);
    double set_bytes = (double)r->set * sizeof(float), l2 = (double)tg__gpu_l2_bytes();
    r->sets = (long)ceil(2 * (l2 > 0 ? l2 : 64e6) / set_bytes);
    size_t free_bytes = 0, total = 0;
    TG__CUDA_OR_DIE(cudaMemGetInfo(&free_bytes, &total));
    long fit = (long)(0.8 * (double)free_bytes / set_bytes);
    if (r->sets > fit) r->sets = fit; /* a set larger than L2 already leaves nothing there */
    if (r->sets < 1) r->sets = 1;
    TG__CUDA_OR_DIE(cudaMalloc(&r->base, (size_t)r->sets * r->set * sizeof(float)));
    for (long s = 0; s < r->sets; s++) {
        float *q = r->base + (size_t)s * r->set;
        TG__CUDA_OR_DIE(cudaMemcpy(q + r->a_off, p->a, (size_t)p->a_len * sizeof(float),
                                   cudaMemcpyHostToDevice));
        TG__CUDA_OR_DIE(cudaMemcpy(q + r->b_off, p->b, (size_t)p->b_len * sizeof(float),
                                   cudaMemcpyHostToDevice));
        TG__CUDA_OR_DIE(cudaMemcpy(q + r->c_off, p->c0, (size_t)p->c_len * sizeof(float),
                                   cudaMemcpyHostToDevice));
    }
}

/* Queues `calls` calls, each on the next copy of the operands; TG_OK or the first failure's
 * status. */
int queue_calls(Rotation *r, const tg__problem *p, int g, long calls, const char **why)
{
    const tg__case *c = &p->c;
    for (long i = 0; i < calls; i++) {
        float *q = r->base + (size_t)(r->next++ % r->sets) * r->set;
        int st = tg__gpu_sgemm(g, c->layout, c->transa, c->transb, c->m, c->n, c->k,
                               (float)p->alpha, q + r->a_off, p->lda, q + r->b_off, p->ldb,
                               (float)p->beta, q + r->c_off, p->ldc, 0, why);
        if (st != TG_OK) return st;
    }
    return TG_OK;
}

/* Times `calls` calls with events: seconds in *secs, process CPU seconds in *cpu. NULL, or what
 * failed. */
const char *time_calls(Rotation *r, const tg__problem *p, int g, long calls, cudaEvent_t ev[2],
                       double *secs, double *cpu)
{
    static char text[200];
    const char *why = NULL;
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    cudaError_t e = cudaEventRecord(ev[0], 0);
    int st = queue_calls(r, p, g, calls, &why);
    if (e == cudaSuccess) e = cudaEventRecord(ev[1], 0);
    if (e == cudaSuccess) e = cudaEventSynchronize(ev[1]);
    *cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    float ms = 0;
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
    if (e == cudaSuccess) e = cudaGetLastError();
    *secs = 1e-3 * ms;
    if (e != cudaSuccess) snprintf(text, sizeof text, "CUDA error while timing: %s",
                                   cudaGetErrorString(e));
    else if (st != TG_OK) snprintf(text, sizeof text, "the implementation returned status %d "
                                   "while timing (%s)", st, why ? why : tg_last_error());
    return e != cudaSuccess || st != TG_OK ? text : NULL;
}

/* Returns false when the device is lost. */
bool run_case(int index, const char *spec, const WorkerOptions &o)
{
    tg__case c;
    if (tg__case_parse(spec, &c) != 0) {
        printf("check %d 0 inf reference malformed case '%s'\n", index, spec);
        return true;
    }
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
    Rotation r;
    rotation_init(&r, &p);
    cudaEvent_t ev[2];
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[0]));
    TG__CUDA_OR_DIE(cudaEventCreate(&ev[1]));
    double secs = 0, cpu = 0;
    /* Warm-up: module loading, cuBLAS's first-call setup and clocks ramping up stay out of the
     * timed batches (the first batch of the sizing below, discarded, warms up too); one call,
     * then --warmup seconds. */
    const char *failed = time_calls(&r, &p, o.g, 1, ev, &secs, &cpu);
    for (double t0 = now(CLOCK_MONOTONIC); !failed && now(CLOCK_MONOTONIC) - t0 < o.warmup;)
        failed = time_calls(&r, &p, o.g, 1, ev, &secs, &cpu);
    /* Calls per batch: grown from 1 until a batch lasts half of --min-time, then scaled to it. */
    long calls = 1;
    const long most = 100000000;
    while (!failed) {
        failed = time_calls(&r, &p, o.g, calls, ev, &secs, &cpu);
        if (failed || secs >= 0.5 * o.min_time || calls >= most) break;
        double grow = secs > 0 ? 1.5 * o.min_time / secs : 10;
        calls = (long)ceil((double)calls * (grow < 10 ? grow : 10));
    }
    if (!failed && secs < o.min_time) calls = (long)ceil((double)calls * o.min_time / secs);
    if (calls > most) calls = most;
    for (int rep = 0; rep < o.reps && !failed; rep++) {
        failed = time_calls(&r, &p, o.g, calls, ev, &secs, &cpu);
        if (!failed)
            printf("time %d %.6g %.6g %ld\n", index, secs * 1e9 / (double)calls,
                   cpu * 1e9 / (double)calls, calls);
    }
    if (failed) printf("check %d 0 inf timing %s\n", index, failed);
    fflush(stdout);
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    cudaFree(r.base);
    tg__problem_free(&p);
    return !failed || cudaDeviceSynchronize() == cudaSuccess;
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
