/* `tgemm-bench ceilings`: measures what this machine can do, for 1 to all threads, and writes
 * results/<slug>/ceilings.json (format below), read by the sweep (peak_pct) and harness/report.py.
 *
 * Per thread count: the sustained clock (a dependent add chain), the FMA peak per instruction set
 * and dtype, and a working-set sweep of a read-only sum and a triad whose plateaus give the
 * bandwidth of L1, L2, L3 and DRAM, plus a plain memcpy of the DRAM-sized set in the same run, so a
 * reader can see the bandwidth probe is no slower than the simplest copy, and the STREAM kernels of
 * the elementwise operations' patterns on that set (the ceilings of tgemm-bench --op). The probes
 * themselves are in ceilings_probes.c.
 *
 * Threads are POSIX threads, each pinned to one CPU of this process's affinity set, started at a
 * barrier and timed on their own; a rate is the work of all threads over the slowest one's time.
 * Times are each thread's CPU time, so a run that another process interrupts still measures the
 * core (the machines this runs on are often shared); the price is that while one thread of a team
 * is off its core the others have the memory to themselves, so shared-level bandwidth can read
 * a little high on a busy machine.
 * Not OpenMP: the harness compiles its C without -fopenmp, and pinning and start barriers are what
 * a probe needs anyway. Each thread first touches its own buffers, so on a NUMA machine they
 * live next to it. Every measurement is calibrated to run long enough (doubling the
 * work until it takes the target time), then repeated; the best repetition counts, because on a
 * shared machine noise only ever makes a probe slower.
 *
 * Output:
 *   {"machine": {tgemm-bench machine}, "command": "...", "threads": [{"threads": t, "clock_ghz": g,
 *    "peak_gflops": {"s": {"scalar": x, "avx2": x, "avx512": x}, "d": {...}} (ISAs present only),
 *    "bandwidth_gbs": {"L1": x, "L2": x, "L3": x, "DRAM": x} (null where the sweep has no point),
 *    "copy_gbs": x, "stream_gbs": {"copy": x, "copy_nt": x, "add": x, "add_nt": x,
 *    "scale_inplace": x, "axpy_inplace": x} (DRAM-sized arrays; _nt: non-temporal stores; bytes
 *    counted as STREAM does, each array read or written once), "sweep": [[bytes, GB/s], ...]
 *    (read-only; bytes = the set of all threads),
 *    "sweep_triad": [[bytes, GB/s], ...]}, ...]}
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "ceilings.h"
#include "internal.h"

#define TG__MAX_THREADS 1024

typedef enum {
    PROBE_FILL, PROBE_FMA, PROBE_CLOCK, PROBE_READ, PROBE_TRIAD, PROBE_COPY, PROBE_STREAM
} probe_kind;

/* One measurement on a team of threads; each thread fills its own slot of secs and work. */
typedef struct {
    probe_kind kind;
    tg__isa isa;
    char dtype;
    tg__stream stream;  /* PROBE_STREAM: which kernel, and whether with non-temporal stores */
    int nt;
    long reps;          /* FMA/clock rounds, or passes over the set */
    size_t bytes;       /* per thread: the working set */
    double **read_buf;  /* per thread: the read-only set (also memcpy's source) */
    double **triad_buf; /* per thread: a, b, c one after another (also memcpy's destination) */
    int *cpus;
    pthread_barrier_t barrier;
    double secs[TG__MAX_THREADS], work[TG__MAX_THREADS];
    double sink[TG__MAX_THREADS]; /* keeps the read probe's sums alive */
} job;

typedef struct {
    job *j;
    int id;
} slot;

/* This thread's CPU time, not the wall clock: on a shared machine another process may take the
 * core for part of a run, and the probe must say what the core does while it runs. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort: timing still holds */
}

static void *worker(void *arg)
{
    const slot *s = arg;
    job *j = s->j;
    const int i = s->id;
    pin(j->cpus[i]);
    pthread_barrier_wait(&j->barrier);
    double t0 = now(), work = 0;
    switch (j->kind) {
    case PROBE_FILL: /* the first touch, from the thread that will read: its memory is near */
        for (size_t e = 0; e < j->bytes / sizeof(double); e++)
            j->read_buf[i][e] = j->triad_buf[i][e] = 1.0 + 1e-9 * (double)e;
        break;
    case PROBE_FMA: work = tg__probe_fma(j->isa, j->dtype, j->reps); break;
    case PROBE_CLOCK: work = tg__probe_add_chain(j->reps); break;
    case PROBE_READ:
        j->sink[i] += tg__probe_read(j->read_buf[i], j->bytes, j->reps);
        work = (double)j->bytes * (double)j->reps;
        break;
    case PROBE_TRIAD: {
        /* three arrays whose starts stay 64-byte aligned for the widest vectors */
        size_t n = j->bytes / (3 * sizeof(double)) / 8 * 8;
        double *a = j->triad_buf[i];
        tg__probe_triad(a, a + n, a + 2 * n, n, j->reps);
        work = 3.0 * (double)n * sizeof(double) * (double)j->reps;
        break;
    }
    case PROBE_COPY:
        for (long r = 0; r < j->reps; r++) memcpy(j->triad_buf[i], j->read_buf[i], j->bytes);
        work = 2.0 * (double)j->bytes * (double)j->reps; /* read + written, as STREAM counts */
        break;
    case PROBE_STREAM: {
        /* a in the triad buffer, b and c in the read buffer; add's three arrays are half as long */
        size_t n = j->bytes / sizeof(double) / (j->stream == TG__STREAM_ADD ? 2 : 1) / 8 * 8;
        static const double arrays[TG__STREAM_COUNT] = {2, 3, 2, 3};
        tg__probe_stream(j->stream, j->nt, j->triad_buf[i], j->read_buf[i], j->read_buf[i] + n, n,
                         j->reps);
        work = arrays[j->stream] * (double)n * sizeof(double) * (double)j->reps;
        break;
    }
    }
    j->secs[i] = now() - t0;
    j->work[i] = work;
    return NULL;
}

/* Runs j on n threads; returns all threads' work per second of the slowest, or 0 on failure. */
static double run_team(job *j, int n)
{
    pthread_t tid[TG__MAX_THREADS];
    slot slots[TG__MAX_THREADS];
    if (pthread_barrier_init(&j->barrier, NULL, (unsigned)n) != 0) return 0;
    int started = 0;
    for (; started < n; started++) {
        slots[started] = (slot){j, started};
        if (pthread_create(&tid[started], NULL, worker, &slots[started]) != 0) break;
    }
    if (started < n) { /* the barrier would wait forever: nothing sensible is left to measure */
        fprintf(stderr, "tgemm-bench ceilings: cannot start %d threads\n", n);
        exit(1);
    }
    double work = 0, slowest = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(tid[i], NULL);
        work += j->work[i];
        if (j->secs[i] > slowest) slowest = j->secs[i];
    }
    pthread_barrier_destroy(&j->barrier);
    return slowest > 0 ? work / slowest : 0;
}

/* Doubles j->reps until a run takes `target` seconds, then keeps the best of `repeats` runs. */
static double measure(job *j, int n, double target, int repeats)
{
    j->reps = 1;
    for (;;) {
        run_team(j, n);
        double slowest = 0;
        for (int i = 0; i < n; i++)
            if (j->secs[i] > slowest) slowest = j->secs[i];
        if (slowest >= target || j->reps > (1L << 40)) break;
        /* jump close to the target when the run was long enough to predict from */
        j->reps = slowest > target / 64 ? (long)((double)j->reps * target / slowest) + 1
                                        : 2 * j->reps;
    }
    double best = 0;
    for (int r = 0; r < repeats; r++) {
        double rate = run_team(j, n);
        if (rate > best) best = rate;
    }
    return best;
}

typedef struct {
    int threads[TG__MAX_THREADS], nthreads;
    const char *out;
    int force, quick;
} options;

static const char usage[] =
    "usage: tgemm-bench ceilings [--threads LIST] [--out FILE] [--force] [--quick]\n"
    "Measures the roofline ceilings (clock, FMA peak per ISA and dtype, bandwidth per memory level)\n"
    "for each thread count and writes them as JSON.\n"
    "  --threads LIST  thread counts, comma-separated; `all`: every CPU this process may use\n"
    "                  (default: 1 to all; above 8 CPUs: powers of two and all)  --threads 1,all\n"
    "  --out FILE      where to write (default: results/<slug>/ceilings.json, <slug> as\n"
    "                  `tgemm-bench machine --slug` prints it)            --out /tmp/ceilings.json\n"
    "  --force         measure even when FILE exists (default: keep it, measure nothing)\n"
    "  --quick         short probes and a sweep only to 8 MiB, for tests; not a real ceiling\n";

static int cpus_allowed(int *cpus)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (int c = 0; c < online && n < TG__MAX_THREADS; c++) cpus[n++] = c;
        return n > 0 ? n : 1;
    }
    for (int c = 0; c < CPU_SETSIZE && n < TG__MAX_THREADS; c++)
        if (CPU_ISSET(c, &set)) cpus[n++] = c;
    return n;
}

static int parse_threads(const char *arg, int ncpus, options *o)
{
    o->nthreads = 0;
    for (const char *s = arg; *s;) {
        char *end;
        long t;
        if (!strncmp(s, "all", 3) && (s[3] == ',' || !s[3])) {
            t = ncpus;
            end = (char *)s + 3;
        } else {
            errno = 0;
            t = strtol(s, &end, 10);
            if (end == s || errno) t = 0;
        }
        if (t < 1 || t > ncpus || (*end && *end != ',') || o->nthreads == TG__MAX_THREADS) {
            fprintf(stderr, "tgemm-bench ceilings: --threads: '%s' is not a list of counts from 1 "
                            "to %d (the CPUs this process may use) or `all`\n", arg, ncpus);
            return -1;
        }
        o->threads[o->nthreads++] = (int)t;
        s = *end ? end + 1 : end;
    }
    return o->nthreads > 0 ? 0 : -1;
}

static int parse(int argc, char **argv, int ncpus, options *o, char *default_out, size_t len)
{
    o->nthreads = 0;
    for (int t = 1; t <= ncpus; t = ncpus <= 8 ? t + 1 : 2 * t) o->threads[o->nthreads++] = t;
    if (o->threads[o->nthreads - 1] != ncpus) o->threads[o->nthreads++] = ncpus;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--force")) {
            o->force = 1;
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if ((!strcmp(a, "--threads") || !strcmp(a, "--out")) && i + 1 < argc) {
            if (a[2] == 'o') o->out = argv[++i];
            else if (parse_threads(argv[++i], ncpus, o) != 0) return -1;
        } else {
            fprintf(stderr, "tgemm-bench ceilings: unknown or incomplete option '%s'\n%s", a, usage);
            return -1;
        }
    }
    if (!o->out) {
        snprintf(default_out, len, "results/%s/ceilings.json", tg__machine_slug());
        o->out = default_out;
    }
    return 0;
}

/* mkdir -p of the folder that will hold path. */
static void make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(dir, 0777);
        *p = '/';
    }
}

static void json_num(FILE *f, double v)
{
    if (v > 0) fprintf(f, "%.4g", v);
    else fprintf(f, "null");
}

/* The best bandwidth among the sweep points whose per-thread set lies in [lo, hi] and whole set
 * in [total_lo, total_hi]; 0 where none does. */
static double plateau(const double (*pts)[2], int npts, int threads, double lo, double hi,
                      double total_lo, double total_hi)
{
    double best = 0;
    for (int i = 0; i < npts; i++) {
        double per = pts[i][0] / threads;
        if (per >= lo && per <= hi && pts[i][0] >= total_lo && pts[i][0] <= total_hi &&
            pts[i][1] > best)
            best = pts[i][1];
    }
    return best;
}

/* One thread count, written as one element of "threads". */
static int measure_threads(FILE *f, int n, const options *o, int *cpus)
{
    const tg__cpuinfo *ci = tg__cpu();
    const double target = o->quick ? 0.005 : 0.05, sweep_target = o->quick ? 0.002 : 0.02;
    const int repeats = o->quick ? 1 : 3;
    /* The DRAM set: four times the L3, at least 64 MiB, split across the threads. */
    double total_max = o->quick ? 8.0 * 1024 * 1024 : 4.0 * (double)ci->l3;
    if (!o->quick && total_max < 64.0 * 1024 * 1024) total_max = 64.0 * 1024 * 1024;
    size_t per_max = (size_t)(total_max / n) / 4096 * 4096;

    job *j = calloc(1, sizeof *j);
    double *read_buf[TG__MAX_THREADS] = {0}, *triad_buf[TG__MAX_THREADS] = {0};
    int ok = j != NULL;
    for (int i = 0; ok && i < n; i++) {
        read_buf[i] = aligned_alloc(64, per_max);
        triad_buf[i] = aligned_alloc(64, per_max);
        ok = read_buf[i] && triad_buf[i];
    }
    if (!ok) {
        fprintf(stderr, "tgemm-bench ceilings: out of memory for %d x %zu bytes\n", 2 * n, per_max);
        for (int i = 0; i < n; i++) free(read_buf[i]), free(triad_buf[i]);
        free(j);
        return -1;
    }
    *j = (job){.kind = PROBE_FILL, .bytes = per_max, .read_buf = read_buf, .triad_buf = triad_buf,
               .cpus = cpus};
    run_team(j, n);

    j->kind = PROBE_CLOCK;
    const double ghz = measure(j, n, target, repeats) / n / 1e9; /* cycles per second per core */
    fprintf(f, "    {\"threads\": %d, \"clock_ghz\": %.4g,\n     \"peak_gflops\": {", n, ghz);
    fprintf(stderr, "ceilings: %d thread%s: clock %.2f GHz; peak GFLOP/s", n, n > 1 ? "s" : "", ghz);
    const char dtypes[2] = {'s', 'd'};
    for (int d = 0; d < 2; d++) {
        fprintf(f, "%s\"%c\": {", d ? ", " : "", dtypes[d]);
        int first = 1;
        for (int isa = 0; isa < TG__ISA_COUNT; isa++) {
            if (!tg__isa_present((tg__isa)isa)) continue;
            j->kind = PROBE_FMA;
            j->isa = (tg__isa)isa;
            j->dtype = dtypes[d];
            double gflops = measure(j, n, target, repeats) / 1e9;
            fprintf(f, "%s\"%s\": %.4g", first ? "" : ", ", tg__isa_name((tg__isa)isa), gflops);
            fprintf(stderr, " %c/%s %.1f", dtypes[d], tg__isa_name((tg__isa)isa), gflops);
            first = 0;
        }
        fprintf(f, "}");
    }
    fprintf(f, "},\n");

    /* Working-set sweep: per-thread sets of 4 KiB x 1, 1.5, 2, 3, 4, 6, ... up to per_max. */
    double (*pts)[2] = calloc(128, sizeof *pts), (*tri)[2] = calloc(128, sizeof *tri);
    int npts = 0;
    for (size_t base = 4096; pts && tri && base <= per_max && npts < 127; base *= 2) {
        for (int half = 0; half < 2 && npts < 127; half++) {
            size_t per = half ? base + base / 2 : base;
            if (per > per_max) break;
            per = per / 512 * 512; /* whole rounds of the read probe's 8 widest vectors */
            j->bytes = per;
            j->kind = PROBE_READ;
            pts[npts][0] = tri[npts][0] = (double)per * n;
            pts[npts][1] = measure(j, n, sweep_target, repeats) / 1e9;
            j->kind = PROBE_TRIAD;
            tri[npts][1] = measure(j, n, sweep_target, repeats) / 1e9;
            npts++;
        }
    }
    j->kind = PROBE_COPY;
    j->bytes = per_max;
    double copy = measure(j, n, sweep_target, repeats) / 1e9;

    const double l1 = (double)ci->l1d, l2 = (double)ci->l2, l3 = (double)ci->l3, big = 1e300;
    const double levels[4] = {
        plateau((const double(*)[2])pts, npts, n, 0, l1 / 2, 0, big),
        plateau((const double(*)[2])pts, npts, n, 2 * l1, l2 / 2, 0, big),
        plateau((const double(*)[2])pts, npts, n, 2 * l2, big, 0, l3 / 2),
        plateau((const double(*)[2])pts, npts, n, 0, big, 2 * l3, big)};
    static const char *const names[4] = {"L1", "L2", "L3", "DRAM"};
    fprintf(f, "     \"bandwidth_gbs\": {");
    fprintf(stderr, "; GB/s");
    for (int l = 0; l < 4; l++) {
        fprintf(f, "%s\"%s\": ", l ? ", " : "", names[l]);
        json_num(f, levels[l]);
        fprintf(stderr, " %s %.1f", names[l], levels[l]);
    }
    fprintf(f, "},\n     \"copy_gbs\": ");
    json_num(f, copy);
    fprintf(stderr, " memcpy %.1f; STREAM", copy);
    fprintf(f, ",\n     \"stream_gbs\": {");
    for (int k = 0; k < TG__STREAM_COUNT; k++) {
        for (int nt = 0; nt < (k <= TG__STREAM_ADD ? 2 : 1); nt++) {
            j->kind = PROBE_STREAM;
            j->stream = (tg__stream)k;
            j->nt = nt;
            j->bytes = per_max;
            double gbs = measure(j, n, sweep_target, repeats) / 1e9;
            fprintf(f, "%s\"%s%s\": ", k || nt ? ", " : "", tg__stream_name((tg__stream)k),
                    nt ? "_nt" : "");
            json_num(f, gbs);
            fprintf(stderr, " %s%s %.1f", tg__stream_name((tg__stream)k), nt ? "_nt" : "", gbs);
        }
    }
    fprintf(f, "}");
    fprintf(stderr, "\n");
    for (int s = 0; s < 2; s++) {
        const double(*p)[2] = s ? (const double(*)[2])tri : (const double(*)[2])pts;
        fprintf(f, ",\n     \"%s\": [", s ? "sweep_triad" : "sweep");
        for (int i = 0; i < npts; i++) fprintf(f, "%s[%.0f, %.4g]", i ? ", " : "", p[i][0], p[i][1]);
        fprintf(f, "]");
    }
    fprintf(f, "}");
    ok = pts && tri;
    free(pts);
    free(tri);
    for (int i = 0; i < n; i++) free(read_buf[i]), free(triad_buf[i]);
    free(j);
    return ok ? 0 : -1;
}

int tg_bench_ceilings_main(int argc, char **argv)
{
    static int cpus[TG__MAX_THREADS];
    static options o;
    char default_out[512], tmp[4200];
    const int ncpus = cpus_allowed(cpus);
    if (parse(argc, argv, ncpus, &o, default_out, sizeof default_out) != 0) return 2;
    if (!o.force && access(o.out, F_OK) == 0) {
        fprintf(stderr, "ceilings: %s exists; kept (--force measures again)\n", o.out);
        return 0;
    }
    if (!tg__isa_present(TG__ISA_SCALAR))
        fprintf(stderr, "ceilings: this CPU has no FMA: no compute ceilings, bandwidth only\n");
    make_parents(o.out);
    /* Written beside the target and renamed at the end, so an interrupted run leaves no file that
     * a later `make bench` would take for a finished one. */
    snprintf(tmp, sizeof tmp, "%s.tmp", o.out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "tgemm-bench ceilings: cannot write '%s': %s\n", tmp, strerror(errno));
        return 2;
    }
    fprintf(f, "{\"machine\": ");
    tg__machine_json(f);
    fprintf(f, ",\n \"command\": ");
    tg__json_command(f, argc, argv);
    fprintf(f, ",\n \"threads\": [\n");
    int rc = 0;
    for (int t = 0; t < o.nthreads && rc == 0; t++) {
        if (t) fprintf(f, ",\n");
        rc = measure_threads(f, o.threads[t], &o, cpus);
    }
    fprintf(f, "\n ]\n}\n");
    if (fclose(f) != 0 || rc != 0 || rename(tmp, o.out) != 0) {
        fprintf(stderr, "tgemm-bench ceilings: could not finish '%s'\n", o.out);
        remove(tmp);
        return 1;
    }
    fprintf(stderr, "ceilings: written to %s\n", o.out);
    return 0;
}
