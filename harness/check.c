/* Operands and the correctness check: see check.h.
 *
 * Direct check (m*n*k <= DIRECT_MAX and m*n <= DIRECT_MAX_C): the whole fp64 reference and its
 * ratio test.
 * Randomized check (larger): with a vector t drawn fresh for every case, compare C*t against
 * alpha*A*(B*t) + beta*C0*t row by row, each within 16*eps*(|alpha|*|A|*(|B|*|t|) + |beta|*|C0|*|t|)
 * -- the element bounds of the ratio test summed with weights |t|, so a correct GEMM passes -- in
 * long double so that the check's own rounding stays far below a double's eps. A product with t
 * averages errors over a row, so one slightly wrong element can hide in it; hence also the exact
 * reference for sampled whole rows and columns, always including the first and the last ones, where
 * edge-tile bugs live. Either way C starts as random values (or NaN when beta is 0, so an element the
 * implementation forgets to write shows up) between guard elements that must come back untouched.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reference.h"

#define DIRECT_MAX ((int64_t)1 << 24) /* 256^3: the reference takes well under a second ... */
#define DIRECT_MAX_C ((int64_t)1 << 21) /* ... and its m x n result and bound stay at 16 MiB each */
#define GUARD 64                      /* elements on each side of C */
#define GUARD_VALUE 1234.5            /* exactly representable in float and double */
#define LAST_ROWS 6                   /* at least one micro-tile of rows ... */
#define LAST_COLS 16                  /* ... and of columns at the bottom-right edge */
#define RANDOM_LINES 3

static uint64_t next(uint64_t *s) /* splitmix64: fast, good enough to fill operands */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s) { return (double)(next(s) >> 11) * 0x1p-53 * 2 - 1; }

static void set(size_t es, void *p, int64_t i, double v)
{
    if (es == 4) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}

static double get(size_t es, const void *p, int64_t i)
{
    return es == 4 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void fill(size_t es, void *p, int64_t len, uint64_t *s)
{
    for (int64_t i = 0; i < len; i++) set(es, p, i, uniform(s));
}

/* Linear index of op(X)(i, j), the raw BLAS way (the library's views are not trusted here). */
static int64_t idx(int layout, int trans, int64_t ld, int64_t i, int64_t j)
{
    int64_t r = trans == TG_TRANS ? j : i, c = trans == TG_TRANS ? i : j;
    return layout == TG_ROW_MAJOR ? r * ld + c : r + c * ld;
}

int tg__problem_init(tg__problem *p, const tg__case *c, double alpha, double beta, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->c = *c;
    p->es = c->dtype == 's' ? 4 : 8;
    p->alpha = alpha;
    p->beta = beta;
    int row = c->layout == TG_ROW_MAJOR;
    /* Dense storage: the leading dimension is the stored row length (row-major) or column height. */
    int64_t ar = c->transa == TG_TRANS ? c->k : c->m, ac = c->transa == TG_TRANS ? c->m : c->k;
    int64_t br = c->transb == TG_TRANS ? c->n : c->k, bc = c->transb == TG_TRANS ? c->k : c->n;
    p->lda = row ? ac : ar;
    p->ldb = row ? bc : br;
    p->ldc = row ? c->n : c->m;
    p->a_len = ar * ac;
    p->b_len = br * bc;
    p->c_len = c->m * c->n;
    p->a = malloc((size_t)p->a_len * p->es);
    p->b = malloc((size_t)p->b_len * p->es);
    p->c0 = malloc((size_t)p->c_len * p->es);
    p->cbuf = malloc((size_t)(p->c_len + 2 * GUARD) * p->es);
    if (!p->a || !p->b || !p->c0 || !p->cbuf) {
        tg__problem_free(p);
        return -1;
    }
    p->cmat = (char *)p->cbuf + GUARD * p->es;
    uint64_t s = seed;
    fill(p->es, p->a, p->a_len, &s);
    fill(p->es, p->b, p->b_len, &s);
    if (beta != 0) fill(p->es, p->c0, p->c_len, &s);
    else
        for (int64_t i = 0; i < p->c_len; i++) set(p->es, p->c0, i, NAN);
    memcpy(p->cmat, p->c0, (size_t)p->c_len * p->es);
    return 0;
}

void tg__problem_free(tg__problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c0);
    free(p->cbuf);
    p->a = p->b = p->c0 = p->cbuf = p->cmat = NULL;
}

int tg__problem_run(const tg__problem *p, const tg__impl_ops *ops)
{
    const tg__case *c = &p->c;
    if (p->es == 4)
        return ops->sgemm(c->layout, c->transa, c->transb, c->m, c->n, c->k, (float)p->alpha,
                          p->a, p->lda, p->b, p->ldb, (float)p->beta, p->cmat, p->ldc);
    return ops->dgemm(c->layout, c->transa, c->transb, c->m, c->n, c->k, p->alpha, p->a, p->lda,
                      p->b, p->ldb, p->beta, p->cmat, p->ldc);
}

/* Records a failure that has no ratio (memory, status, guards); the first message is kept. */
static void fail(tg__check_result *r, const char *fmt, ...)
{
    r->max_ratio = INFINITY;
    if (!r->ok) return;
    r->ok = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
}

/* Updates r with the ratio of an element and records a failure at (i, j) (row i when j < 0). */
static void ratio_seen(tg__check_result *r, double ratio, int64_t i, int64_t j, const char *what)
{
    if (isnan(ratio)) ratio = INFINITY;
    if (ratio > r->max_ratio) r->max_ratio = ratio;
    if (ratio >= TG__RATIO_LIMIT && r->ok) {
        r->ok = 0;
        if (j < 0)
            snprintf(r->msg, sizeof r->msg, "%s %lld: ratio %.3g, limit %g", what, (long long)i,
                     ratio, TG__RATIO_LIMIT);
        else
            snprintf(r->msg, sizeof r->msg, "%s(%lld, %lld): ratio %.3g, limit %g", what,
                     (long long)i, (long long)j, ratio, TG__RATIO_LIMIT);
    }
}

/* Exact reference of the rows i0..i0+mr-1 and columns j0..j0+nc-1 of C (a sub-problem of the same
 * call, reached by offsetting the raw pointers), then its ratio test. */
static void exact_block(const tg__problem *p, int64_t i0, int64_t mr, int64_t j0, int64_t nc,
                        tg__check_result *r)
{
    const tg__case *c = &p->c;
    size_t bytes = (size_t)(mr * nc) * sizeof(double);
    double *out = malloc(bytes), *bound = malloc(bytes);
    if (!out || !bound) {
        fail(r, "out of memory for the reference of %lld x %lld elements", (long long)mr,
             (long long)nc);
        free(out);
        free(bound);
        return;
    }
    const char *a = (const char *)p->a + idx(c->layout, c->transa, p->lda, i0, 0) * (int64_t)p->es;
    const char *b = (const char *)p->b + idx(c->layout, c->transb, p->ldb, 0, j0) * (int64_t)p->es;
    int64_t coff = idx(c->layout, TG_NO_TRANS, p->ldc, i0, j0) * (int64_t)p->es;
    tg_ref_gemm(p->es, c->layout, c->transa, c->transb, mr, nc, c->k, p->alpha, a, p->lda, b,
                p->ldb, p->beta, p->beta != 0 ? (const char *)p->c0 + coff : NULL, p->ldc, out,
                bound);
    int64_t wi, wj;
    double ratio = tg_ref_ratio(p->es, c->layout, mr, nc, (const char *)p->cmat + coff, p->ldc,
                                out, bound, &wi, &wj);
    ratio_seen(r, ratio, i0 + wi, j0 + wj, "C");
    free(out);
    free(bound);
}

/* C*t against alpha*A*(B*t) + beta*C0*t, row by row. */
static void randomized(const tg__problem *p, uint64_t *s, tg__check_result *r)
{
    const tg__case *c = &p->c;
    int64_t m = c->m, n = c->n, k = c->k;
    long double *t = malloc((size_t)n * sizeof *t), *u = malloc((size_t)k * sizeof *u),
                *ua = malloc((size_t)k * sizeof *ua);
    if (!t || !u || !ua) {
        fail(r, "out of memory for the randomized check (%lld x %lld)", (long long)m, (long long)n);
        goto out;
    }
    for (int64_t j = 0; j < n; j++) t[j] = uniform(s);
    for (int64_t q = 0; q < k; q++) { /* u = op(B) t, ua = |op(B)| |t| */
        long double acc = 0, mag = 0;
        for (int64_t j = 0; j < n; j++) {
            long double x = get(p->es, p->b, idx(c->layout, c->transb, p->ldb, q, j));
            acc += x * t[j];
            mag += fabsl(x) * fabsl(t[j]);
        }
        u[q] = acc;
        ua[q] = mag;
    }
    long double eps = p->es == 4 ? FLT_EPSILON : DBL_EPSILON;
    for (int64_t i = 0; i < m; i++) {
        long double y = 0, z = 0, bound = 0;
        for (int64_t j = 0; j < n; j++)
            y += get(p->es, p->cmat, idx(c->layout, TG_NO_TRANS, p->ldc, i, j)) * t[j];
        for (int64_t q = 0; q < k; q++) {
            long double x = get(p->es, p->a, idx(c->layout, c->transa, p->lda, i, q));
            z += x * u[q];
            bound += fabsl(x) * ua[q];
        }
        z *= p->alpha;
        bound *= fabs(p->alpha);
        if (p->beta != 0) {
            for (int64_t j = 0; j < n; j++) {
                long double x = get(p->es, p->c0, idx(c->layout, TG_NO_TRANS, p->ldc, i, j));
                z += p->beta * x * t[j];
                bound += fabs(p->beta) * fabsl(x) * fabsl(t[j]);
            }
        }
        long double diff = fabsl(y - z);
        double ratio = !isfinite((double)y) ? INFINITY : bound == 0 ? (diff == 0 ? 0 : INFINITY)
                                                                   : (double)(diff / (eps * bound));
        ratio_seen(r, ratio, i, -1, "C*t row");
    }
out:
    free(t);
    free(u);
    free(ua);
}

/* The lines to check exactly: the first, the last `last` ones and a few random ones (distinct). */
static int pick(int64_t len, int last, uint64_t *s, int64_t *out)
{
    int count = 0;
    out[count++] = 0;
    for (int64_t i = len - 1; i >= 1 && i >= len - last; i--) out[count++] = i;
    for (int r = 0; r < RANDOM_LINES && len > last + 1; r++)
        out[count++] = 1 + (int64_t)(next(s) % (uint64_t)(len - last - 1));
    return count;
}

void tg__check(tg__problem *p, const tg__impl_ops *ops, uint64_t seed, tg__check_result *r)
{
    const tg__case *c = &p->c;
    memset(r, 0, sizeof *r);
    r->ok = 1;
    int direct = c->m * c->n * c->k <= DIRECT_MAX && c->m * c->n <= DIRECT_MAX_C;
    r->method = direct ? "reference" : "randomized";
    memcpy(p->cmat, p->c0, (size_t)p->c_len * p->es);
    for (int64_t g = 0; g < GUARD; g++) {
        set(p->es, p->cbuf, g, GUARD_VALUE);
        set(p->es, p->cmat, p->c_len + g, GUARD_VALUE);
    }
    int st = tg__problem_run(p, ops);
    if (st == TG_ERR_UNSUPPORTED) { /* libxsmm has no kernel for this shape: a skip, not a failure */
        r->unsupported = 1;
        return;
    }
    if (st != 0) {
        fail(r, "the implementation returned status %d", st);
        return;
    }
    for (int64_t g = 0; g < GUARD; g++) {
        if (get(p->es, p->cbuf, g) != GUARD_VALUE)
            fail(r, "wrote before C (guard element %d before it changed)", (int)(GUARD - g));
        if (get(p->es, p->cmat, p->c_len + g) != GUARD_VALUE)
            fail(r, "wrote past the end of C (guard element %d after it changed)", (int)g);
    }
    uint64_t s = seed;
    if (direct) {
        exact_block(p, 0, c->m, 0, c->n, r);
    } else {
        randomized(p, &s, r);
        int64_t rows[1 + LAST_ROWS + RANDOM_LINES], cols[1 + LAST_COLS + RANDOM_LINES];
        int nr = pick(c->m, LAST_ROWS, &s, rows), nc = pick(c->n, LAST_COLS, &s, cols);
        for (int i = 0; i < nr; i++) exact_block(p, rows[i], 1, 0, c->n, r);
        for (int j = 0; j < nc; j++) exact_block(p, 0, c->m, cols[j], 1, r);
    }
}
