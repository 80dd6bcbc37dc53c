/* The CPU elementwise entry points: argument checks, the kernel family, the threads.
 *
 * Each call is checked in the order of its parameters (1-based positions in the message), then
 * becomes one operation (tg__ew, elementwise.h) over runs of contiguous elements: one run of n for
 * the 1-D calls, one row (row-major) or column (column-major) of C per run for tg_bias_act. The runs
 * are flattened into one index range, cut into equal chunks that the threads take as they come free,
 * whatever the shape (a single long row as well as many short ones). OpenMP only for arrays large
 * enough to repay waking a team; results do not depend on the thread count, each element being
 * computed alone.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "elementwise.h"

TG__PRIVATE size_t tg__ew_size(tg_dtype t) { return t == TG_F64 ? 8 : t == TG_F32 ? 4 : 2; }

static int tg__ew_check_dtype(const char *fn, int pos, tg_dtype t)
{
    if ((int)t < TG_F32 || (int)t > TG_BF16)
        return tg__arg_error(fn, pos, "t", (int64_t)t,
                             "must be TG_F32 (0), TG_F64 (1), TG_F16 (2) or TG_BF16 (3)");
    return TG_OK;
}

static int tg__ew_check_act(const char *fn, int pos, tg_act act)
{
    if ((int)act < TG_ACT_NONE || (int)act > TG_ACT_SILU)
        return tg__arg_error(fn, pos, "act", (int64_t)act, "must be a tg_act, TG_ACT_NONE (0) to TG_ACT_SILU (5)");
    return TG_OK;
}

/* A count of elements: not negative, and its bytes addressable. */
static int tg__ew_check_count(const char *fn, int pos, const char *name, int64_t n, size_t es)
{
    if (n < 0) return tg__arg_error(fn, pos, name, n, "must be >= 0");
    if (n > (int64_t)(PTRDIFF_MAX / (ptrdiff_t)es))
        return tg__arg_error(fn, pos, name, n, "spans more bytes than memory can address");
    return TG_OK;
}

static int tg__ew_check_ptr(const char *fn, int pos, const char *name, const void *p, int64_t n)
{
    if (n > 0 && !p) return tg__arg_error(fn, pos, name, 0, "must not be NULL when there are elements");
    return TG_OK;
}

/* Whether [a, a + an) and [b, b + bn) (bytes) share a byte. */
static int tg__ew_overlap(const void *a, int64_t an, const void *b, int64_t bn)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return an > 0 && bn > 0 && pa < pb + (uintptr_t)bn && pb < pa + (uintptr_t)an;
}

/* An input that overlaps the output must be the output itself (in place): otherwise later elements
 * would read what earlier ones wrote, and the result would depend on the order of the work. */
static int tg__ew_check_alias(const char *fn, int pos, const char *name, const void *in,
                              const char *out, const void *z, int64_t bytes)
{
    char expected[96];
    if (in == z || !tg__ew_overlap(in, bytes, z, bytes)) return TG_OK;
    snprintf(expected, sizeof expected, "overlaps %s partly (only %s itself, in place, is allowed)",
             out, out);
    return tg__arg_error(fn, pos, name, (int64_t)((const char *)in - (const char *)z), expected);
}

/* After the checks: fp16/bf16 and an unusable TGEMM_ARCH are TG_ERR_UNSUPPORTED here. */
static int tg__ew_pick(const char *fn, tg_dtype t, tg__ew_run_fn *run)
{
    tg__arch arch;
    if (t == TG_F16 || t == TG_BF16)
        return tg__fail(TG_ERR_UNSUPPORTED, fn, "fp16 and bf16 run on the GPU only (tg_cuda_*)");
    arch = tg__arch_selected();
    if (arch == TG__ARCH_INVALID)
        return tg__fail(TG_ERR_UNSUPPORTED, fn, "TGEMM_ARCH names a kernel family this CPU lacks");
#ifdef TG__X86
    if (arch == TG__ARCH_AVX512) {
        *run = t == TG_F32 ? tg__ew_run_avx512_s : tg__ew_run_avx512_d;
        return TG_OK;
    }
    if (arch == TG__ARCH_AVX2) {
        *run = t == TG_F32 ? tg__ew_run_avx2_s : tg__ew_run_avx2_d;
        return TG_OK;
    }
#endif
    *run = t == TG_F32 ? tg__ew_run_generic_s : tg__ew_run_generic_d;
    return TG_OK;
}

/* lines runs of len elements, ld apart in x and z; y (when given) is indexed along the run only;
 * line_s (when given) holds one scalar per run (a per-run bias, operation ADDS). */
typedef struct {
    tg__ew e;
    tg__ew_run_fn run;
    size_t es;
    int64_t lines, len, ld;
    const char *x, *y, *line_s;
    char *z;
} tg__ew_job;

/* The flattened elements [lo, hi), run piece by run piece. */
static void tg__ew_do(const tg__ew_job *j, int64_t lo, int64_t hi)
{
    while (lo < hi) {
        int64_t l = lo / j->len, k = lo % j->len;
        int64_t m = j->len - k < hi - lo ? j->len - k : hi - lo;
        size_t off = (size_t)(l * j->ld + k) * j->es;
        tg__ew e = j->e;
        if (j->line_s && j->es == 4) e.sf = ((const float *)j->line_s)[l];
        if (j->line_s && j->es == 8) e.sd = ((const double *)j->line_s)[l];
        j->run(&e, m, j->x + off, j->y ? j->y + (size_t)k * j->es : NULL, j->z + off);
        lo += m;
    }
}

/* Output bytes above which the output is streamed past the caches: twice the L3 (cpuinfo's l3_plan,
 * at most 32 MiB: on an Intel Emerald Rapids VM reporting the socket's 260 MiB, a 512 MiB output
 * went through the caches, at the speed of STREAM copy with plain stores, 22-23 GB/s against 35-38
 * with streamed ones; streamed, fp32 activations at 2^27 ran in 0.68-0.88 the time), or
 * TGEMM_EW_STREAM_BYTES, read once per process, which the tests set low so that small arrays take
 * the streamed path too. */
static int64_t tg__ew_stream_bytes(void)
{
    static int read;
    static int64_t env;
    if (!TG__LOAD_ACQUIRE(&read)) {
        env = tg__env_size("TGEMM_EW_STREAM_BYTES");
        TG__STORE_RELEASE(&read, 1);
    }
    return env ? env : 2 * tg__cpu()->l3_plan;
}

static void tg__ew_launch(tg__ew_job *j)
{
    int64_t total = j->lines * j->len;
    /* Elements per thread worth a team: the transcendental activations cost 5-30x a memory-bound
     * op (2-10 cycles an element against ~0.3). */
    int64_t grain = tg__ew_transcendental(j->e.act) ? (int64_t)1 << 11 : (int64_t)1 << 16;
    int64_t out_bytes = total * (int64_t)j->es;
    int nt = 1;
    /* Stream the output past the caches when it could not stay in them anyway (the reads of a
     * following call would miss regardless), and only into an array no input shares: a streamed
     * store saves the read of the line it fills, but a line updated in place has just been read,
     * so there it saves nothing and costs the write-back (measured on Zen 3, 2 threads, 2^27
     * floats: in-place axpy 31 -> 35.5 GB/s with plain stores, scale 33 -> 35; out of place,
     * streaming takes add from 22 to 32 GB/s). The transcendental activations stream too since
     * they are computed in the operation's loop (the vector families; measured in AVX2): fp32
     * sigmoid 17.2 -> 19.8 GB/s, the others +1-5% (2 threads, 2^27 elements, alternating). */
    j->e.stream = out_bytes > tg__ew_stream_bytes() && j->z != j->x && j->z != j->y;
    j->e.ahead_l2 = j->e.stream && tg__cpu()->intel;
#ifdef _OPENMP
    if (!omp_in_parallel() && total >= 2 * grain) {
        nt = tg_get_num_threads();
        if (nt > total / grain) nt = (int)(total / grain);
    }
    if (nt > 1) {
        /* Chunks (a multiple of 16 elements: whole cache lines per thread when z is aligned, so
         * no two threads write one line), handed out as threads come free. A static halving
         * waits for the slower half, and on a shared machine a thread is often descheduled
         * mid-call: 2 threads, 2^27 floats, medians of 15 calls in three alternating runs, add
         * 31.2/32.2/36.2 -> 35.4/33.1/37.4 GB/s, axpy 37.7/35.0/33.7 -> 39.1/35.9/32.9 (OpenBLAS
         * 38.9/35.1/41.1). Some 16 chunks per thread, at least one grain and at most 2^16
         * elements: chunks of one grain, which the transcendental activations once had at every
         * size (8 KiB of floats), alternated between the cores, so that each core's software
         * prefetches 16 KiB ahead (since removed: elementwise_simd_run.inc) filled the other
         * core's cache, and each chunk's fence drained the streamed stores every microsecond.
         * Zen 4, AVX-512, 2 threads, 2^27 elements, act_speed side by side, two runs: fp32
         * sigmoid 28.6/35.1 -> 53.0/49.1 GB/s, SiLU 28.0/34.8 -> 47.9/47.1, GELU tanh 21.2/23.1 ->
         * 26.0/26.3, fp64 sigmoid 26.7/32.5 -> 36.0/36.8; from 2^17 elements up 0.56-1.0 the
         * time, below it the same. */
        int64_t chunk = total / (16 * nt) / 16 * 16, chunks;
        if (chunk > (int64_t)1 << 16) chunk = (int64_t)1 << 16;
        if (chunk < grain) chunk = grain;
        chunks = (total + chunk - 1) / chunk;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; c++)
            tg__ew_do(j, c * chunk, c == chunks - 1 ? total : (c + 1) * chunk);
        return;
    }
#endif
    (void)nt, (void)grain;
    tg__ew_do(j, 0, total);
}

/* The 1-D calls: z = op(x, y) on n elements. */
static int tg__ew_1d(const char *fn, tg_dtype t, tg__ew_op op, tg_act act, double s, int64_t n,
                     const void *x, const void *y, void *z)
{
    tg__ew_job j;
    int st = tg__ew_pick(fn, t, &j.run);
    if (st) return st;
    if (n == 0) return TG_OK;
    j.e.op = op;
    j.e.act = act;
    j.e.stream = 0;
    j.e.sf = (float)s; /* alpha in the array's type, once */
    j.e.sd = s;
    j.es = tg__ew_size(t);
    j.lines = 1;
    j.len = j.ld = n;
    j.x = (const char *)x;
    j.y = (const char *)y;
    j.line_s = NULL;
    j.z = (char *)z;
    tg__ew_launch(&j);
    return TG_OK;
}

/* ---- the checks of each entry point, shared with cuda/elementwise/ ---- */

TG__PRIVATE int tg__ew_check_binary(const char *fn, tg_dtype t, int64_t n, const void *x,
                                    const void *y, const void *z)
{
    int st = tg__ew_check_dtype(fn, 1, t);
    int64_t bytes;
    if (!st) st = tg__ew_check_count(fn, 2, "n", n, tg__ew_size(t));
    if (st) return st;
    bytes = n * (int64_t)tg__ew_size(t);
    st = tg__ew_check_ptr(fn, 3, "x", x, n);
    if (!st) st = tg__ew_check_ptr(fn, 4, "y", y, n);
    if (!st) st = tg__ew_check_ptr(fn, 5, "z", z, n);
    if (!st) st = tg__ew_check_alias(fn, 3, "x", x, "z", z, bytes);
    if (!st) st = tg__ew_check_alias(fn, 4, "y", y, "z", z, bytes);
    return st;
}

TG__PRIVATE int tg__ew_check_scale(const char *fn, tg_dtype t, int64_t n, const void *x)
{
    int st = tg__ew_check_dtype(fn, 1, t);
    if (!st) st = tg__ew_check_count(fn, 2, "n", n, tg__ew_size(t));
    if (!st) st = tg__ew_check_ptr(fn, 4, "x", x, n);
    return st;
}

TG__PRIVATE int tg__ew_check_axpy(const char *fn, tg_dtype t, int64_t n, const void *x, const void *y)
{
    int st = tg__ew_check_dtype(fn, 1, t);
    if (!st) st = tg__ew_check_count(fn, 2, "n", n, tg__ew_size(t));
    if (!st) st = tg__ew_check_ptr(fn, 4, "x", x, n);
    if (!st) st = tg__ew_check_ptr(fn, 5, "y", y, n);
    if (!st) st = tg__ew_check_alias(fn, 4, "x", x, "y", y, n * (int64_t)tg__ew_size(t));
    return st;
}

TG__PRIVATE int tg__ew_check_activate(const char *fn, tg_dtype t, tg_act act, int64_t n,
                                      const void *x, const void *y)
{
    int st = tg__ew_check_dtype(fn, 1, t);
    if (!st) st = tg__ew_check_act(fn, 2, act);
    if (!st) st = tg__ew_check_count(fn, 3, "n", n, tg__ew_size(t));
    if (!st) st = tg__ew_check_ptr(fn, 4, "x", x, n);
    if (!st) st = tg__ew_check_ptr(fn, 5, "y", y, n);
    if (!st) st = tg__ew_check_alias(fn, 4, "x", x, "y", y, n * (int64_t)tg__ew_size(t));
    return st;
}

TG__PRIVATE int tg__ew_check_bias_act(const char *fn, tg_dtype t, tg_layout layout, int64_t rows,
                                      int64_t cols, const void *bias, tg_bias_mode mode, tg_act act,
                                      const void *c, int64_t ldc)
{
    int row = layout == TG_ROW_MAJOR, st;
    size_t es = tg__ew_size(t);
    int64_t lines = row ? rows : cols, len = row ? cols : rows;
    int64_t nbias = mode == TG_BIAS_PER_ROW ? rows : cols;
    char expected[96];

    if ((st = tg__ew_check_dtype(fn, 1, t))) return st;
    if (layout != TG_ROW_MAJOR && layout != TG_COL_MAJOR)
        return tg__arg_error(fn, 2, "layout", layout, "must be TG_ROW_MAJOR (101) or TG_COL_MAJOR (102)");
    if ((st = tg__ew_check_count(fn, 3, "rows", rows, es))) return st;
    if ((st = tg__ew_check_count(fn, 4, "cols", cols, es))) return st;
    if ((st = tg__ew_check_ptr(fn, 5, "bias", bias, rows && cols))) return st;
    if (mode != TG_BIAS_PER_ROW && mode != TG_BIAS_PER_COL)
        return tg__arg_error(fn, 6, "mode", mode, "must be TG_BIAS_PER_ROW (0) or TG_BIAS_PER_COL (1)");
    if ((st = tg__ew_check_act(fn, 7, act))) return st;
    if ((st = tg__ew_check_ptr(fn, 8, "c", c, rows && cols))) return st;
    if (ldc < (len > 1 ? len : 1)) {
        snprintf(expected, sizeof expected, "must be >= max(1, %lld) for %s C (%lld x %lld)",
                 (long long)len, row ? "row-major" : "column-major", (long long)rows, (long long)cols);
        return tg__arg_error(fn, 9, "ldc", ldc, expected);
    }
    if (lines > 1 && ldc > (int64_t)(PTRDIFF_MAX / (ptrdiff_t)es - len) / (lines - 1))
        return tg__arg_error(fn, 9, "ldc", ldc, "C spans more bytes than memory can address");
    /* The bias is read while C is written: no overlap at all. */
    if (rows && cols && tg__ew_overlap(bias, nbias * (int64_t)es, c, ((lines - 1) * ldc + len) * (int64_t)es))
        return tg__arg_error(fn, 5, "bias", (int64_t)((const char *)bias - (const char *)c),
                             "overlaps c (the bias must be a separate array)");
    return TG_OK;
}

/* ---- the CPU entry points ---- */

TGEMM_DEF int tg_add(tg_dtype t, int64_t n, const void *x, const void *y, void *z)
{
    int st = tg__ew_check_binary("tg_add", t, n, x, y, z);
    return st ? st : tg__ew_1d("tg_add", t, TG__EW_ADD, TG_ACT_NONE, 0.0, n, x, y, z);
}

TGEMM_DEF int tg_sub(tg_dtype t, int64_t n, const void *x, const void *y, void *z)
{
    int st = tg__ew_check_binary("tg_sub", t, n, x, y, z);
    return st ? st : tg__ew_1d("tg_sub", t, TG__EW_SUB, TG_ACT_NONE, 0.0, n, x, y, z);
}

TGEMM_DEF int tg_mul(tg_dtype t, int64_t n, const void *x, const void *y, void *z)
{
    int st = tg__ew_check_binary("tg_mul", t, n, x, y, z);
    return st ? st : tg__ew_1d("tg_mul", t, TG__EW_MUL, TG_ACT_NONE, 0.0, n, x, y, z);
}

TGEMM_DEF int tg_scale(tg_dtype t, int64_t n, double alpha, void *x)
{
    int st = tg__ew_check_scale("tg_scale", t, n, x);
    return st ? st : tg__ew_1d("tg_scale", t, TG__EW_SCALE, TG_ACT_NONE, alpha, n, x, NULL, x);
}

TGEMM_DEF int tg_axpy(tg_dtype t, int64_t n, double alpha, const void *x, void *y)
{
    int st = tg__ew_check_axpy("tg_axpy", t, n, x, y);
    return st ? st : tg__ew_1d("tg_axpy", t, TG__EW_AXPY, TG_ACT_NONE, alpha, n, x, y, y);
}

TGEMM_DEF int tg_activate(tg_dtype t, tg_act act, int64_t n, const void *x, void *y)
{
    int st = tg__ew_check_activate("tg_activate", t, act, n, x, y);
    return st ? st : tg__ew_1d("tg_activate", t, TG__EW_COPY, act, 0.0, n, x, NULL, y);
}

TGEMM_DEF int tg_bias_act(tg_dtype t, tg_layout layout, int64_t rows, int64_t cols, const void *bias,
                          tg_bias_mode mode, tg_act act, void *c, int64_t ldc)
{
    static const char fn[] = "tg_bias_act";
    int row = layout == TG_ROW_MAJOR;
    /* Runs are C's rows (row-major) or columns (column-major); the bias runs along them (`along`)
     * or is one value per run. */
    int along = (mode == TG_BIAS_PER_COL) == row;
    tg__ew_job j;
    int st = tg__ew_check_bias_act(fn, t, layout, rows, cols, bias, mode, act, c, ldc);
    if (!st) st = tg__ew_pick(fn, t, &j.run);
    if (st) return st;
    if (rows == 0 || cols == 0) return TG_OK;
    j.e.op = along ? TG__EW_ADD : TG__EW_ADDS;
    j.e.act = act;
    j.e.stream = 0;
    j.e.sf = 0;
    j.e.sd = 0;
    j.es = tg__ew_size(t);
    j.lines = row ? rows : cols;
    j.len = row ? cols : rows;
    j.ld = ldc;
    j.x = (const char *)c;
    j.y = along ? (const char *)bias : NULL;
    j.line_s = along ? NULL : (const char *)bias;
    j.z = (char *)c;
    tg__ew_launch(&j);
    return TG_OK;
}
