/* ab-gemm: two or more GEMM builds side by side in one process, for a change worth a few percent.
 *
 * tgemm-bench times each library in its own process and takes the median of rounds: right for the
 * targets' table, too coarse for one kernel change on a shared VM whose speed drifts from one
 * second to the next (and, for small products, has stretches in which everything runs 1.1-1.5x
 * slower). Here every library is dlopened into one process (RTLD_LOCAL, so two copies of
 * libtgemm.so keep their own symbols) and called on the same operands in batches, the libraries
 * in a rotated order each round; a line is the best batch of `rounds` per library, and the report
 * is each library's rate over the first one's, averaged over the lines, with the lowest and
 * highest line, and its GFLOP/s (the mean of its best batches). Load a second copy of the old
 * build as a control: two identical copies differ by up to 7% on small shapes (code placement),
 * which is the floor of what one run can show.
 *
 * Libraries: any libtgemm.so (tg_sgemm / tg_dgemm), the harness's libxsmm adapter
 * (build/harness/libtg_xsmm.so: tg_xsmm_sgemm / tg_xsmm_dgemm) or a CBLAS (cblas_sgemm /
 * cblas_dgemm, e.g. /usr/lib/x86_64-linux-gnu/libopenblas.so.0; set OPENBLAS_NUM_THREADS). Alpha
 * 1; from the environment: LAYOUT (row, the default, or col), TRANS (NN, the default, NT, TN, TT),
 * BETA (default 0), THREADS threads for tgemm (default 1), C_OFFSET (C starts that many bytes past
 * a 64-byte line; by default where malloc puts it, which varies with the size: two threads that
 * share C's lines run at half the rate, small.c), A_OFFSET and B_OFFSET the same for A and B (a
 * kernel that reads B's rows in place runs at a rate that depends on where they fall in lines).
 * A library written LIB@N runs on N threads whatever the environment says (tgemm, MKL, OpenBLAS
 * or BLIS, each through its own call, made before every batch), so one build can be compared with
 * itself at two thread counts in the same process: whether a second thread pays on a product too
 * small to hide a team's start-up is a difference of a few percent, which separate processes on a
 * shared VM cannot resolve. Likewise LIB:FORM calls it in its own layout and transposes (FORM:
 * row or col, then NN, NT, TN or TT, either part left to LAYOUT and TRANS: "TT", "col",
 * "colTN"), on the same operands (each form reads the same m k, k n and m n elements), so that a
 * build's transposed and column-major products are timed against its own row-major NN in one
 * process. Two libraries that each run threads disturb each other here: OpenBLAS's workers spin
 * for a while after each of its calls and hold the other CPU (d 8x4096x4096 on the 2-vCPU Xeon:
 * tgemm@2 32-34 GFLOP/s beside tgemm@1, 12-15 beside OpenBLAS@2 and @1, 29.6 with
 * OPENBLAS_THREAD_TIMEOUT=4, which puts them to sleep sooner at some cost to OpenBLAS's own
 * back-to-back calls): compare thread counts across libraries with tgemm-bench, which runs each in
 * its own process. Not a test and not for the targets' table; run it under the bench lock:
 *     flock /tmp/bench.lock build/ab-gemm d 8x4096x4096 9 OLD.so NEW.so OLD-copy.so
 *     flock /tmp/bench.lock build/ab-gemm s 64 15 build/libtgemm.so@1 build/libtgemm.so@2
 *     flock /tmp/bench.lock build/ab-gemm d 2048 5 build/libtgemm.so build/libtgemm.so:TT
 *
 * usage: ab-gemm s|d M[xNxK] LINES LIB[@THREADS][:FORM] [LIB[@THREADS][:FORM]...]
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_LIBS = 8, ROUNDS = 5 };

typedef int (*tg_s_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                       const float *, int64_t, float, float *, int64_t);
typedef int (*tg_d_fn)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                       const double *, int64_t, double, double *, int64_t);
typedef void (*cblas_s_fn)(int, int, int, int, int, int, float, const float *, int, const float *,
                           int, float, float *, int);
typedef void (*cblas_d_fn)(int, int, int, int, int, int, double, const double *, int,
                           const double *, int, double, double *, int);

/* The layout and transposes of a library's calls (CBLAS's numbers, which tgemm shares), and the
 * leading dimensions they imply. */
typedef struct {
    int layout, ta, tb, lda, ldb, ldc;
} form;

typedef struct {
    void *fn;
    form f;      /* LAYOUT and TRANS, or the library's :FORM */
    int cblas;   /* 32-bit int dimensions */
    int threads; /* from LIB@N: set before every batch; 0: left as opened */
    void (*set_int)(int);         /* tgemm's, MKL's or OpenBLAS's thread count */
    void (*set_i64)(int64_t);     /* BLIS's (a dim_t) */
} lib;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The form of layout lay (row or col) and transposes tr (NN, NT, TN or TT) for an m x n x k
 * product: 0, or -1 where either is neither. */
static int make_form(const char *lay, const char *tr, int m, int n, int k, form *f)
{
    int row = strcmp(lay, "col") != 0;
    if ((strcmp(lay, "row") && strcmp(lay, "col")) || strlen(tr) != 2 || !strchr("NT", tr[0]) ||
        !strchr("NT", tr[1]))
        return -1;
    f->layout = row ? 101 : 102;
    f->ta = tr[0] == 'T' ? 112 : 111;
    f->tb = tr[1] == 'T' ? 112 : 111;
    /* the stored rows of op(A) = A (m x k) or A^T, and so on, in the layout's order */
    f->lda = (row == (tr[0] == 'N')) ? k : m;
    f->ldb = (row == (tr[1] == 'N')) ? n : k;
    f->ldc = row ? n : m;
    return 0;
}

/* Opens LIB[@N][:FORM] (N threads, FORM the layout and transposes, see the top), whose calls take
 * layout lay and transposes tr where FORM does not say. tgemm libraries take THREADS when no @N is
 * given; the others then keep what their own environment variables say. */
static int open_lib(const char *arg, int dbl, int threads, const char *lay, const char *tr,
                    const int mnk[3], lib *l)
{
    char path[4096], lay_own[4];
    const char *colon = strrchr(arg, ':'), *at;
    size_t len = strlen(arg);
    void *h;
    int tg;
    if (colon) {
        const char *spec = colon + 1;
        if (!strncmp(spec, "row", 3) || !strncmp(spec, "col", 3)) {
            snprintf(lay_own, sizeof lay_own, "%.3s", spec);
            lay = lay_own;
            spec += 3;
        }
        if (*spec) tr = spec;
        len = (size_t)(colon - arg);
    }
    if (make_form(lay, tr, mnk[0], mnk[1], mnk[2], &l->f)) {
        fprintf(stderr, "ab-gemm: %s: a layout is row or col, transposes one of NN, NT, TN, TT\n",
                arg);
        return -1;
    }
    snprintf(path, sizeof path, "%.*s", (int)len, arg);
    at = strrchr(path, '@');
    l->threads = 0;
    if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1) && atoi(at + 1) > 0) {
        l->threads = atoi(at + 1);
        path[at - path] = '\0';
    }
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "ab-gemm: %s\n", dlerror());
        return -1;
    }
    l->cblas = 0;
    l->fn = dlsym(h, dbl ? "tg_dgemm" : "tg_sgemm");
    tg = l->fn != NULL;
    if (!l->fn) l->fn = dlsym(h, dbl ? "tg_xsmm_dgemm" : "tg_xsmm_sgemm");
    if (!l->fn) {
        l->fn = dlsym(h, dbl ? "cblas_dgemm" : "cblas_sgemm");
        l->cblas = 1;
    }
    if (!l->fn) {
        fprintf(stderr, "ab-gemm: %s has no tg_, tg_xsmm_ or cblas_ gemm\n", path);
        return -1;
    }
    *(void **)&l->set_int = dlsym(h, "tg_set_num_threads");
    if (!l->set_int) *(void **)&l->set_int = dlsym(h, "MKL_Set_Num_Threads");
    if (!l->set_int) *(void **)&l->set_int = dlsym(h, "openblas_set_num_threads");
    *(void **)&l->set_i64 = l->set_int ? NULL : dlsym(h, "bli_thread_set_num_threads");
    if (l->threads && !l->set_int && !l->set_i64) {
        fprintf(stderr, "ab-gemm: %s: no call to set its threads\n", path);
        return -1;
    }
    if (!l->threads && tg) l->threads = threads;
    return 0;
}

/* The library's thread count before each of its batches: the same library loaded twice (LIB@1
 * LIB@2) is one handle with one process-wide setting. */
static void set_threads(const lib *l)
{
    if (!l->threads) return;
    if (l->set_int) l->set_int(l->threads);
    else l->set_i64(l->threads);
}

/* One call: C = op(A) op(B) + beta C. */
static void call(const lib *l, int dbl, int m, int n, int k, double beta, const void *a,
                 const void *b, void *c)
{
    const form *f = &l->f;
    if (dbl && l->cblas)
        ((cblas_d_fn)l->fn)(f->layout, f->ta, f->tb, m, n, k, 1.0, a, f->lda, b, f->ldb, beta, c,
                            f->ldc);
    else if (dbl)
        ((tg_d_fn)l->fn)(f->layout, f->ta, f->tb, m, n, k, 1.0, a, f->lda, b, f->ldb, beta, c,
                         f->ldc);
    else if (l->cblas)
        ((cblas_s_fn)l->fn)(f->layout, f->ta, f->tb, m, n, k, 1.0f, a, f->lda, b, f->ldb,
                            (float)beta, c, f->ldc);
    else
        ((tg_s_fn)l->fn)(f->layout, f->ta, f->tb, m, n, k, 1.0f, a, f->lda, b, f->ldb, (float)beta,
                         c, f->ldc);
}

/* count elements; off >= 0: they start off bytes past a 64-byte line (the allocation is *mem). */
static void *operand(size_t count, size_t es, int dbl, int salt, long off, void **mem)
{
    char *p = NULL;
    if (off < 0) *mem = p = malloc(count * es);
    else if (posix_memalign(mem, 64, count * es + (size_t)off) == 0) p = (char *)*mem + off;
    else *mem = NULL;
    for (size_t i = 0; p && i < count; i++) {
        double v = (double)((i * 7 + (size_t)salt) % 13) * 0.1 - 0.6;
        if (dbl) ((double *)p)[i] = v;
        else ((float *)p)[i] = (float)v;
    }
    return p;
}

int main(int argc, char **argv)
{
    int dbl, m, n, k, lines, libs = argc - 4, threads;
    double beta, sum[MAX_LIBS] = {0}, gflops[MAX_LIBS] = {0}, lo[MAX_LIBS], hi[MAX_LIBS];
    long calls;
    lib l[MAX_LIBS];
    form f;
    void *a, *b, *c, *mem[3];
    long a_offset, b_offset, c_offset;
    const char *lay, *tr;
    if (argc < 6 || libs > MAX_LIBS || (strcmp(argv[1], "s") && strcmp(argv[1], "d"))) {
        fprintf(stderr, "usage: ab-gemm s|d M[xNxK] LINES LIB[@THREADS][:FORM] "
                        "LIB[@THREADS][:FORM] [...] (at most %d)\n",
                MAX_LIBS);
        return 2;
    }
    dbl = argv[1][0] == 'd';
    if (sscanf(argv[2], "%dx%dx%d", &m, &n, &k) != 3) m = n = k = atoi(argv[2]);
    lines = atoi(argv[3]);
    beta = getenv("BETA") ? atof(getenv("BETA")) : 0.0;
    threads = getenv("THREADS") ? atoi(getenv("THREADS")) : 1;
    a_offset = getenv("A_OFFSET") ? atol(getenv("A_OFFSET")) : -1;
    b_offset = getenv("B_OFFSET") ? atol(getenv("B_OFFSET")) : -1;
    c_offset = getenv("C_OFFSET") ? atol(getenv("C_OFFSET")) : -1;
    lay = getenv("LAYOUT") ? getenv("LAYOUT") : "row";
    tr = getenv("TRANS") ? getenv("TRANS") : "NN";
    if (make_form(lay, tr, m, n, k, &f)) {
        fprintf(stderr, "ab-gemm: LAYOUT is row or col, TRANS one of NN, NT, TN, TT\n");
        return 2;
    }
    if (m <= 0 || n <= 0 || k <= 0 || lines <= 0) {
        fprintf(stderr, "ab-gemm: bad shape or line count\n");
        return 2;
    }
    for (int i = 0; i < libs; i++) {
        const int mnk[3] = {m, n, k};
        if (open_lib(argv[4 + i], dbl, threads, lay, tr, mnk, &l[i])) return 1;
    }
    a = operand((size_t)m * (size_t)k, dbl ? 8 : 4, dbl, 1, a_offset, &mem[0]);
    b = operand((size_t)k * (size_t)n, dbl ? 8 : 4, dbl, 2, b_offset, &mem[1]);
    c = operand((size_t)m * (size_t)n, dbl ? 8 : 4, dbl, 3, c_offset, &mem[2]);
    if (!a || !b || !c) {
        fprintf(stderr, "ab-gemm: out of memory\n");
        return 1;
    }
    /* A batch is ~2e7 multiply-adds: a few ms, long against the timer, short against the drift. */
    calls = 20000000L / ((long)m * n * k) + 1;
    for (int t = 0; t < lines; t++) {
        double best[MAX_LIBS];
        for (int i = 0; i < libs; i++) best[i] = 1e30;
        for (int r = 0; r < ROUNDS; r++)
            for (int j = 0; j < libs; j++) {
                int i = (j + r + t) % libs;
                double t0, dt;
                set_threads(&l[i]);
                t0 = now();
                for (long q = 0; q < calls; q++) call(&l[i], dbl, m, n, k, beta, a, b, c);
                dt = (now() - t0) / (double)calls;
                if (dt < best[i]) best[i] = dt;
            }
        for (int i = 0; i < libs; i++) gflops[i] += 2e-9 * (double)m * n * k / best[i] / lines;
        for (int i = 1; i < libs; i++) {
            double rate = best[0] / best[i];
            sum[i] += rate;
            if (t == 0 || rate < lo[i]) lo[i] = rate;
            if (t == 0 || rate > hi[i]) hi[i] = rate;
        }
    }
    printf("%s %s %s %c%c beta %g, THREADS %d, %d lines of the best of %d batches of %ld calls\n",
           argv[1], argv[2], f.layout == 101 ? "row" : "col", f.ta == 112 ? 'T' : 'N',
           f.tb == 112 ? 'T' : 'N', beta, threads, lines, ROUNDS, calls);
    printf("  %-50s %.1f GFLOP/s\n", argv[4], gflops[0]);
    for (int i = 1; i < libs; i++)
        printf("  %-50s %.1f GFLOP/s, rate / %s: %.3f (lines %.3f-%.3f)\n", argv[4 + i], gflops[i],
               argv[4], sum[i] / lines, lo[i], hi[i]);
    free(mem[0]), free(mem[1]), free(mem[2]);
    return 0;
}
