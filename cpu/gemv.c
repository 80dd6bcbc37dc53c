/* Products with one row or one column of C (m or n 1), as a matrix-vector product; and with a
 * few (two to four), as that many over the same matrix.
 *
 * Such a product reads each element of its matrix operand once (or a few times over), so its speed
 * is the speed at which that matrix streams in, and the GEMM paths' tiles stream it badly: a short
 * A reads B a panel (one or two cache lines of each row) at a time down k, hundreds of rows in
 * flight that only a prefetch follows, and a narrow B reads A six rows at a time. Here the matrix
 * goes to one of the kernel's two GEMV forms (cpu.h's tg__gemv_fn), whichever reads it along its
 * contiguous runs: rows as long as a chunk of y (the rows form) or whole columns down k (the dots
 * form). With C's row or column as y, the matrix is B (m = 1: y = Bᵀ · A's row) or Aᵀ (n = 1: y =
 * A · B's column). A C of two to four rows (columns) is as many y's, which the rows form takes at
 * once where the matrix's rows run along them, each row of the matrix loaded once for all
 * (tg__gemv_rows_max says from what size: below it, and where only the dots form would serve, the
 * GEMM's tiles do as well or better). A strided x is copied for the dots form, which loads it as
 * vectors. Threads split y, whose every element is computed the same way wherever it falls
 * (gemv_simd.inc), or, where y is short, k in a fixed number of parts (tg__gemv_kparts): either way
 * the bits do not depend on the thread count.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include <string.h>

#include "cpu.h"

/* Working memory (a copy of a strided x, the k parts' sums) on the stack up to this many bytes,
 * so that a small call never allocates. */
enum { TG__GEMV_STACK = 4096 };

/* Where threads split k rather than y (tg__gemv_kparts): always into four parts, for a y under
 * 128 cache lines in the rows form and under 8 in the dots form. Split among threads, y leaves
 * each thread only part of each of M's rows in the rows form, runs of under 4 KiB far apart which
 * stream worse than one thread's whole rows: Emerald Rapids, 2 threads, ab-gemm against the split
 * of y: s 1x64x20000 2.1x, 1x128x8000 2.0x, 1x256x4096 1.67x, 1x400x3000 1.43x, 1x1000x1000
 * 1.48x, 1x2000x2000 1.04x, d 1x64x20000 1.59x, 1x256x4096 1.34x, 1x400x3000 1.42x; 1 thread
 * 0.96-1.02x. In the dots form each thread's part of y is whole columns, contiguous, and it
 * keeps the split from eight lines on (there s 300x1x3000 0.80x split along k). Under eight lines
 * y is not split at all (four lines a thread at least, below). */
enum { TG__GEMV_KPARTS = 4, TG__GEMV_KSPLIT_ROWS = 128, TG__GEMV_KSPLIT_DOTS = 8 };

/* A team from 256^2 multiply-adds, a quarter of where a GEMM's starts (tg__threads_for): each
 * multiply-add of a matrix-vector product reads an element of the matrix, so its time per
 * multiply-add is several times a GEMM's. Emerald Rapids, 2 threads against 1 below 64^3, ab-gemm:
 * s 1x256x256 1.21x, 1x400x400 1.54x, 400x1x400 1.53x, d 1x256x256 1.55x, 256x1x256 1.55x,
 * 64x1x1024 1.56x; from 128^2 (s 1x128x128 0.59x, 128x1x128 0.46x) it lost. k is split only from
 * 64^3 on, as before: over fewer the four parts cost one thread 4-13% (s 1x64x1024 0.91x, d
 * 1x256x256 0.89x) and gained two threads less than splitting y (1.04x against 1.21x there). */
enum { TG__GEMV_TEAM_MNK = 256 * 256 };

typedef struct {
    int r; /* rows of x and of y: products over the same M (the rows form's; 1 in the dots form) */
    int64_t n, k;
    const char *x, *m;
    int64_t incx, ldx, sp, sj; /* M's element (p, j) at m + p * sp + j * sj, in elements */
    char *y;
    int64_t incy, ldy;
} tg__gemv;

/* How many rows of y the rows form takes at most over an M of k x n elements (a short C's rows or
 * columns; gemv.c's other products go to the GEMM's tiles). Where M streams from beyond L2, up to
 * four over rows of 512 bytes or more. Else, by the family's rule (gemv_rule): 0 (AVX2, and the
 * portable family) two over an M of 128^2 elements or more, else one; 1 (AVX-512) one: its tiles
 * over a short A take B's panels two at a time (small.c's tg__small_pairs) and beat the rows form
 * within L2. The bounds are where the small path's tiles stopped losing to it (Emerald Rapids,
 * ab-gemm, rows form / small path): AVX2 forced, 1 thread, s 4x256x256 0.63, 4x1024x256
 * 0.67-0.77, 3x512x512 0.87-0.96, 4x64x20000 0.88-0.95 (d 1.26), 2x64x128 0.81, 2x96x96 0.82
 * (2x128x128 1.33), d 4x40x20000 0.86, 2x96x96 0.84-0.90. AVX-512 (cpu/ab-gemv-rule/ and
 * cpu/ab-short-pairs/ in the Emerald Rapids results): over the pair tiles, two rows of 1 KiB or
 * more s 2x256x256 0.90, 2x1024x128 0.83, 2x256x512 0.80, d 2x128x256 0.83 at 1 thread; at 2,
 * 0.47-0.82 where the small path runs two threads (s 2x1024x128 0.47), 1.09-1.11 where it runs one
 * (s 2x256x256, d 2x128x256: under 64^3 multiply-adds); three rows lost before the pairs already
 * (s 0.53-1.07, d 0.61-1.17), four lost (0.50-1.18). */
static int64_t tg__gemv_rows_max(const tg__kernel *kern, int64_t k, int64_t n)
{
    const int64_t es = (int64_t)kern->es, row = n * es;
    const double elems = (double)k * (double)n;
    if (elems * (double)es > (double)tg__cpu()->l2 && row >= 512) return TG__GEMV_ROWS;
    return !kern->gemv_rule && elems >= 128 * 128 ? 2 : 1;
}

/* g as y = alpha * Mᵀx + beta * y; the form that reads M along its runs (1 rows, 2 dots), or 0.
 * A C of one row or column is y; one of a few rows (columns) is r of them, where M's rows are
 * contiguous along them, for the rows form, over more than 128 bytes (a few rows over at most two
 * AVX-512 vectors take the GEMM's tiles). */
TG__ALWAYS_INLINE int tg__gemv_of(const tg__kernel *kern, const tg__gemm *g, tg__gemv *v)
{
    const int64_t es = (int64_t)kern->es, wide = 128 / es;
    const int one = g->m == 1 || g->n == 1;
    int row = g->m == 1;
    if (!one) { /* (the rule's call only here: see tg__gemv_tiny for what it gained) */
        const int64_t r_max = tg__gemv_rows_max(kern, g->k, g->m < g->n ? g->n : g->m);
        row = g->m <= r_max && g->b.cs == 1 && g->n > wide;
        if (!row && !(g->n <= r_max && g->a.rs == 1 && g->m > wide)) return 0;
    }
    v->r = (int)(one ? 1 : row ? g->m : g->n);
    v->n = row ? g->n : g->m;
    v->k = g->k;
    v->x = (const char *)(row ? g->a.p : g->b.p);
    v->incx = row ? g->a.cs : g->b.rs;
    v->ldx = row ? g->a.rs : g->b.cs;
    v->m = (const char *)(row ? g->b.p : g->a.p);
    v->sp = row ? g->b.rs : g->a.cs;
    v->sj = row ? g->b.cs : g->a.rs;
    v->y = (char *)g->c;
    v->incy = row ? g->cs_c : g->rs_c;
    v->ldy = row ? g->rs_c : g->cs_c;
    /* One element of y is a dot product: whichever of M's column and x is contiguous serves as
     * the column, the other as x. */
    if (v->n == 1 && v->sp != 1 && v->incx == 1) {
        const char *t = v->x;
        v->x = v->m;
        v->m = t;
        v->incx = v->sp;
        v->sp = 1;
    }
    return v->sj == 1 && v->n > 1 ? 1 : v->sp == 1 && v->r == 1 ? 2 : 0;
}

/* y = alpha * Mᵀx + beta * y through the kernel's form (1 rows, 2 dots): M's rows a row apart in
 * the rows form, its columns a column apart in the dots form. */
TG__ALWAYS_INLINE void tg__gemv_run(const tg__kernel *kern, int form, const tg__gemv *v,
                                    const void *alpha, const void *beta)
{
    const int64_t ld = form == 1 ? v->sp : v->sj;
    if (form == 1)
        kern->gemv_rows(v->r, v->n, v->k, alpha, v->x, v->incx, v->ldx, v->m, ld, beta, v->y,
                        v->incy, v->ldy);
    else
        kern->gemv_dots(v->n, v->k, alpha, v->x, v->incx, v->m, ld, beta, v->y, v->incy);
}

/* A strided x copied to `to`, contiguous, for the dots form, which loads it as vectors. */
static void tg__gemv_copy_x(tg__gemv *v, char *to, int64_t es)
{
    for (int64_t p = 0; p < v->k; p++) memcpy(to + p * es, v->x + p * v->incx * es, (size_t)es);
    v->x = to;
    v->incx = 1;
}

/* y = alpha * ((S0 + S1) + (S2 + S3)) + beta * y over the partial sums of the k parts (each part
 * r rows of n), y not read when beta is zero. */
#define TG__GEMV_JOIN(T)                                                                           \
    for (int64_t i = 0; i < v->r; i++)                                                             \
        for (int64_t j = 0; j < v->n; j++) {                                                       \
            const T *s = (const T *)sums + i * n + j, a = *(const T *)alpha;                       \
            const T b = *(const T *)beta;                                                          \
            T *yj = (T *)v->y + i * v->ldy + j * v->incy;                                          \
            const T r = a * ((s[0] + s[part]) + (s[2 * part] + s[3 * part]));                     \
            *yj = b == 0 ? r : r + b * *yj;                                                        \
        }

/* The threads take parts of k instead of parts of y (where: above): each part summed whole by
 * the kernel into a buffer of its own, then added in a fixed order. The parts are always four,
 * whatever the threads, so the bits do not depend on the thread count. */
static void tg__gemv_kparts(const tg__kernel *kern, int form, const tg__gemv *v, int nt,
                            const void *alpha, const void *beta, char *sums)
{
    static const float zero_s = 0.0f;
    static const double zero_d = 0.0;
    const int64_t es = (int64_t)kern->es, n = v->n, part = v->r * n;
    const void *one = tg__one(kern->es), *zero = es == sizeof(float) ? (const void *)&zero_s
                                                                      : (const void *)&zero_d;
    (void)nt; /* (without OpenMP) */
    TG__OMP(omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1))
    for (int i = 0; i < TG__GEMV_KPARTS; i++) {
        const int64_t p0 = v->k * i / TG__GEMV_KPARTS, p1 = v->k * (i + 1) / TG__GEMV_KPARTS;
        tg__gemv u = *v;
        u.k = p1 - p0;
        u.x += p0 * v->incx * es;
        u.m += p0 * v->sp * es;
        u.y = sums + i * part * es;
        u.incy = 1;
        u.ldy = n;
        tg__gemv_run(kern, form, &u, one, zero);
    }
    if (es == sizeof(float)) TG__GEMV_JOIN(float)
    else TG__GEMV_JOIN(double)
}
#undef TG__GEMV_JOIN

TG__PRIVATE int tg__gemm_gemv(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                              const void *alpha, const void *beta)
{
    const int64_t es = (int64_t)kern->es, line = 64 / es;
    tg__gemv v;
    const int form = tg__gemv_of(kern, g, &v);
    double stack[TG__GEMV_STACK / sizeof(double)];
    char *work = (char *)stack, *heap = NULL;
    int64_t lines, x_bytes, sum_bytes;
    double mnk;
    int nt, kparts;
    if (!form) return -1;
    /* (y's bytes over a line's: a constant divisor, where y's elements over a line's elements
     * divided at run time, a sixth of this function's samples in a 1x16x16 dgemm, perf) */
    lines = tg__ceil_div(v.n * es, 64);
    mnk = (double)v.r * (double)v.n * (double)v.k;
    /* (from a GEMM's team size, by the shape alone, never the threads) */
    kparts = lines < (form == 1 ? TG__GEMV_KSPLIT_ROWS : TG__GEMV_KSPLIT_DOTS) &&
             mnk >= TG__TEAM_MNK;
    nt = mnk < TG__GEMV_TEAM_MNK ? 1 : tg__threads_team();
    /* Threads split y at multiples of a cache line's elements, four lines or more each: a
     * thread's part is then never as narrow as the rows form's narrow rows (gemv_simd.inc), so no
     * element of a wider y is summed their way. */
    nt = (int)tg__min(nt, kparts ? (int64_t)TG__GEMV_KPARTS : lines / 4);
    x_bytes = form == 2 && v.incx != 1 ? v.k * es : 0;
    sum_bytes = kparts ? TG__GEMV_KPARTS * v.r * v.n * es : 0;
    if (x_bytes + sum_bytes > TG__GEMV_STACK) {
        work = heap = (char *)tg__alloc((size_t)(x_bytes + sum_bytes));
        if (!heap) return tg__fail(TG_ERR_NOMEM, fn, "no memory for the matrix-vector product");
    }
    if (x_bytes) tg__gemv_copy_x(&v, work + sum_bytes, es);
    if (kparts) {
        tg__gemv_kparts(kern, form, &v, nt, alpha, beta, work);
    } else if (nt <= 1) {
        tg__gemv_run(kern, form, &v, alpha, beta);
    } else {
        TG__OMP(omp parallel num_threads(nt))
        {
            const int64_t tid = TG__THREAD_NUM(), team = TG__TEAM_SIZE();
            const int64_t j0 = tg__min(lines * tid / team * line, v.n);
            const int64_t j1 = tg__min(lines * (tid + 1) / team * line, v.n);
            tg__gemv u = v;
            u.n = j1 - j0;
            u.m += j0 * v.sj * es;
            u.y += j0 * v.incy * es;
            if (j1 > j0) tg__gemv_run(kern, form, &u, alpha, beta);
        }
    }
    tg__free(heap);
    return TG_OK;
}

TG__PRIVATE int tg__gemv_tiny(const tg__kernel *kern, int64_t m, int64_t n, int64_t k,
                              const void *alpha, const void *a, int64_t a_rs, int64_t a_cs,
                              const void *b, int64_t b_rs, int64_t b_cs, const void *beta, void *c,
                              int64_t rs_c)
{
    /* (the view formed here, where tg__gemv_of reads it inlined: formed by the caller, its fields
     * came back through memory, and loads that spanned two of its stores stalled on them, two
     * thirds of tg__gemv_of's samples in a 1x8x8 sgemm. The Xeon of results/intel-xeon-l3-480m-2c,
     * 1 thread, ab-gemm against 531698f (a copy 0.99-1.02): tg__gemv_of's rows rule asked only for
     * a few rows and tg__gemv_run inlined, 0.99-1.10; with the view formed here too, 1x1x8
     * 1.34-1.56, 1x8x8 1.20-1.38, 8x1x8 1.26-1.28, 1x16x16 1.22-1.37, 1x40x40 1.05-1.09) */
    const tg__gemm g = {m, n, k, {a, a_rs, a_cs}, {b, b_rs, b_cs}, c, rs_c, 1};
    double x[TG__TINY_SIDE];
    tg__gemv v;
    const int form = tg__gemv_of(kern, &g, &v);
    if (!form) return 0;
    if (form == 2 && v.incx != 1) tg__gemv_copy_x(&v, (char *)x, (int64_t)kern->es);
    tg__gemv_run(kern, form, &v, alpha, beta);
    return 1;
}
