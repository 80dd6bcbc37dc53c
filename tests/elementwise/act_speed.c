/* Time per element of tg_activate's transcendental activations in two builds of the library,
 * loaded side by side into one process and alternated, by default on one thread over an array that
 * fits in L2.
 *
 * Comparing two builds (a commit before a change and after) in one process, round by round, is the
 * only way to see a change of a few tens of percent on a shared machine: timings taken minutes apart
 * drift by more. Each library is opened with dlopen (RTLD_LOCAL, so the two copies of every tg_
 * symbol stay apart); each round times both on the same input, in turn, and the median over rounds
 * is reported, with the ratio of the medians. Not a test: run it under the bench lock,
 *     flock /tmp/bench.lock build/elementwise/act_speed OLD/libtgemm.so build/libtgemm.so
 *
 * usage: act_speed LIB_A LIB_B [n (default 32768)] [rounds (default 15)] [threads (default 1)]
 * (n = 2^27 and 2 threads time the activations at DRAM size, as the bench's verdict does)
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "api.h"

typedef int (*activate_fn)(tg_dtype, tg_act, int64_t, const void *, void *);
typedef void (*threads_fn)(int);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The core clock in GHz, from a chain of dependent integer adds (one per cycle on any x86-64 core
 * since the Pentium Pro); 0 elsewhere. Taken before and after the timings: a virtual machine's
 * nominal clock says little about the boost it runs at. The addend is a register: Intel's cores
 * from Golden Cove on run chains of add-immediate several a cycle (harness/ceilings_probes.c). */
static double clock_ghz(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    long n = 200000000, x = 0, one = 1;
    double t0 = now();
    __asm__ volatile("1: add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
                     "sub $4, %1\n\tjnz 1b"
                     : "+r"(x), "+r"(n)
                     : "r"(one));
    return 200000000 / (now() - t0) * 1e-9;
#else
    return 0;
#endif
}

/* Seconds per call, over enough calls to take ~1 ms. */
static double time_calls(activate_fn f, tg_dtype t, tg_act act, int64_t n, const void *x, void *y)
{
    int reps = 1, r;
    double t0, dt;
    for (;;) {
        t0 = now();
        for (r = 0; r < reps; r++) f(t, act, n, x, y);
        dt = now() - t0;
        if (dt > 1e-3) return dt / reps;
        reps *= 2;
    }
}

int main(int argc, char **argv)
{
    static const char *act_names[] = {"none", "relu", "gelu_tanh", "gelu_erf", "sigmoid", "silu"};
    enum { NACT = TG_ACT_SILU - TG_ACT_GELU_TANH + 1 };
    activate_fn f[2];
    int64_t n = argc > 3 ? atoll(argv[3]) : 32768, i;
    int rounds = argc > 4 ? atoi(argv[4]) : 15, threads = argc > 5 ? atoi(argv[5]) : 1, l, ti, a, r;
    void *x[2], *y;
    double *ts, ghz;
    uint64_t s = 0x2545F4914F6CDD1Du;
    if (argc < 3 || n < 1 || rounds < 1 || threads < 1) {
        fprintf(stderr, "usage: %s LIB_A LIB_B [n] [rounds] [threads]\n", argv[0]);
        return 2;
    }
    for (l = 0; l < 2; l++) {
        void *h = dlopen(argv[1 + l], RTLD_NOW | RTLD_LOCAL);
        threads_fn nt;
        if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
        f[l] = (activate_fn)(uintptr_t)dlsym(h, "tg_activate");
        nt = (threads_fn)(uintptr_t)dlsym(h, "tg_set_num_threads");
        if (!f[l] || !nt) { fprintf(stderr, "%s: no tg_activate\n", argv[1 + l]); return 2; }
        nt(threads);
    }
    x[0] = malloc((size_t)n * sizeof(float));
    x[1] = malloc((size_t)n * sizeof(double));
    y = malloc((size_t)n * sizeof(double));
    ts = (double *)malloc((size_t)(2 * NACT * 2 * rounds) * sizeof(double));
    if (!x[0] || !x[1] || !y || !ts) return 2;
    /* Uniform in [-10, 10], as the accuracy tests draw them. */
    for (i = 0; i < n; i++) {
        double v;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        v = -10 + 20 * (double)(s >> 11) * 0x1p-53;
        ((float *)x[0])[i] = (float)v;
        ((double *)x[1])[i] = v;
    }
    /* Every round times every case in both libraries, so that each case's samples spread over the
     * whole run and a busy moment on the machine touches all of them alike. */
#define TS(ti, a, l, r) ts[(((ti) * NACT + (a)) * 2 + (l)) * rounds + (r)]
    ghz = clock_ghz();
    for (r = -1; r < rounds; r++)
        for (ti = 0; ti < 2; ti++)
            for (a = 0; a < NACT; a++)
                for (l = 0; l < 2; l++) {
                    tg_act act = (tg_act)(TG_ACT_GELU_TANH + a);
                    tg_dtype t = ti ? TG_F64 : TG_F32;
                    if (r < 0) f[l](t, act, n, x[ti], y); /* warm-up: pages, caches */
                    else TS(ti, a, l, r) = time_calls(f[l], t, act, n, x[ti], y);
                }
    ghz = (ghz + clock_ghz()) / 2;
    printf("n = %lld, %d thread(s), median of %d alternating rounds; ns per element (A, B), B/A time;\n"
           "cycles per element (A, B) at the %.2f GHz clock measured around the run\n",
           (long long)n, threads, rounds, ghz);
    for (ti = 0; ti < 2; ti++)
        for (a = 0; a < NACT; a++) {
            double med[2];
            for (l = 0; l < 2; l++) {
                qsort(&TS(ti, a, l, 0), (size_t)rounds, sizeof(double), cmp);
                med[l] = TS(ti, a, l, rounds / 2) / (double)n * 1e9;
            }
            printf("%s %-9s  %7.3f  %7.3f  %5.3f   %6.2f  %6.2f\n", ti ? "f64" : "f32",
                   act_names[TG_ACT_GELU_TANH + a], med[0], med[1], med[1] / med[0], med[0] * ghz,
                   med[1] * ghz);
        }
#undef TS
    free(x[0]), free(x[1]), free(y), free(ts);
    return 0;
}
