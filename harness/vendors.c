/* Implementations for the workers: tgemm (linked), OpenBLAS, BLIS, MKL, libxsmm (dlopen'd), the
 * STREAM references of the elementwise cases (linked: no GEMM), the FMA peak of the GEMM cases
 * (linked: no product), and the test-only "planted" one. See vendors.h.
 *
 * OpenBLAS, BLIS and MKL all export the CBLAS interface with 32-bit integers (the LP64 builds that
 * Debian and PyPI ship), so one pair of wrappers calls whichever of them this worker loaded. Each
 * library's own call sets its thread count. The file actually loaded is recorded, resolved through
 * symlinks: Debian's alternatives can point a generic name at the slow reference BLAS.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "ceilings.h"
#include "vendors.h"

static const char *const impl_names[TG__IMPL_COUNT] = {"tgemm", "openblas", "blis", "mkl",
                                                       "libxsmm", "stream", "stream_nt",
                                                       "peak", "planted"};

const char *tg__impl_name(tg__impl_id id) { return impl_names[id]; }

int tg__impl_parse(const char *name)
{
    for (int i = 0; i < TG__IMPL_COUNT; i++) {
        if (strcmp(name, impl_names[i]) != 0) continue;
        if (i == TG__IMPL_PLANTED) {
            const char *e = getenv("TGEMM_BENCH_PLANTED");
            if (!e || (strcmp(e, "1") != 0 && strcmp(e, "crash") != 0)) return -1;
        }
        return i;
    }
    return -1;
}

/* ---- the one loaded library ---- */
static void *lib;              /* dlopen handle of the vendor library (NULL for tgemm) */
static char lib_path[PATH_MAX]; /* the file it resolved to */

typedef void (*cblas_s_t)(int, int, int, int, int, int, float, const float *, int, const float *,
                          int, float, float *, int);
typedef void (*cblas_d_t)(int, int, int, int, int, int, double, const double *, int,
                          const double *, int, double, double *, int);
static cblas_s_t cblas_s;
static cblas_d_t cblas_d;
static void (*set_threads_int)(int);         /* openblas_set_num_threads, MKL_Set_Num_Threads */
static void (*set_threads_dim)(int64_t);     /* bli_thread_set_num_threads (dim_t) */

static int fits_int(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc)
{
    return m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && lda <= INT_MAX && ldb <= INT_MAX &&
           ldc <= INT_MAX;
}

static int cblas_sgemm_w(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                         const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                         float *c, int64_t ldc)
{
    if (!fits_int(m, n, k, lda, ldb, ldc)) return TG_ERR_UNSUPPORTED;
    cblas_s(layout, ta, tb, (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c,
            (int)ldc);
    return 0;
}

static int cblas_dgemm_w(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k,
                         double alpha, const double *a, int64_t lda, const double *b, int64_t ldb,
                         double beta, double *c, int64_t ldc)
{
    if (!fits_int(m, n, k, lda, ldb, ldc)) return TG_ERR_UNSUPPORTED;
    cblas_d(layout, ta, tb, (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c,
            (int)ldc);
    return 0;
}

static void vendor_set_threads(int n)
{
    if (set_threads_int) set_threads_int(n);
    if (set_threads_dim) set_threads_dim(n);
}

static const char *runs_everything(const tg__case *c)
{
    (void)c;
    return NULL;
}

/* ---- tgemm and the planted copy ---- */
static int tgemm_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                       const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                       float *c, int64_t ldc)
{
    return tg_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, a, lda, b, ldb,
                    beta, c, ldc);
}

static int tgemm_dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                       const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                       double *c, int64_t ldc)
{
    return tg_dgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, a, lda, b, ldb,
                    beta, c, ldc);
}

static int64_t plant_m = -1, plant_n = -1, plant_k = -1;

void tg__planted_target(int64_t m, int64_t n, int64_t k)
{
    plant_m = m;
    plant_n = n;
    plant_k = k;
}

/* Index of C(m-1, n-1) in either layout when this call is the planted shape, else -1. With
 * TGEMM_BENCH_PLANTED=crash the planted shape kills the process instead, as a crashing library
 * would, so that tests see the sweep survive a dead worker. */
static int64_t planted_index(int layout, int64_t m, int64_t n, int64_t k, int64_t ldc)
{
    if (m != plant_m || n != plant_n || k != plant_k || m == 0 || n == 0) return -1;
    const char *mode = getenv("TGEMM_BENCH_PLANTED");
    if (mode && !strcmp(mode, "crash")) abort();
    return layout == TG_ROW_MAJOR ? (m - 1) * ldc + (n - 1) : (m - 1) + (n - 1) * ldc;
}

/* A relative error of 2^-10 in one element: in fp32 far too small for the randomized check's
 * matrix-vector product to notice at large sizes, so the exact checks of the last rows and columns
 * must catch it. */
static int planted_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                         const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                         float *c, int64_t ldc)
{
    int st = tgemm_sgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    int64_t i = planted_index(layout, m, n, k, ldc);
    if (st == 0 && i >= 0) c[i] += c[i] * (1.0f / 1024);
    return st;
}

static int planted_dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k,
                         double alpha, const double *a, int64_t lda, const double *b, int64_t ldb,
                         double beta, double *c, int64_t ldc)
{
    int st = tgemm_dgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    int64_t i = planted_index(layout, m, n, k, ldc);
    if (st == 0 && i >= 0) c[i] += c[i] * (1.0 / 1024);
    return st;
}

/* ---- libxsmm through build/harness/libtg_xsmm.so (harness/xsmm_adapter.c) ---- */
static const char *xsmm_unsupported(const tg__case *c)
{
    /* libxsmm's per-call kernels are single-threaded and meant for small matrices; the adapter also
     * refuses shapes its JIT cannot serve (it returns TG_ERR_UNSUPPORTED). */
    if (c->threads != 1) return "libxsmm's per-call GEMM is single-threaded";
    return NULL;
}

/* ---- the STREAM references (their kernel runs in ew_check.c) ---- */
static const char *stream_unsupported(const tg__case *c)
{
    (void)c; /* an elementwise case never asks: it goes to tg__ew_unsupported */
    return "the STREAM references run elementwise cases (--op) only, not GEMMs";
}

/* ---- the FMA peak: a GEMM case's FLOPs through the ceilings' FMA probe ----
 * tgemm's percent of the peak is only as good as the peak beside it: this VM's clock moved from 4.49
 * GHz when the ceilings were measured to 4.2-4.4 GHz an hour later, and a ratio to the earlier peak
 * read 85-87% where the same-process ratio was 89-93%. Timed as an implementation, alternating with
 * the others round by round, the probe gives each case a peak measured under the same conditions:
 * 2mnk FLOPs of independent FMA chains in the instruction set tgemm's kernels run (tg_cpu_arch),
 * split over the case's threads (an OpenMP team, as tgemm's). It computes no product; the operands
 * are allocated and left alone. */
static int peak_threads = 1;
static tg__isa peak_isa;
static double peak_round[2]; /* FLOPs of one round of the probe's chains: fp32, fp64 */
static void peak_set_threads(int n) { peak_threads = n > 0 ? n : 1; }

/* The probe of tgemm's kernel family and its FLOPs a round, once at load; -1 where the CPU has no
 * FMA (no probe then, not even the scalar one, whose FMA instructions it would fault on). */
static int peak_pick_isa(void)
{
    const char *arch = tg_cpu_arch();
    peak_isa = !strcmp(arch, "avx512") ? TG__ISA_AVX512
               : !strcmp(arch, "avx2") ? TG__ISA_AVX2 : TG__ISA_SCALAR;
    if (!tg__isa_present(peak_isa)) return -1;
    peak_round[0] = tg__probe_fma(peak_isa, 's', 1);
    peak_round[1] = tg__probe_fma(peak_isa, 'd', 1);
    return 0;
}

static int peak_run(char dtype, int64_t m, int64_t n, int64_t k)
{
    const int team = peak_threads;
    const long rounds =
        (long)(2.0 * (double)m * (double)n * (double)k / peak_round[dtype == 'd'] / team) + 1;
#pragma omp parallel num_threads(team)
    tg__probe_fma(peak_isa, dtype, rounds);
    return 0;
}

static int peak_sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                      const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                      float *c, int64_t ldc)
{
    (void)layout, (void)ta, (void)tb, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta, (void)c, (void)ldc;
    return peak_run('s', m, n, k);
}

static int peak_dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                      double *c, int64_t ldc)
{
    (void)layout, (void)ta, (void)tb, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta, (void)c, (void)ldc;
    return peak_run('d', m, n, k);
}

/* ---- finding and opening the libraries ---- */
static int open_lib(const char *name)
{
    lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    struct link_map *lm = NULL;
    if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !realpath(lm->l_name, lib_path))
        snprintf(lib_path, sizeof lib_path, "%s", name);
    return 0;
}

/* Opens the first file matching dir/pattern in any of the colon-separated dirs. */
static int open_in_dirs(const char *dirs, const char *pattern)
{
    char buf[PATH_MAX];
    const char *p = dirs;
    while (p && *p) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 0 && len < sizeof buf - 64) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, pattern);
            glob_t g;
            if (glob(buf, 0, NULL, &g) == 0) {
                for (size_t i = 0; i < g.gl_pathc; i++) {
                    if (open_lib(g.gl_pathv[i]) == 0) {
                        globfree(&g);
                        return 0;
                    }
                }
            }
            globfree(&g);
        }
        p = e ? e + 1 : NULL;
    }
    return -1;
}

/* The lib folders of the Python installations a `pip install mkl` may have written into. */
static void python_lib_dirs(char *dirs, size_t len)
{
    const char *home = getenv("HOME"), *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX");
    size_t used = (size_t)snprintf(dirs, len, "%s/lib:%s/lib:%s/.local/lib:/usr/local/lib:/usr/lib",
                                   venv ? venv : "/nonexistent", conda ? conda : "/nonexistent",
                                   home ? home : "/nonexistent");
    /* Ask the interpreters for their prefixes (pyenv, a venv's python on the PATH, Debian's). */
    const char *cmd = "for p in python3 /usr/bin/python3; do "
                      "$p -c 'import sys; print(sys.prefix)' 2>/dev/null; done";
    FILE *f = popen(cmd, "r");
    char line[PATH_MAX];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (used + strlen(line) + 6 < len)
            used += (size_t)snprintf(dirs + used, len - used, ":%s/lib", line);
    }
    if (f) pclose(f);
    if (home && used < len) snprintf(dirs + used, len - used, ":%s/.pyenv/versions/*/lib", home);
}

/* The folder of this executable (build/), where build/harness/libtg_xsmm.so sits below. */
static void exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = 0;
    char *slash = strrchr(buf, '/');
    if (slash) *slash = 0;
    else snprintf(buf, len, ".");
}

static void *sym(const char *name) { return lib ? dlsym(lib, name) : NULL; }

void *tg__impl_sym(const char *name) { return sym(name); }

/* Opens the library of a vendor (env TGEMM_<VENDOR> may name the file). 0, or -1 with why. */
static int open_vendor(tg__impl_id id, char *why, size_t len)
{
    static const char *const env[TG__IMPL_COUNT] = {
        [TG__IMPL_OPENBLAS] = "TGEMM_OPENBLAS", [TG__IMPL_BLIS] = "TGEMM_BLIS",
        [TG__IMPL_MKL] = "TGEMM_MKL", [TG__IMPL_LIBXSMM] = "TGEMM_XSMM"};
    const char *forced = env[id] ? getenv(env[id]) : NULL;
    if (forced && *forced) {
        if (open_lib(forced) == 0) return 0;
        snprintf(why, len, "%s=%s cannot be opened: %s", env[id], forced, dlerror());
        return -1;
    }
    char dirs[8192];
    switch (id) {
    case TG__IMPL_OPENBLAS:
        if (open_lib("libopenblas.so.0") == 0) return 0;
        snprintf(why, len, "libopenblas.so.0 not found (apt-get install libopenblas0)");
        return -1;
    case TG__IMPL_BLIS:
        if (open_lib("libblis.so.4") == 0) return 0;
        snprintf(why, len, "libblis.so.4 not found (apt-get install libblis4)");
        return -1;
    case TG__IMPL_MKL: {
        if (open_lib("libmkl_rt.so.2") == 0 || open_lib("libmkl_rt.so") == 0) return 0;
        const char *ld = getenv("LD_LIBRARY_PATH");
        if (ld && open_in_dirs(ld, "libmkl_rt.so*") == 0) return 0;
        python_lib_dirs(dirs, sizeof dirs);
        if (open_in_dirs(dirs, "libmkl_rt.so*") == 0) return 0;
        snprintf(why, len, "libmkl_rt.so not found in LD_LIBRARY_PATH or the Python lib folders "
                           "(pip install mkl)");
        return -1;
    }
    case TG__IMPL_LIBXSMM: {
        char dir[PATH_MAX], path[PATH_MAX + 32];
        exe_dir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/harness/libtg_xsmm.so", dir);
        if (open_lib(path) == 0) return 0;
        snprintf(why, len, "%s not built (it needs Debian's libxsmm-dev when building)", path);
        return -1;
    }
    default:
        snprintf(why, len, "not a vendor library");
        return -1;
    }
}

int tg__impl_load(tg__impl_id id, tg__impl_ops *ops, char *why, size_t len)
{
    ops->set_threads = vendor_set_threads;
    ops->unsupported = runs_everything;
    if (id == TG__IMPL_TGEMM || id == TG__IMPL_PLANTED) {
        ops->sgemm = id == TG__IMPL_TGEMM ? tgemm_sgemm : planted_sgemm;
        ops->dgemm = id == TG__IMPL_TGEMM ? tgemm_dgemm : planted_dgemm;
        ops->set_threads = tg_set_num_threads;
        return 0;
    }
    if (id == TG__IMPL_PEAK) {
        if (peak_pick_isa() != 0) {
            snprintf(why, len, "this CPU has no FMA instructions: no FMA peak to time");
            return -1;
        }
        ops->sgemm = peak_sgemm;
        ops->dgemm = peak_dgemm;
        ops->set_threads = peak_set_threads;
        return 0;
    }
    if (id == TG__IMPL_STREAM || id == TG__IMPL_STREAM_NT) {
        ops->sgemm = NULL; /* never called: every GEMM case is unsupported */
        ops->dgemm = NULL;
        ops->unsupported = stream_unsupported;
        return 0;
    }
    if (open_vendor(id, why, len) != 0) return -1;
    if (id == TG__IMPL_LIBXSMM) {
        ops->sgemm = (tg__sgemm_fn)sym("tg_xsmm_sgemm");
        ops->dgemm = (tg__dgemm_fn)sym("tg_xsmm_dgemm");
        ops->unsupported = xsmm_unsupported;
    } else {
        cblas_s = (cblas_s_t)sym("cblas_sgemm");
        cblas_d = (cblas_d_t)sym("cblas_dgemm");
        ops->sgemm = cblas_s ? cblas_sgemm_w : NULL;
        ops->dgemm = cblas_d ? cblas_dgemm_w : NULL;
        if (id == TG__IMPL_OPENBLAS)
            set_threads_int = (void (*)(int))sym("openblas_set_num_threads");
        if (id == TG__IMPL_MKL) set_threads_int = (void (*)(int))sym("MKL_Set_Num_Threads");
        if (id == TG__IMPL_BLIS)
            set_threads_dim = (void (*)(int64_t))sym("bli_thread_set_num_threads");
    }
    if (!ops->sgemm || !ops->dgemm) {
        snprintf(why, len, "%s lacks the GEMM entry points", lib_path);
        return -1;
    }
    return 0;
}

/* ---- what was loaded, as JSON ---- */
static void kv_str(FILE *out, const char *key, const char *val)
{
    fprintf(out, ", \"%s\": ", key);
    tg__json_str(out, val ? val : "unknown");
}

static void openblas_info(FILE *out)
{
    const char *(*config)(void) = (const char *(*)(void))sym("openblas_get_config");
    const char *(*core)(void) = (const char *(*)(void))sym("openblas_get_corename");
    int (*threads)(void) = (int (*)(void))sym("openblas_get_num_threads");
    int (*parallel)(void) = (int (*)(void))sym("openblas_get_parallel");
    const char *cfg = config ? config() : NULL;
    /* The config string starts with "OpenBLAS 0.3.21 ..."; its second word is the version. */
    char version[64] = "unknown";
    if (cfg && sscanf(cfg, "OpenBLAS %63s", version) != 1)
        snprintf(version, sizeof version, "unknown");
    static const char *const par[] = {"sequential", "pthreads", "openmp"};
    int pm = parallel ? parallel() : -1;
    kv_str(out, "version", version);
    kv_str(out, "config", cfg);
    kv_str(out, "core", core ? core() : NULL);
    kv_str(out, "parallel", pm >= 0 && pm <= 2 ? par[pm] : NULL);
    fprintf(out, ", \"threads\": %d", threads ? threads() : -1);
}

static void blis_info(FILE *out)
{
    const char *(*version)(void) = (const char *(*)(void))sym("bli_info_get_version_str");
    int (*arch_id)(void) = (int (*)(void))sym("bli_arch_query_id");
    const char *(*arch_str)(int) = (const char *(*)(int))sym("bli_arch_string");
    int64_t (*threads)(void) = (int64_t (*)(void))sym("bli_thread_get_num_threads");
    int64_t (*omp)(void) = (int64_t (*)(void))sym("bli_info_get_enable_openmp");
    int64_t (*pth)(void) = (int64_t (*)(void))sym("bli_info_get_enable_pthreads");
    kv_str(out, "version", version ? version() : NULL);
    kv_str(out, "config", arch_id && arch_str ? arch_str(arch_id()) : NULL);
    kv_str(out, "parallel", omp && omp() ? "openmp" : pth && pth() ? "pthreads" : "sequential");
    /* -1: not set, BLIS then follows BLIS_NUM_THREADS / OMP_NUM_THREADS (the harness sets it). */
    fprintf(out, ", \"threads\": %lld", threads ? (long long)threads() : -1LL);
}

static void mkl_info(FILE *out)
{
    void (*version)(char *, int) = (void (*)(char *, int))sym("MKL_Get_Version_String");
    int (*threads)(void) = (int (*)(void))sym("MKL_Get_Max_Threads");
    char buf[256] = "unknown";
    if (version) version(buf, (int)sizeof buf);
    kv_str(out, "version", buf);
    const char *layer = getenv("MKL_THREADING_LAYER");
    kv_str(out, "config", layer ? layer : "default threading layer (INTEL)");
    fprintf(out, ", \"threads\": %d", threads ? threads() : -1);
}

static void xsmm_info(FILE *out)
{
    const char *(*version)(void) = (const char *(*)(void))sym("tg_xsmm_version");
    const char *(*target)(void) = (const char *(*)(void))sym("tg_xsmm_target");
    kv_str(out, "version", version ? version() : NULL);
    kv_str(out, "config", target ? target() : NULL);
    fprintf(out, ", \"threads\": 1");
}

void tg__impl_info_json(tg__impl_id id, FILE *out)
{
    tg__impl_ops ops;
    char why[512];
    if (tg__impl_load(id, &ops, why, sizeof why) != 0) {
        fprintf(out, "{\"present\": false, \"reason\": ");
        tg__json_str(out, why);
        fprintf(out, "}");
        return;
    }
    fprintf(out, "{\"present\": true");
    if (id == TG__IMPL_TGEMM || id == TG__IMPL_PLANTED) {
        kv_str(out, "path", "linked statically from build/libtgemm.a");
        kv_str(out, "version", TGEMM_VERSION);
        kv_str(out, "config", tg_cpu_arch());
        fprintf(out, ", \"threads\": %d}", tg_get_num_threads());
        return;
    }
    if (id == TG__IMPL_PEAK) {
        kv_str(out, "path", "linked: harness/ceilings_probes.c, the ceilings' FMA probe");
        kv_str(out, "version", TGEMM_VERSION);
        kv_str(out, "config", tg_cpu_arch());
        fprintf(out, "}");
        return;
    }
    if (id == TG__IMPL_STREAM || id == TG__IMPL_STREAM_NT) {
        kv_str(out, "path", "linked: harness/ceilings_probes.c, the ceilings' STREAM kernels");
        kv_str(out, "version", TGEMM_VERSION);
        kv_str(out, "config", id == TG__IMPL_STREAM ? "plain stores, OpenMP static parts"
                                                    : "non-temporal stores, OpenMP static parts");
        fprintf(out, "}");
        return;
    }
    kv_str(out, "path", lib_path);
    if (id == TG__IMPL_OPENBLAS) openblas_info(out);
    if (id == TG__IMPL_BLIS) blis_info(out);
    if (id == TG__IMPL_MKL) mkl_info(out);
    if (id == TG__IMPL_LIBXSMM) xsmm_info(out);
    fprintf(out, "}");
}
