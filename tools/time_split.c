/* time-split: where one large GEMM's time goes on one core, stage by stage, from the FMA peak down
 * to the call.
 *
 * A call's distance from the peak is several losses multiplied: the micro-kernel's own loop (its
 * loads of A and B, the loop's overhead, each tile's start and end), the caches it streams its
 * panels and C through, and the packing and the edges around it. Each stage below adds one of them
 * to the stage before, so that the ratio of two neighbours is what that one costs:
 *
 *   peak   the harness's FMA probe (independent chains of FMAs, no loads: ceilings_probes.c), in
 *          the instruction set of the blocked path's kernel
 *   loop   that kernel (cpu.h's tg__blocked_kernel, as a call takes it) on one mr x nr tile over
 *          and over, its packed panels of A and B shallow enough that both stay in half of L1,
 *          and C's tile in L1
 *   panel  the same tile at the call's own kc (blocking.c): where a panel outgrows L1 it streams
 *          from L2, and the tile's ends come once per kc k steps
 *   block  every tile of the call's first k block: one packed mc x kc block of A (reused for every
 *          block of rows: packing A not counted) against every panel of the packed kc x nc block
 *          of B (in L3), C the caller's rows a leading dimension apart, from memory, as the driver
 *          (driver.c) orders its loops without its threads
 *   call   tg_sgemm / tg_dgemm itself, row-major, no transpose, on one thread: adds the packing,
 *          every k block and column block, and the edges
 *
 * Every stage is timed for at least 0.2 s per round, the stages in a rotated order each round, and
 * each is reported as the median of the rounds with its lowest and highest; a shared VM's clock
 * moves by several percent from one second to the next, which the alternation spreads over all
 * stages alike. Not a test and not for the targets' table (tgemm-bench is); a tool for seeing
 * which loss to work on, on the machine at hand. Built against libtgemm.a, whose internal kernel
 * descriptors and block sizes it calls (cpu/cpu.h). Run it under the bench lock:
 *     flock /tmp/bench.lock build/time-split s 2048 7
 *
 * usage: time-split s|d M[xNxK] [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "ceilings.h"
#include "cpu.h"

enum { TG__STAGES = 5, TG__MAX_ROUNDS = 99 };
static const char *const tg__stage_name[TG__STAGES] = {"peak", "loop", "panel", "block", "call"};

typedef struct {
    char dtype;
    int64_t m, n, k;
    const tg__kernel *kern;
    tg__blocks bs;
    int64_t kc_loop;                 /* the loop stage's depth */
    tg__isa isa;
    char *a_pan, *b_pan, *c_tile;    /* the loop and panel stages' packed panels and C tile */
    char *a_blk, *b_blk;             /* the block stage's packed blocks */
    char *a, *b, *c;                 /* the call's operands; c also the block stage's C */
} tg__split;

static double tg__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 64-byte aligned bytes of small values (1/64 to 1/2, exact in either type), so that C's sums
 * over many repeated calls stay far from overflow and no operand is subnormal. */
static char *tg__operand(size_t elems, size_t es)
{
    size_t bytes = (elems * es + 63) / 64 * 64;
    char *p = (char *)aligned_alloc(64, bytes ? bytes : 64);
    if (!p) {
        fprintf(stderr, "time-split: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < elems; i++) {
        double v = (double)(1 + i % 32) / 64.0;
        if (es == sizeof(float)) ((float *)p)[i] = (float)v;
        else ((double *)p)[i] = v;
    }
    return p;
}

/* One run of a stage; returns the FLOPs it did. */
static double tg__stage_once(const tg__split *s, int stage)
{
    const tg__kernel *kn = s->kern;
    const int64_t es = (int64_t)kn->es, mr = kn->mr, nr = kn->nr, kc = s->bs.kc;
    const void *one = tg__one(kn->es);
    switch (stage) {
    case 0:
        return tg__probe_fma(s->isa, s->dtype, 1L << 16);
    case 1:
    case 2: {
        const int64_t depth = stage == 1 ? s->kc_loop : kc;
        const int calls = (int)(4096 * 512 / depth);
        for (int i = 0; i < calls; i++)
            kn->ukernel(depth, one, s->a_pan, 1, mr, depth, s->b_pan, nr, one, s->c_tile, nr, 1, mr,
                        nr);
        return 2.0 * (double)(mr * nr) * (double)depth * calls;
    }
    case 3: {
        const int64_t nc = tg__min(s->bs.nc, s->n);
        for (int64_t ic = 0; ic < s->m; ic += s->bs.mc) {
            const int64_t mc = tg__min(s->bs.mc, s->m - ic);
            for (int64_t j = 0; j < nc; j += nr)
                kn->ukernel(kc, one, s->a_blk, 1, mr, kc, s->b_blk + j * kc * es, nr, one,
                            s->c + (ic * s->n + j) * es, s->n, 1, mc, tg__min(nr, nc - j));
        }
        return 2.0 * (double)s->m * (double)nc * (double)kc;
    }
    default:
        if (s->dtype == 's')
            tg_sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, s->m, s->n, s->k, 1.0f,
                     (const float *)s->a, s->k, (const float *)s->b, s->n, 0.0f, (float *)s->c,
                     s->n);
        else
            tg_dgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, s->m, s->n, s->k, 1.0,
                     (const double *)s->a, s->k, (const double *)s->b, s->n, 0.0, (double *)s->c,
                     s->n);
        return 2.0 * (double)s->m * (double)s->n * (double)s->k;
    }
}

/* GFLOP/s of a stage run for at least `seconds`. */
static double tg__stage_rate(const tg__split *s, int stage, double seconds)
{
    double flops = 0, t0 = tg__now(), t;
    do flops += tg__stage_once(s, stage);
    while ((t = tg__now() - t0) < seconds);
    return flops / t / 1e9;
}

static int tg__cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int tg__parse_shape(const char *arg, int64_t *m, int64_t *n, int64_t *k)
{
    long long x, y, z;
    char tail;
    if (sscanf(arg, "%lldx%lldx%lld%c", &x, &y, &z, &tail) == 3) {
        *m = x, *n = y, *k = z;
    } else if (sscanf(arg, "%lld%c", &x, &tail) == 1) {
        *m = *n = *k = x;
    } else {
        return 0;
    }
    return *m > 0 && *n > 0 && *k > 0;
}

int main(int argc, char **argv)
{
    tg__split s;
    tg__arch arch = tg__arch_selected();
    const tg__cpuinfo *cpu = tg__cpu();
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    double rate[TG__STAGES][TG__MAX_ROUNDS], med[TG__STAGES];
    int64_t es, mr, nr, deepest;
    memset(&s, 0, sizeof s);
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "s") && strcmp(argv[1], "d")) ||
        !tg__parse_shape(argv[2], &s.m, &s.n, &s.k) || rounds < 1 || rounds > TG__MAX_ROUNDS) {
        fprintf(stderr, "usage: time-split s|d M[xNxK] [ROUNDS (1-%d, default 7)]\n",
                TG__MAX_ROUNDS);
        return 2;
    }
    if (arch == TG__ARCH_INVALID) {
        fprintf(stderr, "time-split: TGEMM_ARCH names a kernel family this CPU lacks\n");
        return 2;
    }
    s.dtype = argv[1][0];
    es = s.dtype == 's' ? 4 : 8;
    s.kern = tg__blocked_kernel(tg__kernel_family(arch, (size_t)es));
    mr = s.kern->mr, nr = s.kern->nr;
    s.isa = arch == TG__ARCH_AVX512 ? TG__ISA_AVX512
            : arch == TG__ARCH_AVX2 ? TG__ISA_AVX2
                                    : TG__ISA_SCALAR;
    s.bs = tg__block_sizes(s.kern, s.k, s.n);
    s.bs.kc = tg__min(s.bs.kc, s.k);
    s.bs.mc = tg__even_mc(s.kern, s.bs.mc, s.m);
    /* both panels in half of L1, a multiple of 8 k steps */
    s.kc_loop = cpu->l1d / 2 / ((mr + nr) * es) / 8 * 8;
    if (s.kc_loop < 8) s.kc_loop = 8;
    deepest = s.kc_loop > s.bs.kc ? s.kc_loop : s.bs.kc; /* the loop and panel stages share them */
    s.a_pan = tg__operand((size_t)(mr * deepest), (size_t)es);
    s.b_pan = tg__operand((size_t)(nr * deepest), (size_t)es);
    s.c_tile = tg__operand((size_t)(mr * nr), (size_t)es);
    s.a_blk = tg__operand((size_t)(s.bs.mc * s.bs.kc), (size_t)es);
    s.b_blk = tg__operand((size_t)(tg__ceil_div(tg__min(s.bs.nc, s.n), nr) * nr * s.bs.kc),
                          (size_t)es);
    s.a = tg__operand((size_t)(s.m * s.k), (size_t)es);
    s.b = tg__operand((size_t)(s.k * s.n), (size_t)es);
    s.c = tg__operand((size_t)(s.m * s.n), (size_t)es);
    tg_set_num_threads(1);

    printf("%cgemm %lldx%lldx%lld, 1 thread, %s kernel %lld x %lld, mc %lld kc %lld nc %lld, "
           "loop kc %lld; L1 %lld KiB, L2 %lld KiB\n",
           s.dtype, (long long)s.m, (long long)s.n, (long long)s.k, s.kern->name, (long long)mr,
           (long long)nr, (long long)s.bs.mc, (long long)s.bs.kc,
           (long long)s.bs.nc, (long long)s.kc_loop, (long long)(cpu->l1d >> 10),
           (long long)(cpu->l2 >> 10));
    if (s.isa == TG__ISA_SCALAR)
        printf("(the generic family's peak is the scalar FMA probe's, which its compiled loops, "
               "vectorized by the compiler, can pass)\n");
    for (int st = 0; st < TG__STAGES; st++) tg__stage_rate(&s, st, 0.05); /* warm up */
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < TG__STAGES; i++) {
            const int st = (i + r) % TG__STAGES;
            rate[st][r] = tg__stage_rate(&s, st, 0.2);
        }
    printf("median of %d rounds, the stages alternating\n", rounds);
    printf("stage    GFLOP/s  (lowest-highest)  of peak  of the stage above\n");
    for (int st = 0; st < TG__STAGES; st++) {
        qsort(rate[st], (size_t)rounds, sizeof(double), tg__cmp);
        med[st] = rounds % 2 ? rate[st][rounds / 2]
                             : 0.5 * (rate[st][rounds / 2 - 1] + rate[st][rounds / 2]);
        printf("%-6s  %8.1f  (%6.1f-%6.1f)   %6.3f", tg__stage_name[st], med[st], rate[st][0],
               rate[st][rounds - 1], med[st] / med[0]);
        if (st) printf("   %6.3f", med[st] / med[st - 1]);
        printf("\n");
    }
    free(s.a_pan), free(s.b_pan), free(s.c_tile), free(s.a_blk), free(s.b_blk);
    free(s.a), free(s.b), free(s.c);
    return 0;
}
