/* Parsing and checking the sweep's options: see options.h. Every list option takes comma-separated
 * items; a repeated option replaces the earlier value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "ew_bench.h"
#include "options.h"

void tg__options_help(FILE *out)
{
    fprintf(out,
"usage: tgemm-bench [options]            sweep: check, then time GEMMs, write Google Benchmark JSON\n"
"       tgemm-bench machine [--slug]     print what is measured (CPU, caches, compiler, commit) as JSON\n"
"                                        (--slug: only the short machine name used for results/<slug>/)\n"
"       tgemm-bench ceilings [options]   measure the roofline ceilings (see tgemm-bench ceilings --help)\n"
"\n"
"Sweep options (lists are comma-separated):\n"
"  --device D         cpu or cuda (default: cpu). cuda runs on the GPU build, tgemm-bench-cuda\n"
"                     (make harness-cuda), which build/tgemm-bench hands the command to; GEMMs in\n"
"                     fp32 only (elementwise: s, d, h, b), --threads 1 only (one host thread drives\n"
"                     the GPU), timed with CUDA events over inputs rotated through more memory\n"
"                     than the L2 holds\n"
"                       --device cuda --sizes 256:8192:x2 --impl cuda-09-double_buffer,cublas\n"
"  --crossover        with --device cuda: each case (GEMM, or --op) timed four ways: tgemm-cuda on\n"
"                     data already on the GPU; tgemm-cuda+pinned and tgemm-cuda+pageable, its\n"
"                     inputs copied in from pinned or pageable host memory and its output back on\n"
"                     every call, synchronised, by the host's clock; tgemm-host, the CPU library\n"
"                     on all the host's cores (OpenMP), by the host's clock. The report shows\n"
"                     from which size the GPU wins once the copies are counted\n"
"                       --device cuda --crossover --sizes 64:4096:x2\n"
"                       --device cuda --crossover --op add,axpy --sizes 1e4:1e8:x10\n"
"  --impl LIST        implementations: tgemm, openblas, blis, mkl, libxsmm (default: all of them;\n"
"                     a library that is not installed is reported absent and skipped, not an error);\n"
"                     with --op also stream and stream_nt, the STREAM references (see --op);\n"
"                     and peak, the FMA peak as a reference line: each GEMM case's 2mnk FLOPs\n"
"                     through the ceilings' FMA probe (tgemm's instruction set, the case's\n"
"                     threads), timed in the same rounds, so that the report gives tgemm's\n"
"                     percent of a peak measured beside it (a VM's clock moves by 5-10%%)\n"
"                       --impl tgemm,openblas\n"
"                       --impl tgemm,openblas,peak --sizes 2048,4000 --threads 1\n"
"                     with --device cuda: cuda-NN-<step> (each step of the SGEMM ladder, e.g.\n"
"                     cuda-01-naive), tgemm-cuda (tg_cuda_sgemm), cublas (cublasGemmEx, FP32\n"
"                     compute, no TF32), cublas-tf32 (TF32 tensor cores: a reference line,\n"
"                     checked to TF32's precision) (default: all of them); with --op: tgemm-cuda\n"
"                     (tg_cuda_add, ...; the default); with --crossover: tgemm-cuda+pinned,\n"
"                     tgemm-cuda+pageable and tgemm-host too (default: those and tgemm-cuda)\n"
"  --dtype LIST       s (fp32) and/or d (fp64) (default: s,d)          --dtype s\n"
"                     with --device cuda --op also h (fp16) and b (bf16), computed in fp32\n"
"  --sizes LIST       shapes m x n x k (default: square). Items:\n"
"                       N            one N x N x N square             --sizes 512,1000\n"
"                       lo:hi:step   squares lo, lo+step, ... <= hi   --sizes 64:4096:64\n"
"                       lo:hi:xF     squares lo, lo*F, ... <= hi      --sizes 64:4096:x2\n"
"                       MxNxK        one explicit shape               --sizes 1000x200x3000\n"
"                       a family name:\n");
    tg__families_help(out);
    fprintf(out,
"  --op LIST          elementwise operations instead of GEMMs (default: none, a GEMM sweep):\n");
    tg__ew_ops_help(out);
    fprintf(out,
"                     --sizes then lists element counts: N as digits, AeB or 2^K, lo:hi:step,\n"
"                     lo:hi:xF (default: 1e3:1e8:x10); --impl: tgemm, and openblas, blis or mkl\n"
"                     for axpy and scale (their CBLAS ?axpy, ?scal), and the references stream\n"
"                     and stream_nt: the ceilings' STREAM kernel of the case's pattern (copy,\n"
"                     add, in-place scale, in-place axpy) over the case's own arrays, split over\n"
"                     its threads as STREAM splits it (OpenMP, contiguous static parts), with\n"
"                     plain or non-temporal stores (stream_nt: out-of-place patterns only)\n"
"                     (default: tgemm,openblas); no --trans, --layout, --alpha, --beta. Each\n"
"                     case is checked (exact operations exactly, activations within 16 ulps,\n"
"                     the references against their own loop; sampled above 2^22 elements),\n"
"                     then timed in GB/s (bytes read + written, as STREAM counts). The JSON's\n"
"                     ceiling_pct is against the ceilings' STREAM probe of the same pattern (on\n"
"                     the GPU: the device-to-device copy of tgemm-bench ceilings --device cuda);\n"
"                     the report sets each case against the better of stream and stream_nt\n"
"                     timed on the same case in the same sweep when it has\n"
"                     them. The CPU verdict, every operation against STREAM side by side:\n"
"                       --op add,sub,mul,scale,axpy,activate:relu,bias_act:relu --dtype s,d\n"
"                         --sizes 2^27 --threads 2 --impl tgemm,openblas,stream,stream_nt\n"
"                         --rounds 7\n"
"                     others:\n"
"                       --op add,axpy,activate:gelu_tanh,bias_act:relu --sizes 1e3:1e9:x10\n"
"                       --op scale --impl tgemm,openblas --dtype d --sizes 2^27 --threads 2\n"
"  --trans LIST       NN, NT, TN, TT: op(A) and op(B) (default: NN)    --trans NN,TT\n"
"  --layout LIST      row and/or col (default: row)                    --layout row,col\n"
"  --threads LIST     thread counts >= 1, or 'all' for every CPU this process may use\n"
"                     (default: 1,all)                                 --threads 1,2\n"
"  --rounds R         rounds of workers; each round runs every implementation once per batch,\n"
"                     in a rotated order, so they alternate in time (default: 3)   --rounds 5\n"
"  --repetitions N    timed repetitions per case per round; the median and spread are taken over\n"
"                     all R*N of them (default: 1)                     --repetitions 2\n"
"  --min-time S       seconds each repetition runs at least (default: 0.05)    --min-time 0.2\n"
"  --warmup S         seconds of untimed calls before the repetitions (default: 0.01)\n"
"                                                                      --warmup 0.1\n"
"  --alpha A, --beta B  the GEMM's scalars (default: 1 and 0)          --beta 1\n"
"  --batch N          cases per worker process (default: 8)            --batch 4\n"
"  --out FILE         write the JSON there (default: standard output)  --out results/x/sweep.json\n"
"  --ceilings FILE    peaks for peak_pct (default: results/<slug>/ceilings.json if it exists)\n"
"                                           --ceilings results/amd-epyc-zen3-2c/ceilings.json\n"
"  --list             print the planned cases and exit, without running anything\n"
"                                                     --sizes linear --dtype s --list\n"
"  --help             this text\n"
"\n"
"Every implementation is checked on every case before it is timed (ratio test against the fp64\n"
"reference, or a randomized check with exact sampled rows and columns for large cases); a failure\n"
"is printed, recorded in the JSON and makes the exit status 1. Bad options: exit status 2.\n"
"For example (a few minutes on a 2-core machine; each added family or dtype costs about as much\n"
"again, and the first round, which also checks, is the slowest):\n"
"  tgemm-bench --impl tgemm,openblas,blis --dtype s,d --sizes square --threads 1,2 \\\n"
"              --rounds 3 --min-time 0.1 --out results/$(tgemm-bench machine --slug)/sweep.json\n");
}

static int error(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Calls item() on each comma-separated item of list (an empty item is an error). */
static int each_item(const char *opt, const char *list, char *err, size_t len,
                     int (*item)(const char *, void *, char *, size_t), void *ctx)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) return error(err, len, "out of memory");
    int rc = 0;
    if (!*list || list[strlen(list) - 1] == ',' || list[0] == ',' || strstr(list, ",,"))
        rc = error(err, len, "%s: empty item in '%s'", opt, list);
    for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
        rc = item(t, ctx, err, len);
    free(copy);
    return rc;
}

static int impl_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    int id = o->device == TG__DEVICE_CUDA ? tg__gpu_impl_parse(s) : tg__impl_parse(s);
    if (id >= 0 && o->device == TG__DEVICE_CUDA) {
        if (tg__gpu_impl_mode(id) != TG__GPU_ON_DEVICE && !o->crossover)
            return error(err, len, "implementation '%s' runs in the crossover mode only (add "
                                   "--crossover)", s);
        id += TG__IMPL_COUNT;
    }
    if (id < 0 && o->device == TG__DEVICE_CUDA) {
        /* the names from the GPU build itself, so this list cannot fall behind it */
        char names[1024] = "";
        for (int g = 0, used = 0; g < tg__gpu_impl_count() && used < (int)sizeof names; g++)
            used += snprintf(names + used, sizeof names - (size_t)used, "%s%s%s", g ? ", " : "",
                             tg__gpu_impl_name(g),
                             tg__gpu_impl_mode(g) != TG__GPU_ON_DEVICE ? " (--crossover)" : "");
        return error(err, len, "unknown implementation '%s' for --device cuda (choose from %s)", s,
                     names);
    }
    if (id < 0)
        return error(err, len, "unknown implementation '%s' (choose from tgemm, openblas, blis, "
                               "mkl, libxsmm, peak; with --op also stream, stream_nt%s)", s,
                     !strncmp(s, "cu", 2) || strstr(s, "-cuda") ? "; GPU ones need --device cuda"
                                                                : "");
    for (int i = 0; i < o->nimpls; i++)
        if (o->impls[i] == id) return 0;
    o->impls[o->nimpls++] = id;
    return 0;
}

static int dtype_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    if (strlen(s) != 1 || !strchr("sdhb", s[0]))
        return error(err, len, "unknown dtype '%s' (choose from s, d; h, b on the GPU)", s);
    if (strchr("hb", s[0]) && (o->device != TG__DEVICE_CUDA || !o->nops))
        return error(err, len, "--dtype %s: fp16 and bf16 are for the GPU's elementwise kernels "
                               "only (--device cuda --op)", s);
    for (int i = 0; i < o->ndtypes; i++)
        if (o->dtypes[i] == s[0]) return 0;
    o->dtypes[o->ndtypes++] = s[0];
    return 0;
}

static int size_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    if (o->nops) return tg__ew_sizes_expand(s, &o->shapes, &o->nshapes, err, len);
    return tg__sizes_expand(s, &o->shapes, &o->nshapes, err, len);
}

static int op_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    int op, act;
    if (tg__ew_op_parse(s, &op, &act, err, len)) return -1;
    for (int i = 0; i < o->nops; i++)
        if (o->ops[i][0] == op && o->ops[i][1] == act) return 0;
    if (o->nops == (int)(sizeof o->ops / sizeof o->ops[0]))
        return error(err, len, "--op: more than %d operations", o->nops);
    o->ops[o->nops][0] = op;
    o->ops[o->nops++][1] = act;
    return 0;
}

static int trans_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    if (strlen(s) != 2 || (s[0] != 'N' && s[0] != 'T') || (s[1] != 'N' && s[1] != 'T'))
        return error(err, len, "unknown transpose pair '%s' (choose from NN, NT, TN, TT)", s);
    int ta = s[0] == 'T' ? TG_TRANS : TG_NO_TRANS, tb = s[1] == 'T' ? TG_TRANS : TG_NO_TRANS;
    for (int i = 0; i < o->ntrans; i++)
        if (o->trans[i][0] == ta && o->trans[i][1] == tb) return 0;
    o->trans[o->ntrans][0] = ta;
    o->trans[o->ntrans++][1] = tb;
    return 0;
}

static int layout_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    if (strcmp(s, "row") && strcmp(s, "col"))
        return error(err, len, "unknown layout '%s' (choose from row, col)", s);
    int l = s[0] == 'r' ? TG_ROW_MAJOR : TG_COL_MAJOR;
    if (o->nlayouts == 0 || o->layouts[0] != l) o->layouts[o->nlayouts++] = l;
    return 0;
}

static int available_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int threads_item(const char *s, void *ctx, char *err, size_t len)
{
    tg__options *o = ctx;
    long v;
    if (!strcmp(s, "all")) {
        v = available_cpus();
    } else {
        char *end;
        errno = 0;
        v = strtol(s, &end, 10);
        if (*end || end == s || errno || v < 1 || v > 4096)
            return error(err, len, "--threads: '%s' is not a thread count (expected integers "
                                   "1..4096 or 'all')", s);
    }
    for (int i = 0; i < o->nthreads; i++)
        if (o->threads[i] == v) return 0;
    int *t = realloc(o->threads, (size_t)(o->nthreads + 1) * sizeof *t);
    if (!t) return error(err, len, "out of memory");
    o->threads = t;
    o->threads[o->nthreads++] = (int)v;
    return 0;
}

static int number(const char *opt, const char *s, double lo, int integer, double *out, char *err,
                  size_t len)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || end == s || errno || v != v || v < lo || (integer && v != (double)(long)v))
        return error(err, len, "%s: '%s' is not %s >= %g", opt, s,
                     integer ? "an integer" : "a number", lo);
    *out = v;
    return 0;
}

/* An --out path we can write: the file itself if it exists, else its folder. Checked up front so
 * that a long sweep never ends unable to save its result. */
static int writable(const char *path, char *err, size_t len)
{
    if (access(path, F_OK) == 0) {
        if (access(path, W_OK) != 0) return error(err, len, "--out: cannot write '%s'", path);
        return 0;
    }
    char *copy = strdup(path);
    if (!copy) return error(err, len, "out of memory");
    const char *dir = dirname(copy);
    int ok = access(dir, W_OK | X_OK) == 0;
    free(copy);
    return ok ? 0 : error(err, len, "--out: cannot create '%s' (its folder is missing or not "
                                    "writable)", path);
}

int tg__options_parse(int argc, char **argv, tg__options *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->rounds = 3;
    o->reps = 1;
    o->batch = 8;
    o->min_time = 0.05;
    o->warmup = 0.01;
    o->alpha = 1;
    o->beta = 0;
    const char *impl = NULL, *dtype = NULL, *sizes = NULL, *trans = NULL, *layout = NULL,
               *threads = NULL, *ops = NULL, *gemm_only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            tg__options_help(stdout);
            return 1;
        }
        if (!strcmp(a, "--list")) {
            o->list = 1;
            continue;
        }
        if (!strcmp(a, "--crossover")) {
            o->crossover = 1;
            continue;
        }
        /* Every other option takes a value: --opt VALUE or --opt=VALUE. */
        const char *eq = strchr(a, '='), *v;
        char name[32];
        if (strncmp(a, "--", 2) != 0)
            return error(err, errlen, "unexpected argument '%s' (see --help)", a);
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            v = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
            if (i + 1 >= argc) return error(err, errlen, "%s needs a value (see --help)", a);
            v = argv[++i];
        }
        double x;
        if (!strcmp(name, "--impl")) impl = v;
        else if (!strcmp(name, "--dtype")) dtype = v;
        else if (!strcmp(name, "--sizes")) sizes = v;
        else if (!strcmp(name, "--trans")) trans = v;
        else if (!strcmp(name, "--layout")) layout = v;
        else if (!strcmp(name, "--threads")) threads = v;
        else if (!strcmp(name, "--out")) o->out = v;
        else if (!strcmp(name, "--ceilings")) o->ceilings = v;
        else if (!strcmp(name, "--op")) ops = v;
        else if (!strcmp(name, "--device")) {
            if (strcmp(v, "cpu") && strcmp(v, "cuda"))
                return error(err, errlen, "unknown device '%s' (choose from cpu, cuda)", v);
            o->device = !strcmp(v, "cuda") ? TG__DEVICE_CUDA : TG__DEVICE_CPU;
        }
        else if (!strcmp(name, "--rounds")) {
            if (number(name, v, 1, 1, &x, err, errlen)) return -1;
            o->rounds = (int)x;
        } else if (!strcmp(name, "--repetitions")) {
            if (number(name, v, 1, 1, &x, err, errlen)) return -1;
            o->reps = (int)x;
        } else if (!strcmp(name, "--batch")) {
            if (number(name, v, 1, 1, &x, err, errlen)) return -1;
            o->batch = (int)x;
        } else if (!strcmp(name, "--min-time")) {
            if (number(name, v, 1e-6, 0, &o->min_time, err, errlen)) return -1;
        } else if (!strcmp(name, "--warmup")) {
            if (number(name, v, 0, 0, &o->warmup, err, errlen)) return -1;
        } else if (!strcmp(name, "--alpha")) {
            if (number(name, v, -1e300, 0, &o->alpha, err, errlen)) return -1;
            gemm_only = "--alpha";
        } else if (!strcmp(name, "--beta")) {
            if (number(name, v, -1e300, 0, &o->beta, err, errlen)) return -1;
            gemm_only = "--beta";
        } else
            return error(err, errlen, "unknown option '%s' (see --help)", name);
    }
    /* An elementwise sweep: its sizes are element counts; the GEMM's own options do not apply. */
    int gpu = o->device == TG__DEVICE_CUDA;
    if (o->crossover && !gpu)
        return error(err, errlen, "--crossover compares the GPU with this CPU: it needs --device "
                                  "cuda");
    if (o->crossover && !impl) impl = "tgemm-cuda,tgemm-cuda+pinned,tgemm-cuda+pageable,tgemm-host";
    if (ops) {
        if (each_item("--op", ops, err, errlen, op_item, o)) return -1;
        if (trans || layout || gemm_only)
            return error(err, errlen, "%s describes GEMMs; an elementwise sweep (--op) takes no "
                                      "--trans, --layout, --alpha or --beta",
                         trans ? "--trans" : layout ? "--layout" : gemm_only);
        if (!impl) impl = gpu ? "tgemm-cuda" : "tgemm,openblas";
        if (!sizes) sizes = "1e3:1e8:x10";
    }
    if (gpu && !impl) /* every GPU implementation this build has, the crossover's aside */
        for (int g = 0; g < tg__gpu_impl_count(); g++)
            if (tg__gpu_impl_mode(g) == TG__GPU_ON_DEVICE) o->impls[o->nimpls++] = TG__IMPL_COUNT + g;
    if ((impl || !gpu) && each_item("--impl", impl ? impl : "tgemm,openblas,blis,mkl,libxsmm",
                                    err, errlen, impl_item, o))
        return -1;
    if (each_item("--dtype", dtype ? dtype : gpu ? "s" : "s,d", err, errlen, dtype_item, o) ||
        each_item("--sizes", sizes ? sizes : "square", err, errlen, size_item, o) ||
        each_item("--trans", trans ? trans : "NN", err, errlen, trans_item, o) ||
        each_item("--layout", layout ? layout : "row", err, errlen, layout_item, o) ||
        each_item("--threads", threads ? threads : gpu ? "1" : "1,all", err, errlen, threads_item,
                  o))
        return -1;
    /* The GPU's GEMMs are SGEMM only (its elementwise kernels take s, d, h and b), and one host
     * thread launches everything. */
    if (gpu && !o->nops && (o->ndtypes != 1 || o->dtypes[0] != 's'))
        return error(err, errlen, "--dtype: --device cuda runs GEMMs in fp32 only (s)");
    if (gpu && (o->nthreads != 1 || o->threads[0] != 1))
        return error(err, errlen, "--threads: --device cuda takes 1 only (one host thread drives "
                                  "the GPU)");
    if (o->out && writable(o->out, err, errlen)) return -1;
    if (o->ceilings && access(o->ceilings, R_OK) != 0)
        return error(err, errlen, "--ceilings: cannot read '%s'", o->ceilings);
    return 0;
}

void tg__options_free(tg__options *o)
{
    free(o->shapes);
    free(o->threads);
    o->shapes = NULL;
    o->threads = NULL;
}

int tg__device_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device=cuda") ||
            (!strcmp(argv[i], "--device") && i + 1 < argc && !strcmp(argv[i + 1], "cuda")))
            return TG__DEVICE_CUDA;
    }
    return TG__DEVICE_CPU;
}
