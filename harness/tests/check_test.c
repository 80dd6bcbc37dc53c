/* Tests of the harness's correctness check (harness/check.c): a checker is only as good as the bugs
 * it catches, so each test plants one -- a slightly wrong element in the last edge tile, a grossly
 * wrong element in the middle, a NaN, an element never written, a write past C -- and expects the
 * check to fail, on both of its paths (direct reference for small cases, randomized plus sampled
 * rows and columns for large ones), while the correct library passes in every layout and transpose.
 * Prints one line per test and ends with "N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "check.h"

typedef enum { GOOD, LAST_SLIGHT, MIDDLE_GROSS, ONE_NAN, SKIP_LAST_COL, PAST_END, DECLINE } fault;
static fault mode;

/* Where op(C)(i, j) lives for a dense C of the given layout. */
static int64_t at(int layout, int64_t ldc, int64_t i, int64_t j)
{
    return layout == TG_ROW_MAJOR ? i * ldc + j : i + j * ldc;
}

/* Applies the planted fault to a C the library computed. */
static void plant(int layout, int64_t m, int64_t n, int64_t ldc, double *get_set(void *, int64_t, double *),
                  void *c)
{
    double v;
    switch (mode) {
    case LAST_SLIGHT: /* one element of the last edge tile, off by 2^-10 relative */
        v = *get_set(c, at(layout, ldc, m - 1, n - 2), NULL);
        v += v / 1024;
        get_set(c, at(layout, ldc, m - 1, n - 2), &v);
        break;
    case MIDDLE_GROSS:
        v = *get_set(c, at(layout, ldc, m / 2, n / 2), NULL) + 1.0;
        get_set(c, at(layout, ldc, m / 2, n / 2), &v);
        break;
    case ONE_NAN:
        v = NAN;
        get_set(c, at(layout, ldc, m / 3, n / 3), &v);
        break;
    case SKIP_LAST_COL: /* as if the edge column were never written: the poison (NaN) stays */
        v = NAN;
        for (int64_t i = 0; i < m; i++) get_set(c, at(layout, ldc, i, n - 1), &v);
        break;
    case PAST_END:
        v = 0;
        get_set(c, m * n, &v);
        break;
    default:
        break;
    }
}

static double *get_set_f(void *c, int64_t i, double *v)
{
    static double out;
    if (v) ((float *)c)[i] = (float)*v;
    out = ((float *)c)[i];
    return &out;
}

static double *get_set_d(void *c, int64_t i, double *v)
{
    static double out;
    if (v) ((double *)c)[i] = *v;
    out = ((double *)c)[i];
    return &out;
}

static int sgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                 const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                 int64_t ldc)
{
    if (mode == DECLINE) return TG_ERR_UNSUPPORTED;
    int st = tg_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, a, lda, b,
                      ldb, beta, c, ldc);
    plant(layout, m, n, ldc, get_set_f, c);
    return st;
}

static int dgemm(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                 const double *a, int64_t lda, const double *b, int64_t ldb, double beta,
                 double *c, int64_t ldc)
{
    if (mode == DECLINE) return TG_ERR_UNSUPPORTED;
    int st = tg_dgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, a, lda, b,
                      ldb, beta, c, ldc);
    plant(layout, m, n, ldc, get_set_d, c);
    return st;
}

static void no_threads(int n) { (void)n; }
static const char *runs_all(const tg__case *c)
{
    (void)c;
    return NULL;
}

static int passed, failed;

/* Runs the check on one case with the current fault; expect: 1 pass, 0 fail. */
static void expect(const char *what, char dtype, int layout, int ta, int tb, int64_t m, int64_t n,
                   int64_t k, double beta, int want_ok, const char *want_method, const char *want_msg)
{
    tg__case c = {dtype, layout, ta, tb, m, n, k, 1, "custom", 0, 0};
    tg__impl_ops ops = {sgemm, dgemm, no_threads, runs_all};
    tg__problem p;
    tg__check_result r;
    if (tg__problem_init(&p, &c, 1.5, beta, 42) != 0) {
        printf("FAIL %s: no memory\n", what);
        failed++;
        return;
    }
    tg__check(&p, &ops, 7, &r);
    tg__problem_free(&p);
    int good = r.ok == want_ok && !r.unsupported && !strcmp(r.method, want_method) &&
               (!want_msg || strstr(r.msg, want_msg)) && (want_ok ? r.max_ratio < 16 : r.max_ratio >= 16);
    printf("%s %s (%c %s %c%c %lldx%lldx%lld beta %g): %s, %s, max ratio %.3g%s%s\n",
           good ? "ok  " : "FAIL", what, dtype, layout == TG_ROW_MAJOR ? "row" : "col",
           ta == TG_TRANS ? 'T' : 'N', tb == TG_TRANS ? 'T' : 'N', (long long)m, (long long)n,
           (long long)k, beta, r.ok ? "passed" : "failed", r.method, r.max_ratio,
           r.msg[0] ? ": " : "", r.msg);
    if (good) passed++;
    else failed++;
}

int main(void)
{
    /* Small (direct) and large (randomized: m*n*k > 2^24) shapes, with edges no tile size divides. */
    const int64_t small[3] = {37, 29, 23}, large[3] = {301, 293, 271};
    mode = GOOD;
    for (int t = 0; t < 4; t++) {
        int ta = t & 1 ? TG_TRANS : TG_NO_TRANS, tb = t & 2 ? TG_TRANS : TG_NO_TRANS;
        for (int l = 0; l < 2; l++) {
            int layout = l ? TG_COL_MAJOR : TG_ROW_MAJOR;
            expect("correct", 's', layout, ta, tb, small[0], small[1], small[2], 0, 1, "reference", NULL);
            expect("correct", 'd', layout, ta, tb, large[0], large[1], large[2], 0.5, 1, "randomized", NULL);
        }
    }
    expect("correct", 's', TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, large[0], large[1], large[2], -1, 1,
           "randomized", NULL);
    for (int dt = 0; dt < 2; dt++) {
        char d = dt ? 'd' : 's';
        mode = LAST_SLIGHT;
        expect("slightly wrong last-tile element", d, TG_ROW_MAJOR, TG_NO_TRANS, TG_TRANS, small[0],
               small[1], small[2], 0, 0, "reference", "C(");
        /* In fp32 the product with t cannot see it; the exact last rows and columns must. */
        expect("slightly wrong last-tile element", d, TG_COL_MAJOR, TG_TRANS, TG_NO_TRANS, large[0],
               large[1], large[2], 1, 0, "randomized", d == 's' ? "C(300, 291)" : NULL);
        mode = MIDDLE_GROSS; /* the product with t catches it before any sampled line */
        expect("grossly wrong middle element", d, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, large[0],
               large[1], large[2], 0, 0, "randomized", "C*t row 150");
        mode = ONE_NAN;
        expect("a NaN", d, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, large[0], large[1], large[2], 0, 0,
               "randomized", "C*t row 100");
        expect("a NaN", d, TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, small[0], small[1], small[2], 1, 0,
               "reference", "C(12, 9)");
        mode = SKIP_LAST_COL;
        expect("last column never written", d, TG_ROW_MAJOR, TG_TRANS, TG_TRANS, large[0], large[1],
               large[2], 0, 0, "randomized", NULL);
        mode = PAST_END;
        expect("a write past C", d, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, small[0], small[1], small[2],
               0, 0, "reference", "past the end");
    }
    /* An implementation that declines a case is a skip, not a failure. */
    mode = DECLINE;
    tg__case c = {'s', TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 1, "custom", 0, 0};
    tg__impl_ops ops = {sgemm, dgemm, no_threads, runs_all};
    tg__problem p;
    tg__check_result r;
    tg__problem_init(&p, &c, 1, 0, 1);
    tg__check(&p, &ops, 1, &r);
    tg__problem_free(&p);
    int good = r.unsupported && r.ok;
    printf("%s declined case is reported unsupported, not failed\n", good ? "ok  " : "FAIL");
    if (good) passed++;
    else failed++;
    printf("check: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
