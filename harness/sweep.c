/* The sweep's parent process: plan the cases, run the workers in alternating rounds, merge, write JSON.
 *
 * Cases are cut into batches. For each batch, every round runs one worker per implementation, the
 * order rotated each round (round 1: A B C, round 2: B C A, ...), so each implementation's timings
 * are spread over the same stretch of time as the others' and a noisy neighbour hurts all of them
 * alike; only ratios measured side by side hold on a shared machine. The first round also checks
 * every case. The median, mean, standard deviation and coefficient of variation are then taken over
 * all repetitions of all rounds, the way Google Benchmark computes its aggregates, and written in its
 * JSON format (one entry per case and aggregate), so its compare tool works on two sweeps. A worker
 * that dies fails its unfinished cases; the sweep goes on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "bench.h"
#include "ew_bench.h"
#include "gpu.h"
#include "options.h"

typedef struct {
    int checked, ok;
    double max_ratio;
    char method[16];
    char msg[256];
    int skipped;           /* the implementation cannot run it (absent kernel, threads) */
    int dead;              /* its worker died before finishing it */
    double *real_ns, *cpu_ns;
    int n, cap;
} result;

typedef struct {
    const tg__options *o;
    char exe[PATH_MAX];
    tg__case *cases;
    int ncases;
    int active[TG__ANY_IMPL_MAX], nactive; /* implementations present on this machine */
    result *res;                          /* [slot * ncases + case] */
    char plant[96];                       /* the largest shape, for the planted implementation */
    long total, done;
    double start, last_line;
    int tty, failures;
    char **errors;                        /* one line per failure, for the JSON */
    int nerrors;
    int host_threads;                     /* tgemm-host's thread count (line_threads), or 0 */
} sweep;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* How implementation `slot` is timed (gpu.h's modes): a GPU implementation's own mode; a CPU one
 * runs on the sweep's device, as the GPU ones on the device do. */
static int line_mode(const sweep *s, int slot)
{
    int id = s->active[slot];
    return id >= TG__IMPL_COUNT ? tg__gpu_impl_mode(id - TG__IMPL_COUNT) : TG__GPU_ON_DEVICE;
}

/* The threads a line ran on: the case's, but tgemm-host (the crossover mode's CPU line) runs the
 * CPU library on all the host's cores whatever the case says, so its lines carry the count of its
 * library record (tg_get_num_threads() in a worker of the same environment), as the report does. */
static int line_threads(const sweep *s, int slot, const tg__case *c)
{
    return line_mode(s, slot) == TG__GPU_ON_HOST && s->host_threads > 0 ? s->host_threads
                                                                          : c->threads;
}

/* An elementwise line's pattern of reads and writes, the one its bandwidth ceiling would be
 * measured with (ew_bench.h): the sweep's device's; tgemm-host's is the CPU's, where it runs; the
 * copy lines (+pinned, +pageable) have none: the host<->device copies they include are no pattern
 * of either side's memory. */
static const char *line_pattern(const sweep *s, int slot, const tg__case *c)
{
    int mode = line_mode(s, slot);
    return mode == TG__GPU_ON_HOST     ? tg__ew_pattern(c, TG__DEVICE_CPU)
           : mode == TG__GPU_ON_DEVICE ? tg__ew_pattern(c, s->o->device)
                                       : NULL;
}

/* The name of implementation `slot`'s line for case c, with the threads it ran on. */
static void line_name(const sweep *s, int slot, const tg__case *c, char *buf, size_t len)
{
    tg__case ran = *c;
    ran.threads = line_threads(s, slot, c);
    tg__case_name(&ran, tg__any_impl_name(s->active[slot]), buf, len);
}

static void add_error(sweep *s, int slot, const tg__case *c, const char *msg)
{
    char name[256], line[600];
    line_name(s, slot, c, name, sizeof name);
    snprintf(line, sizeof line, "%s: %s", name, msg);
    fprintf(stderr, "%sFAIL %s\n", s->tty ? "\r\033[K" : "", line);
    s->failures++;
    char **e = realloc(s->errors, (size_t)(s->nerrors + 1) * sizeof *e);
    if (!e) return;
    s->errors = e;
    s->errors[s->nerrors++] = strdup(line);
}

/* done/total, the case just finished, time left; in place on a terminal, else a plain line every
 * few seconds (and the last one). */
static void progress(sweep *s, int slot, const tg__case *c, int round)
{
    double t = now(), elapsed = t - s->start;
    if (!s->tty && t - s->last_line < 5 && s->done < s->total) return;
    s->last_line = t;
    double left = s->done ? elapsed / (double)s->done * (double)(s->total - s->done) : 0;
    char name[256];
    line_name(s, slot, c, name, sizeof name);
    fprintf(stderr, "%s[%ld/%ld] round %d/%d %s  elapsed %.0fs, about %.0fs left%s",
            s->tty ? "\r\033[K" : "", s->done, s->total, round + 1, s->o->rounds, name, elapsed,
            left, s->tty ? "" : "\n");
    fflush(stderr);
}

static void add_sample(result *r, double real_ns, double cpu_ns)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        double *a = realloc(r->real_ns, (size_t)cap * sizeof *a);
        if (a) r->real_ns = a;
        double *b = realloc(r->cpu_ns, (size_t)cap * sizeof *b);
        if (b) r->cpu_ns = b;
        if (!a || !b) return;
        r->cap = cap;
    }
    r->real_ns[r->n] = real_ns;
    r->cpu_ns[r->n++] = cpu_ns;
}

/* One line from a worker: check, skip, time or done (see worker.cc). */
static void handle_line(sweep *s, int slot, const int *idx, int count, char *line, int round,
                        char *finished)
{
    const char *impl = tg__any_impl_name(s->active[slot]);
    char kind[8];
    int i, used = 0;
    line[strcspn(line, "\n")] = 0;
    if (sscanf(line, "%7s %d %n", kind, &i, &used) != 2 || i < 0 || i >= count) {
        fprintf(stderr, "tgemm-bench: unexpected line from the %s worker: %s\n", impl, line);
        return;
    }
    const char *rest = line + used;
    const tg__case *c = &s->cases[idx[i]];
    result *r = &s->res[slot * s->ncases + idx[i]];
    if (!strcmp(kind, "check")) {
        int ok, n = 0;
        char method[16] = "";
        if (sscanf(rest, "%d %lf %15s %n", &ok, &r->max_ratio, method, &n) < 3) ok = 0;
        r->checked = 1;
        r->ok = ok;
        snprintf(r->method, sizeof r->method, "%s", method);
        snprintf(r->msg, sizeof r->msg, "%s", n ? rest + n : "unreadable check result");
        if (!ok) add_error(s, slot, c, r->msg);
    } else if (!strcmp(kind, "skip")) {
        if (!r->skipped) {
            r->skipped = 1;
            snprintf(r->msg, sizeof r->msg, "%s", rest);
        }
    } else if (!strcmp(kind, "time")) {
        double real_ns, cpu_ns;
        if (sscanf(rest, "%lf %lf", &real_ns, &cpu_ns) == 2) add_sample(r, real_ns, cpu_ns);
    } else if (!strcmp(kind, "done")) {
        finished[i] = 1;
        s->done++;
        progress(s, slot, c, round);
    }
}

/* Runs one worker over the cases idx[0..count) and reads what it reports. */
static void run_worker(sweep *s, int slot, const int *idx, int count, int round)
{
    const tg__options *o = s->o;
    tg__impl_id id = (tg__impl_id)s->active[slot];
    char reps[16], min_time[32], warmup[32], alpha[32], beta[32];
    snprintf(reps, sizeof reps, "%d", o->reps);
    snprintf(min_time, sizeof min_time, "%.17g", o->min_time);
    snprintf(warmup, sizeof warmup, "%.17g", o->warmup);
    snprintf(alpha, sizeof alpha, "%.17g", o->alpha);
    snprintf(beta, sizeof beta, "%.17g", o->beta);
    const char **argv = calloc((size_t)count + 24, sizeof *argv);
    char (*specs)[96] = calloc((size_t)count, sizeof *specs);
    char *finished = calloc((size_t)count + 1, 1);
    if (!argv || !specs || !finished) {
        fprintf(stderr, "tgemm-bench: out of memory\n");
        exit(1);
    }
    int n = 0;
    argv[n++] = s->exe;
    argv[n++] = "worker";
    argv[n++] = tg__any_impl_name(id);
    const char *opts[] = {"--reps", reps, "--min-time", min_time, "--warmup", warmup,
                          "--alpha", alpha, "--beta", beta};
    for (size_t j = 0; j < sizeof opts / sizeof *opts; j++) argv[n++] = opts[j];
    if (round == 0) argv[n++] = "--check";
    if (id == TG__IMPL_PLANTED) {
        argv[n++] = "--plant";
        argv[n++] = s->plant;
    }
    argv[n++] = "--";
    for (int i = 0; i < count; i++) {
        tg__case_format(&s->cases[idx[i]], specs[i], sizeof specs[i]);
        argv[n++] = specs[i];
    }
    int fd[2];
    pid_t pid = -1;
    if (pipe(fd) == 0) pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execv(s->exe, (char *const *)argv);
        fprintf(stderr, "tgemm-bench: cannot start a worker (%s): %s\n", s->exe, strerror(errno));
        _exit(127);
    }
    char why[128] = "";
    if (pid < 0) {
        snprintf(why, sizeof why, "cannot start a worker: %s", strerror(errno));
    } else {
        close(fd[1]);
        FILE *f = fdopen(fd[0], "r");
        char line[1024];
        while (f && fgets(line, sizeof line, f))
            handle_line(s, slot, idx, count, line, round, finished);
        if (f) fclose(f);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status))
            snprintf(why, sizeof why, "its worker was killed by signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else if (WEXITSTATUS(status) != 0)
            snprintf(why, sizeof why, "its worker exited with status %d", WEXITSTATUS(status));
    }
    for (int i = 0; i < count; i++) {
        if (finished[i]) continue;
        result *r = &s->res[slot * s->ncases + idx[i]];
        r->dead = 1;
        add_error(s, slot, &s->cases[idx[i]], why[0] ? why : "its worker stopped early");
        s->done += o->rounds - round; /* it will not run again */
    }
    free(argv);
    free(specs);
    free(finished);
}

/* ---- statistics as Google Benchmark computes them (median, mean, sample stddev, cv) ---- */
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double stat(const char *kind, const double *v, int n)
{
    double mean = 0, sq = 0;
    for (int i = 0; i < n; i++) mean += v[i] / n;
    for (int i = 0; i < n; i++) sq += (v[i] - mean) * (v[i] - mean);
    double sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
    if (!strcmp(kind, "mean")) return mean;
    if (!strcmp(kind, "stddev")) return sd;
    if (!strcmp(kind, "cv")) return n > 1 && mean != 0 ? sd / mean : 0;
    double *c = malloc((size_t)n * sizeof *c);
    if (!c) return mean;
    memcpy(c, v, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, cmp);
    double med = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return med;
}

/* peak: the GEMM's FLOP/s peak, or an elementwise case's matching bandwidth ceiling (0: none). */
static void write_entries(FILE *out, const sweep *s, int slot, int ci, int family_index,
                          double peak, int *first)
{
    const tg__case *c = &s->cases[ci];
    const result *r = &s->res[slot * s->ncases + ci];
    const char *impl = tg__any_impl_name(s->active[slot]);
    int n = r->n;
    size_t bytes = (size_t)n * sizeof(double);
    double *real_ms = malloc(bytes), *cpu_ms = malloc(bytes), *gflops = malloc(bytes);
    if (!real_ms || !cpu_ms || !gflops) goto out;
    /* GFLOP/s of a GEMM, GB/s of an elementwise case (bytes read + written, as STREAM counts) */
    const int ew = c->op != TG__OP_GEMM;
    double work = ew ? tg__ew_bytes(c) : 2.0 * (double)c->m * (double)c->n * (double)c->k;
    for (int i = 0; i < n; i++) {
        real_ms[i] = r->real_ns[i] * 1e-6;
        cpu_ms[i] = r->cpu_ns[i] * 1e-6;
        gflops[i] = work / r->real_ns[i];
    }
    char name[256];
    line_name(s, slot, c, name, sizeof name);
    static const char *const aggs[] = {"median", "mean", "stddev", "cv"};
    for (int a = 0; a < 4; a++) {
        int cv = a == 3;
        double g = stat(aggs[a], gflops, n);
        fprintf(out, "%s    {\n      \"name\": \"%s_%s\",\n", *first ? "" : ",\n", name, aggs[a]);
        *first = 0;
        fprintf(out, "      \"family_index\": %d,\n      \"per_family_instance_index\": 0,\n",
                family_index);
        fprintf(out, "      \"run_name\": \"%s\",\n      \"run_type\": \"aggregate\",\n", name);
        fprintf(out, "      \"repetitions\": %d,\n      \"aggregate_name\": \"%s\",\n", n, aggs[a]);
        fprintf(out, "      \"aggregate_unit\": \"%s\",\n      \"iterations\": %d,\n",
                cv ? "percentage" : "time", n);
        fprintf(out, "      \"real_time\": %.10g,\n      \"cpu_time\": %.10g,\n",
                stat(aggs[a], real_ms, n), stat(aggs[a], cpu_ms, n));
        fprintf(out, "      \"time_unit\": \"ms\",\n      \"%s\": %.10g,\n",
                ew ? "GBps" : "GFLOPS", g);
        if (peak > 0)
            fprintf(out, "      \"%s\": %.10g,\n", ew ? "ceiling_pct" : "peak_pct",
                    cv ? g : 100 * g / peak);
        fprintf(out, "      \"impl\": \"%s\",\n      \"dtype\": \"%c\",\n", impl, c->dtype);
        if (ew) {
            tg__ew_json_fields(out, c, line_pattern(s, slot, c), peak);
        } else {
            fprintf(out, "      \"m\": %lld,\n      \"n\": %lld,\n      \"k\": %lld,\n",
                    (long long)c->m, (long long)c->n, (long long)c->k);
            fprintf(out, "      \"trans\": \"%c%c\",\n      \"layout\": \"%s\",\n",
                    c->transa == TG_TRANS ? 'T' : 'N', c->transb == TG_TRANS ? 'T' : 'N',
                    c->layout == TG_ROW_MAJOR ? "row" : "col");
        }
        fprintf(out, "      \"threads\": %d,\n      \"family\": \"%s\",\n",
                line_threads(s, slot, c), c->family);
        fprintf(out, "      \"correct\": %s,\n", r->checked && r->ok ? "true" : "false");
        const char *worst = ew ? "max_ulps" : "max_ratio";
        if (isfinite(r->max_ratio)) fprintf(out, "      \"%s\": %.6g,\n", worst, r->max_ratio);
        else fprintf(out, "      \"%s\": null,\n", worst); /* JSON has no infinity */
        fprintf(out, "      \"check\": \"%s\"\n    }", r->method[0] ? r->method : "none");
    }
out:
    free(real_ms);
    free(cpu_ms);
    free(gflops);
}

static void write_json(FILE *out, const sweep *s, int argc, char **argv, char **libs,
                       const char *ceilings)
{
    /* Google Benchmark's context, with "tgemm" added as its last member. */
    char *ctx = NULL, *mach = NULL;
    size_t ctx_len = 0, mach_len = 0;
    FILE *m = open_memstream(&ctx, &ctx_len);
    tg__gbench_context_json(m, s->exe);
    fclose(m);
    m = open_memstream(&mach, &mach_len);
    tg__machine_json(m);
    fclose(m);
    char *close_ctx = strrchr(ctx, '}'), *close_mach = strrchr(mach, '}');
    if (close_ctx) /* cut the closing brace and the white space before it */
        while (close_ctx > ctx && strchr("} \n", *close_ctx)) *close_ctx-- = 0;
    if (close_mach) *close_mach = 0;
    fprintf(out, "{\n  \"context\": %s%s\"tgemm\": %s, \"command\": ", ctx,
            strchr(ctx, ':') ? ",\n    " : "", mach);
    char *cmd = NULL;
    size_t cmd_len = 0;
    m = open_memstream(&cmd, &cmd_len);
    for (int i = 0; i < argc; i++) {
        int quote = strpbrk(argv[i], " \t'\"$*?") != NULL;
        fprintf(m, "%s%s%s%s", i ? " " : "", quote ? "'" : "", argv[i], quote ? "'" : "");
    }
    fclose(m);
    tg__json_str(out, cmd);
    fprintf(out, ",\n      \"ceilings\": ");
    if (ceilings) tg__json_str(out, ceilings);
    else fprintf(out, "null");
    if (s->o->device == TG__DEVICE_CUDA) { /* the GPU, its clocks, driver and CUDA version */
        fprintf(out, ",\n      \"device\": ");
        tg__gpu_device_json(out);
    }
    fprintf(out, ",\n      \"libraries\": {");
    int first = 1;
    for (int id = 0; id < TG__ANY_IMPL_MAX; id++) {
        if (!libs[id]) continue;
        fprintf(out, "%s\n        \"%s\": %s", first ? "" : ",", tg__any_impl_name(id), libs[id]);
        first = 0;
    }
    fprintf(out, "\n      },\n      \"options\": {\"rounds\": %d, \"repetitions\": %d, "
                 "\"min_time\": %g, \"warmup\": %g, \"alpha\": %g, \"beta\": %g, "
                 "\"crossover\": %s},\n",
            s->o->rounds, s->o->reps, s->o->min_time, s->o->warmup, s->o->alpha, s->o->beta,
            s->o->crossover ? "true" : "false");
    fprintf(out, "      \"failures\": %d,\n      \"errors\": [", s->failures);
    for (int i = 0; i < s->nerrors; i++) {
        fprintf(out, "%s\n        ", i ? "," : "");
        tg__json_str(out, s->errors[i] ? s->errors[i] : "(out of memory)");
    }
    fprintf(out, "],\n      \"skipped\": [");
    first = 1;
    for (int slot = 0; slot < s->nactive; slot++) {
        for (int ci = 0; ci < s->ncases; ci++) {
            const result *r = &s->res[slot * s->ncases + ci];
            if (!r->skipped) continue;
            char name[256], line[600];
            line_name(s, slot, &s->cases[ci], name, sizeof name);
            snprintf(line, sizeof line, "%s: %s", name, r->msg);
            fprintf(out, "%s\n        ", first ? "" : ",");
            tg__json_str(out, line);
            first = 0;
        }
    }
    fprintf(out, "]\n    }\n  },\n  \"benchmarks\": [\n");
    first = 1;
    int family = 0;
    for (int slot = 0; slot < s->nactive; slot++) {
        for (int ci = 0; ci < s->ncases; ci++) {
            const result *r = &s->res[slot * s->ncases + ci];
            if (r->skipped || r->n == 0) continue;
            const tg__case *c = &s->cases[ci];
            /* the crossover mode's lines with copies or on the host have no GPU ceiling */
            double peak = !ceilings || line_mode(s, slot) != TG__GPU_ON_DEVICE ? 0
                          : c->op != TG__OP_GEMM ? tg__ew_ceiling(ceilings, c, s->o->device)
                                                 : tg__ceilings_peak(ceilings, c->dtype, c->threads);
            write_entries(out, s, slot, ci, family++, peak, &first);
        }
    }
    fprintf(out, "\n  ]\n}\n");
    free(ctx);
    free(mach);
    free(cmd);
}

static void sweep_free(sweep *s, char **libs)
{
    for (int i = 0; s->res && i < s->nactive * s->ncases; i++) {
        free(s->res[i].real_ns);
        free(s->res[i].cpu_ns);
    }
    for (int i = 0; i < s->nerrors; i++) free(s->errors[i]);
    for (int id = 0; id < TG__ANY_IMPL_MAX; id++) free(libs[id]);
    free(s->errors);
    free(s->res);
    free(s->cases);
}

/* An elementwise sweep (--op): every dtype x thread count x operation x element count. */
static int plan_elementwise(sweep *s)
{
    const tg__options *o = s->o;
    s->cases = calloc((size_t)o->ndtypes * o->nthreads * o->nops * o->nshapes, sizeof *s->cases);
    if (!s->cases) return -1;
    int64_t largest = -1;
    for (int d = 0; d < o->ndtypes; d++)
        for (int t = 0; t < o->nthreads; t++)
            for (int op = 0; op < o->nops; op++)
                for (int sh = 0; sh < o->nshapes; sh++) {
                    tg__case c = {.dtype = o->dtypes[d], .layout = TG_ROW_MAJOR,
                                  .transa = TG_NO_TRANS, .transb = TG_NO_TRANS,
                                  .threads = o->threads[t], .op = o->ops[op][0],
                                  .act = o->ops[op][1]};
                    tg__ew_case_shape(&c, o->shapes[sh].m);
                    s->cases[s->ncases++] = c;
                    if (c.m * c.n > largest) {
                        largest = c.m * c.n;
                        snprintf(s->plant, sizeof s->plant, "%lldx%lldx1", (long long)c.m,
                                 (long long)c.n);
                    }
                }
    return 0;
}

/* Every combination of the options, in the order they are run. */
static int plan(sweep *s)
{
    const tg__options *o = s->o;
    if (o->nops) return plan_elementwise(s);
    long n = (long)o->ndtypes * o->nthreads * o->nlayouts * o->ntrans * o->nshapes;
    s->cases = calloc((size_t)n, sizeof *s->cases);
    if (!s->cases) return -1;
    int64_t largest = -1;
    for (int d = 0; d < o->ndtypes; d++)
        for (int t = 0; t < o->nthreads; t++)
            for (int l = 0; l < o->nlayouts; l++)
                for (int tr = 0; tr < o->ntrans; tr++)
                    for (int sh = 0; sh < o->nshapes; sh++) {
                        const tg__shape *p = &o->shapes[sh];
                        s->cases[s->ncases++] = (tg__case){o->dtypes[d], o->layouts[l],
                                                           o->trans[tr][0], o->trans[tr][1],
                                                           p->m, p->n, p->k, o->threads[t],
                                                           p->family, TG__OP_GEMM, 0};
                        if (p->m * p->n * p->k > largest) {
                            largest = p->m * p->n * p->k;
                            snprintf(s->plant, sizeof s->plant, "%lldx%lldx%lld",
                                     (long long)p->m, (long long)p->n, (long long)p->k);
                        }
                    }
    return 0;
}

/* Runs `tgemm-bench worker --info IMPL` and returns its JSON line (malloc'd), or NULL. */
static char *library_info(const char *exe, int id)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "'%s' worker --info %s", exe, tg__any_impl_name(id));
    FILE *f = popen(cmd, "r");
    if (!f) return NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got = getline(&line, &cap, f);
    int rc = pclose(f);
    if (got <= 1 || rc != 0 || line[0] != '{') {
        free(line);
        return NULL;
    }
    line[strcspn(line, "\n")] = 0;
    return line;
}

int tg__sweep_main(int argc, char **argv)
{
    tg__options o;
    char err[512];
    int rc = tg__options_parse(argc, argv, &o, err, sizeof err);
    if (rc == 1) return 0;
    if (rc < 0) {
        fprintf(stderr, "tgemm-bench: %s\n", err);
        return 2;
    }
    sweep s;
    memset(&s, 0, sizeof s);
    s.o = &o;
    if (plan(&s) != 0) {
        fprintf(stderr, "tgemm-bench: out of memory planning %d shapes\n", o.nshapes);
        return 1;
    }
    if (o.list) {
        for (int i = 0; i < s.ncases; i++) {
            char spec[96];
            tg__case_format(&s.cases[i], spec, sizeof spec);
            printf("%s %s\n", spec, s.cases[i].family);
        }
        free(s.cases);
        tg__options_free(&o);
        return 0;
    }
    ssize_t len = readlink("/proc/self/exe", s.exe, sizeof s.exe - 1);
    if (len <= 0) snprintf(s.exe, sizeof s.exe, "%s", argv[0]);
    else s.exe[len] = 0;

    /* --device cuda: first a GPU that can run the sweep (this is tgemm-bench-cuda: gpu.h). */
    int gpu = o.device == TG__DEVICE_CUDA;
    const char *no_gpu = gpu ? tg__gpu_unavailable() : NULL;
    if (no_gpu) {
        fprintf(stderr, "tgemm-bench: --device cuda: %s\n", no_gpu);
        free(s.cases);
        tg__options_free(&o);
        return 2;
    }
    /* Every known library of the device is described in the JSON, requested or not; absent ones
     * are not errors. */
    char *libs[TG__ANY_IMPL_MAX] = {0};
    int first_id = gpu ? TG__IMPL_COUNT : 0;
    for (int id = first_id; id < (gpu ? TG__IMPL_COUNT + tg__gpu_impl_count() : TG__IMPL_COUNT);
         id++) {
        int wanted = 0;
        for (int i = 0; i < o.nimpls; i++) wanted |= o.impls[i] == id;
        if ((id == TG__IMPL_PLANTED || id == TG__IMPL_STREAM || id == TG__IMPL_STREAM_NT ||
             id == TG__IMPL_PEAK) &&
            !wanted) /* no libraries: only described when asked for */
            continue;
        libs[id] = library_info(s.exe, id);
        if (!wanted) continue;
        if (libs[id] && strncmp(libs[id], "{\"present\": true", 16) == 0)
            s.active[s.nactive++] = id;
        else {
            /* The record ends in "reason": "...": print the text between those quotes. */
            const char *why = libs[id] ? strstr(libs[id], "\"reason\": \"") : NULL;
            const char *text = why ? why + 11 : "its worker did not answer";
            fprintf(stderr, "tgemm-bench: %s is absent, skipped (%.*s)\n", tg__any_impl_name(id),
                    why ? (int)strlen(text) - 2 : (int)strlen(text), text);
        }
        if (gpu && tg__gpu_impl_mode(id - TG__IMPL_COUNT) == TG__GPU_ON_HOST) {
            const char *t = libs[id] ? strstr(libs[id], "\"threads\": ") : NULL;
            s.host_threads = t ? atoi(t + 11) : 0;
        }
    }
    const char *ceilings = o.ceilings;
    char default_ceilings[256];
    snprintf(default_ceilings, sizeof default_ceilings, "results/%s/ceilings.json",
             gpu ? tg__gpu_slug() : tg__machine_slug());
    if (!ceilings && access(default_ceilings, R_OK) == 0) ceilings = default_ceilings;

    s.res = calloc((size_t)(s.nactive ? s.nactive : 1) * (size_t)s.ncases, sizeof *s.res);
    int *idx = calloc((size_t)o.batch, sizeof *idx);
    if (!s.res || !idx) {
        fprintf(stderr, "tgemm-bench: out of memory\n");
        return 1;
    }
    s.tty = isatty(STDERR_FILENO);
    s.start = now();
    s.total = (long)s.ncases * s.nactive * o.rounds;
    for (int b = 0; b < s.ncases; b += o.batch) {
        int size = s.ncases - b < o.batch ? s.ncases - b : o.batch;
        for (int round = 0; round < o.rounds; round++) {
            for (int q = 0; q < s.nactive; q++) {
                int slot = (q + round) % s.nactive, count = 0;
                /* After round 1, cases the implementation skipped or died on are not retried. */
                for (int i = b; i < b + size; i++) {
                    const result *r = &s.res[slot * s.ncases + i];
                    if (round == 0 || (!r->skipped && !r->dead)) idx[count++] = i;
                    else if (r->skipped) s.done++;
                }
                if (count) run_worker(&s, slot, idx, count, round);
            }
        }
    }
    if (s.tty) fprintf(stderr, "\n");

    FILE *out = o.out ? fopen(o.out, "w") : stdout;
    if (!out) {
        fprintf(stderr, "tgemm-bench: cannot write %s: %s\n", o.out, strerror(errno));
        return 1;
    }
    write_json(out, &s, argc, argv, libs, ceilings);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "tgemm-bench: writing %s failed\n", o.out);
        return 1;
    }
    fprintf(stderr, "tgemm-bench: %d cases x %d implementations, %d failure%s%s%s\n", s.ncases,
            s.nactive, s.failures, s.failures == 1 ? "" : "s", o.out ? ", written to " : "",
            o.out ? o.out : "");
    rc = s.failures ? 1 : 0;
    free(idx);
    sweep_free(&s, libs);
    tg__options_free(&o);
    return rc;
}
