/* CUDA SGEMM tests: every ladder step and the launcher against the fp64 reference and cuBLAS.
 *
 *   make test-cuda        (build/cuda/test_cuda; needs nvcc and the CUDA libraries, nothing else)
 *   make test-cuda-emulated  this same program, kernels included, on the CPU emulation in
 *                         tests/cuda/emu/ (small sizes; cuBLAS there is a plain-loop stand-in), in
 *                         `make test` on every machine
 *   TGEMM_TEST_SEED=N     replays one run (the seed is printed; inputs are fresh random otherwise)
 *   TGEMM_TEST_SMALL=1    skips the cases of size 1000 and more (reported skipped): for the runs
 *                         under compute-sanitizer (tests/cuda/gpu_session.sh)
 *   TGEMM_TEST_EVERY=N    runs one case of the plan in N, spread over steps, shapes and transposes
 *                         (the others reported skipped): for racecheck, whose instrumented shared
 *                         memory made the small run take minutes on the H100
 *   TGEMM_TEST_UNINIT_C=1 leaves C's device buffer unwritten before a beta-zero call, so that
 *                         compute-sanitizer --tool initcheck sees any read of C (the padding check of
 *                         those cases is then skipped: the padding holds nothing known)
 *
 * Each case draws fresh inputs uniform in [-1, 1] (padding included), poisons C with NaN when beta
 * is zero (a C that is read or an element never written shows up as NaN), runs one entry point, and
 * checks: the status; every element of the m x n result by the BLAS ratio test (< 16) against the
 * fp64 reference (common/reference.c on the CPU for small sizes; for sizes of 1000 and more cuBLAS
 * DGEMM on the upcast inputs, with the bound from a second DGEMM on their absolute values); the same
 * inputs through cuBLAS SGEMM (within 32 of ours: both within 16 of the truth, and cuBLAS itself
 * within 16, else the test's own cuBLAS call is wrong); and every element of C's buffer outside the
 * m x n result (the padding) bitwise untouched. Cases cover sizes 1, 7, 33, 100, 129, 1000, 4093,
 * all transposes, both layouts, padded and odd leading dimensions, pointers 1 float past a 16-byte
 * boundary (the scalar paths), alpha zero (A and B NULL), k zero, beta 0 / 1 / other; then invalid
 * arguments (TG_ERR_ARG, the parameter named, C untouched); a second run of the top kernels that
 * must match the first bit for bit; and the checker itself, which must fail a planted wrong element.
 *
 * Without a GPU nothing runs: the cases are counted and reported skipped, never passed.
 * Output ends with "N passed, N failed[, N skipped]".
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "reference.h"
#include "tgemm_cuda.h"

/* ---- the plan ---- */

typedef struct {
    int which; /* 0: tg_cuda_sgemm, 1..9: tg_cuda_sgemm_step */
    int layout, ta, tb;
    int64_t m, n, k;
    int pad;      /* extra elements in every leading dimension; -1: rounded up to a multiple of 4 */
    int misalign; /* A, B and C start 1 float past cudaMalloc's alignment */
    float alpha, beta;
    int null_ab;  /* alpha zero: pass A and B as NULL (they must not be read) */
    int repeat;   /* run twice, results must match bit for bit */
} gcase;

static gcase *plan;
static int plan_len, plan_cap;
static int passed, failed, skipped;
static int small_only, uninit_c, every = 1;
static uint64_t rng_state;

static double urand(void) /* uniform in [-1, 1) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) / 4503599627370496.0 - 1.0;
}

static void add(gcase c)
{
    if (plan_len == plan_cap) {
        plan_cap = plan_cap ? 2 * plan_cap : 256;
        plan = (gcase *)realloc(plan, plan_cap * sizeof *plan);
        if (!plan) abort();
    }
    plan[plan_len++] = c;
}

static const int layouts[2] = {TG_ROW_MAJOR, TG_COL_MAJOR}, transes[2] = {TG_NO_TRANS, TG_TRANS};

static gcase make_case(int which, int combo, int64_t m, int64_t n, int64_t k, int pad, int misalign,
                       int beta_kind)
{
    gcase c;
    memset(&c, 0, sizeof c);
    c.which = which;
    c.layout = layouts[combo / 4 % 2];
    c.ta = transes[combo / 2 % 2];
    c.tb = transes[combo % 2];
    c.m = m;
    c.n = n;
    c.k = k;
    c.pad = pad;
    c.misalign = misalign;
    c.alpha = beta_kind == 1 ? 1.f : (float)urand();
    if (c.alpha == 0.f) c.alpha = 0.5f;
    c.beta = beta_kind == 0 ? 0.f : beta_kind == 1 ? 1.f : (float)urand();
    return c;
}

static void build_plan(void)
{
    static const int64_t small[][3] = {{1, 1, 1},    {7, 33, 100}, {129, 100, 33}, {33, 129, 7},
                                       {100, 7, 129}, {1, 129, 33}, {129, 1, 100}};
    int steps = tg_cuda_sgemm_step_count(), v = 0;
    for (int which = 0; which <= steps; ++which) {
        for (int combo = 0; combo < 8; ++combo) {
            /* odd sizes: padding 0, 3 or 8, misaligned every other case, beta 0 / 1 / random */
            for (size_t s = 0; s < sizeof small / sizeof small[0]; ++s, ++v)
                add(make_case(which, combo, small[s][0], small[s][1], small[s][2],
                              v % 3 == 0 ? 0 : v % 3 == 1 ? 3 : 8, v / 3 % 2, v % 3));
            /* multiples of 4 with aligned leading dimensions: the 128-bit paths everywhere */
            add(make_case(which, combo, 64, 128, 48, combo % 2 ? 8 : 0, 0, combo % 3));
            add(make_case(which, combo, 256, 132, 36, 0, 0, (combo + 1) % 3));
            /* odd sizes on the 128-bit paths: edges that end inside a vector */
            add(make_case(which, combo, 130, 67, 21, -1, 0, combo % 3));
            add(make_case(which, combo, 5, 131, 66, -1, 0, (combo + 2) % 3));
        }
        /* large: 1000 misaligned with an odd padding, 4093 plain; reference by cuBLAS DGEMM */
        add(make_case(which, which % 8, 1000, 1000, 1000, 3, which % 2, 2));
        add(make_case(which, (which * 3) % 8, 4093, 4093, 4093, 0, 0, which % 3));
        add(make_case(which, (which * 5 + 1) % 8, 1001, 1003, 1002, -1, 0, (which + 1) % 3));
    }
    /* the launcher on skinny shapes, both tile sizes of its choice */
    add(make_case(0, 0, 4093, 33, 1000, 1, 1, 2));
    add(make_case(0, 5, 7, 4093, 1000, 0, 0, 0));
    add(make_case(0, 3, 1000, 7, 4093, 4, 0, 1));
    /* quick returns: alpha zero (A, B NULL) with beta 0 / 1 / other, k zero, m or n zero */
    for (int which = 0; which <= steps; which += steps) {
        for (int bk = 0; bk < 3; ++bk) {
            gcase c = make_case(which, 4 + bk, 33, 100, 7, 3, bk % 2, bk);
            c.alpha = 0.f;
            c.null_ab = 1;
            add(c);
        }
        add(make_case(which, 1, 100, 33, 0, 2, 1, 2));
        add(make_case(which, 2, 0, 33, 7, 1, 0, 2));
        add(make_case(which, 6, 33, 0, 7, 1, 0, 0));
    }
    /* determinism: the top kernels twice on the same inputs */
    for (int which = steps - 1; which <= steps; ++which) {
        gcase c = make_case(which, 0, 1000, 1000, 1000, 0, 0, 2);
        c.repeat = 1;
        add(c);
    }
    gcase c = make_case(0, 0, 1000, 1000, 1000, 0, 0, 0);
    c.repeat = 1;
    add(c);
}

/* ---- CUDA helpers ---- */

#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FATAL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));   \
            printf("%d passed, %d failed\n", passed, failed + 1);                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CUBLAS_OK(call)                                                                            \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            printf("FATAL %s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_);    \
            printf("%d passed, %d failed\n", passed, failed + 1);                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static cublasHandle_t blas;

__global__ void upcast(const float *x, double *y, double *yabs, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        y[i] = x[i];
        yabs[i] = fabs((double)x[i]);
    }
}

/* One stored operand: `vectors` runs of `len` elements, ld apart (as gemm_args.h counts them). */
typedef struct {
    int64_t ld, elems; /* elems: the whole buffer, padding included, plus the misalignment */
    float *h, *d;      /* the matrix starts at h + misalign, d + misalign */
} buf;

/* nan_fill: C of a beta-zero call, poisoned with NaN (or, with TGEMM_TEST_UNINIT_C, left unwritten
 * on the device). */
static buf make_buf(int64_t vectors, int64_t len, int pad, int misalign, int nan_fill)
{
    buf b;
    b.ld = pad < 0 ? (len + 3) / 4 * 4 + 4 : (len > 1 ? len : 1) + pad;
    b.elems = vectors * b.ld + misalign;
    if (b.elems < 1) b.elems = 1;
    b.h = (float *)malloc(b.elems * sizeof(float));
    if (!b.h) abort();
    for (int64_t i = 0; i < b.elems; ++i) b.h[i] = nan_fill ? NAN : (float)urand();
    CUDA_OK(cudaMalloc((void **)&b.d, b.elems * sizeof(float)));
    if (!(nan_fill && uninit_c))
        CUDA_OK(cudaMemcpy(b.d, b.h, b.elems * sizeof(float), cudaMemcpyHostToDevice));
    return b;
}

/* C's buffer back to the host. With C left unwritten (TGEMM_TEST_UNINIT_C, beta zero) only the
 * m x n result comes back: copying the padding, which nothing wrote, would be the test's own read of
 * uninitialized memory, and initcheck would report it. */
static void read_c(float *res, const gcase *c, const buf *C)
{
    int row = c->layout == TG_ROW_MAJOR;
    int64_t runs = row ? c->m : c->n, len = row ? c->n : c->m;
    if (!(uninit_c && c->beta == 0.f))
        CUDA_OK(cudaMemcpy(res, C->d, C->elems * sizeof(float), cudaMemcpyDeviceToHost));
    else if (runs > 0 && len > 0)
        CUDA_OK(cudaMemcpy2D(res + c->misalign, C->ld * sizeof(float), C->d + c->misalign,
                             C->ld * sizeof(float), len * sizeof(float), runs, cudaMemcpyDeviceToHost));
}

static void free_buf(buf *b)
{
    free(b->h);
    CUDA_OK(cudaFree(b->d));
}

static int run_ours(const gcase *c, const float *a, int64_t lda, const float *b, int64_t ldb, float *cc,
                    int64_t ldc)
{
    if (c->which == 0)
        return tg_cuda_sgemm((tg_layout)c->layout, (tg_trans)c->ta, (tg_trans)c->tb, c->m, c->n, c->k,
                             c->alpha, a, lda, b, ldb, c->beta, cc, ldc, 0);
    return tg_cuda_sgemm_step((tg_layout)c->layout, (tg_trans)c->ta, (tg_trans)c->tb, c->m, c->n, c->k,
                              c->alpha, a, lda, b, ldb, c->beta, cc, ldc, 0, c->which);
}

/* cuBLAS operations for C (as stored) = op(A) op(B): column-major directly; row-major as the
 * column-major Cᵀ = op(B)ᵀ op(A)ᵀ, B's storage first. */
static void blas_ops(const gcase *c, cublasOperation_t *first, cublasOperation_t *second)
{
    int row = c->layout == TG_ROW_MAJOR;
    if (row) {
        *first = c->tb == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
        *second = c->ta == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    } else {
        *first = c->ta == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
        *second = c->tb == TG_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    }
}

/* The fp64 reference for the big cases: Out (row-major m x n, dense) = op(A) op(B), computed as the
 * column-major n x m product op(B)ᵀ op(A)ᵀ (B's storage first), once on the values and once on their
 * absolute values for the bound; beta's term is added on the host from the raw C. */
static void big_reference(const gcase *c, const buf *A, const buf *B, const buf *C, double *out,
                          double *bound)
{
    int row = c->layout == TG_ROW_MAJOR;
    cublasOperation_t ob = (row ? c->tb == TG_TRANS : c->tb != TG_TRANS) ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t oa = (row ? c->ta == TG_TRANS : c->ta != TG_TRANS) ? CUBLAS_OP_T : CUBLAS_OP_N;
    double *a64, *aabs, *b64, *babs, *o64, one = 1, zero = 0;
    size_t mn = (size_t)(c->m * c->n);
    CUDA_OK(cudaMalloc((void **)&a64, A->elems * sizeof(double)));
    CUDA_OK(cudaMalloc((void **)&aabs, A->elems * sizeof(double)));
    CUDA_OK(cudaMalloc((void **)&b64, B->elems * sizeof(double)));
    CUDA_OK(cudaMalloc((void **)&babs, B->elems * sizeof(double)));
    CUDA_OK(cudaMalloc((void **)&o64, mn * sizeof(double)));
    upcast<<<1024, 256, 0, 0>>>(A->d, a64, aabs, A->elems);
    upcast<<<1024, 256, 0, 0>>>(B->d, b64, babs, B->elems);
    CUDA_OK(cudaGetLastError());
    int ma = c->misalign;
    CUBLAS_OK(cublasDgemm(blas, ob, oa, (int)c->n, (int)c->m, (int)c->k, &one, b64 + ma, (int)B->ld,
                          a64 + ma, (int)A->ld, &zero, o64, (int)c->n));
    CUDA_OK(cudaMemcpy(out, o64, mn * sizeof(double), cudaMemcpyDeviceToHost));
    CUBLAS_OK(cublasDgemm(blas, ob, oa, (int)c->n, (int)c->m, (int)c->k, &one, babs + ma, (int)B->ld,
                          aabs + ma, (int)A->ld, &zero, o64, (int)c->n));
    CUDA_OK(cudaMemcpy(bound, o64, mn * sizeof(double), cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < c->m; ++i)
        for (int64_t j = 0; j < c->n; ++j) {
            double *o = &out[i * c->n + j], *g = &bound[i * c->n + j];
            *o *= c->alpha;
            *g *= fabs(c->alpha);
            if (c->beta != 0) {
                double cij = tg_ref_at(4, C->h + ma, c->layout, TG_NO_TRANS, C->ld, i, j);
                *o += c->beta * cij;
                *g += fabs(c->beta) * fabs(cij);
            }
        }
    CUDA_OK(cudaFree(a64));
    CUDA_OK(cudaFree(aabs));
    CUDA_OK(cudaFree(b64));
    CUDA_OK(cudaFree(babs));
    CUDA_OK(cudaFree(o64));
}

static const char *case_name(const gcase *c)
{
    static char s[200];
    snprintf(s, sizeof s, "%s %s%s%s m=%lld n=%lld k=%lld pad=%d misalign=%d alpha=%g beta=%g%s",
             c->which ? tg_cuda_sgemm_step_name(c->which) : "tg_cuda_sgemm",
             c->layout == TG_ROW_MAJOR ? "row" : "col", c->ta == TG_TRANS ? "T" : "N",
             c->tb == TG_TRANS ? "T" : "N", (long long)c->m, (long long)c->n, (long long)c->k, c->pad,
             c->misalign, c->alpha, c->beta, c->null_ab ? " A=B=NULL" : "");
    return s;
}

static void verdict(int ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

/* Worst ratio per entry point, for the summary table. */
static double worst_ratio[16];

static int planted_checked;

/* The checker must catch what it exists to catch: a wrong element, a NaN, an unwritten element. */
static void check_the_checker(const gcase *c, float *res, int64_t ldc, const double *out, const double *bound)
{
    int64_t i = c->m / 2, j = c->n / 2;
    float *e = res + (c->layout == TG_ROW_MAJOR ? i * ldc + j : i + j * ldc), keep = *e;
    char d[160];
    *e = (float)(out[i * c->n + j] + 64 * FLT_EPSILON * bound[i * c->n + j]);
    double r1 = tg_ref_ratio(4, c->layout, c->m, c->n, res, ldc, out, bound, NULL, NULL);
    *e = NAN;
    double r2 = tg_ref_ratio(4, c->layout, c->m, c->n, res, ldc, out, bound, NULL, NULL);
    *e = keep;
    snprintf(d, sizeof d, "planted error 64 eps gave ratio %g, planted NaN %g", r1, r2);
    verdict(r1 >= 16 && isinf(r2), "the ratio test fails a planted wrong element and a NaN", d);
    planted_checked = 1;
}

static void run_case(const gcase *c)
{
    if (small_only && (c->m >= 1000 || c->n >= 1000 || c->k >= 1000)) {
        skipped++;
        return;
    }
    int row = c->layout == TG_ROW_MAJOR;
    int ta = c->ta == TG_TRANS, tb = c->tb == TG_TRANS;
    /* stored shapes, as runs of len elements (row-major XOR transposed: a run is a row of op(X)) */
    buf A = make_buf(row != ta ? c->m : c->k, row != ta ? c->k : c->m, c->pad, c->misalign, 0);
    buf B = make_buf(row != tb ? c->k : c->n, row != tb ? c->n : c->k, c->pad, c->misalign, 0);
    buf C = make_buf(row ? c->m : c->n, row ? c->n : c->m, c->pad, c->misalign, c->beta == 0.f);
    int ma = c->misalign, big = c->m >= 1000 || c->n >= 1000 || c->k >= 1000;
    size_t mn = (size_t)(c->m * c->n) + 1;
    double *out = (double *)malloc(mn * sizeof(double)), *bound = (double *)malloc(mn * sizeof(double));
    float *res = (float *)malloc(C.elems * sizeof(float)), *res2 = (float *)malloc(C.elems * sizeof(float));
    char d[400];
    int ok = 1;
    if (!out || !bound || !res || !res2) abort();
    const float *da = c->null_ab ? NULL : A.d + ma, *db = c->null_ab ? NULL : B.d + ma;

    int st = run_ours(c, da, A.ld, db, B.ld, C.d + ma, C.ld);
    CUDA_OK(cudaDeviceSynchronize());
    read_c(res, c, &C);
    if (st != TG_OK) {
        snprintf(d, sizeof d, "status %d (%s): %s", st, tg_strerror(st), tg_last_error());
        ok = 0;
    }
    if (ok && c->repeat) {
        CUDA_OK(cudaMemcpy(C.d, C.h, C.elems * sizeof(float), cudaMemcpyHostToDevice));
        st = run_ours(c, da, A.ld, db, B.ld, C.d + ma, C.ld);
        CUDA_OK(cudaDeviceSynchronize());
        read_c(res2, c, &C);
        int same = 1; /* the m x n result, bit for bit (the padding is checked below) */
        for (int64_t i = 0; i < c->m; ++i)
            for (int64_t j = 0; j < c->n; ++j) {
                int64_t x = ma + (row ? i * C.ld + j : i + j * C.ld);
                same = same && memcmp(&res[x], &res2[x], sizeof(float)) == 0;
            }
        if (st != TG_OK || !same) {
            snprintf(d, sizeof d, "a second run on the same inputs differs (status %d)", st);
            ok = 0;
        }
    }
    /* the padding of C, bitwise */
    for (int64_t x = 0; ok && !(uninit_c && c->beta == 0.f) && x < C.elems; ++x) {
        int64_t lin = x - ma, v = lin / C.ld, e = lin % C.ld;
        int inside = lin >= 0 && v < (row ? c->m : c->n) && e < (row ? c->n : c->m);
        if (!inside && memcmp(&res[x], &C.h[x], sizeof(float)) != 0) {
            snprintf(d, sizeof d, "element %lld of C's buffer, outside the result, was written",
                     (long long)x);
            ok = 0;
        }
    }
    if (ok && c->m > 0 && c->n > 0) {
        if (big)
            big_reference(c, &A, &B, &C, out, bound);
        else
            tg_ref_gemm(4, c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha,
                        c->null_ab ? NULL : A.h + ma, A.ld, c->null_ab ? NULL : B.h + ma, B.ld, c->beta,
                        c->beta == 0.f ? NULL : C.h + ma, C.ld, out, bound);
        int64_t wi, wj;
        double r = tg_ref_ratio(4, c->layout, c->m, c->n, res + ma, C.ld, out, bound, &wi, &wj);
        if (r > worst_ratio[c->which]) worst_ratio[c->which] = r;
        if (!(r < 16)) {
            double got = tg_ref_at(4, res + ma, c->layout, TG_NO_TRANS, C.ld, wi, wj);
            snprintf(d, sizeof d, "ratio %g at (%lld, %lld): got %.9g, want %.9g (bound %g)", r,
                     (long long)wi, (long long)wj, got, out[wi * c->n + wj], bound[wi * c->n + wj]);
            ok = 0;
        }
        if (ok && !planted_checked && !big && c->m > 2 && c->n > 2)
            check_the_checker(c, res + ma, C.ld, out, bound);
    }
    /* cuBLAS SGEMM on the same inputs */
    if (ok && c->m > 0 && c->n > 0 && c->k > 0 && c->alpha != 0.f) {
        cublasOperation_t o1, o2;
        float alpha = c->alpha, beta = c->beta;
        blas_ops(c, &o1, &o2);
        CUDA_OK(cudaMemcpy(C.d, C.h, C.elems * sizeof(float), cudaMemcpyHostToDevice));
        if (row)
            CUBLAS_OK(cublasSgemm(blas, o1, o2, (int)c->n, (int)c->m, (int)c->k, &alpha, B.d + ma,
                                  (int)B.ld, A.d + ma, (int)A.ld, &beta, C.d + ma, (int)C.ld));
        else
            CUBLAS_OK(cublasSgemm(blas, o1, o2, (int)c->m, (int)c->n, (int)c->k, &alpha, A.d + ma,
                                  (int)A.ld, B.d + ma, (int)B.ld, &beta, C.d + ma, (int)C.ld));
        CUDA_OK(cudaMemcpy(res2, C.d, C.elems * sizeof(float), cudaMemcpyDeviceToHost));
        double rb = tg_ref_ratio(4, c->layout, c->m, c->n, res2 + ma, C.ld, out, bound, NULL, NULL);
        for (int64_t i = 0; i < c->m; ++i)
            for (int64_t j = 0; j < c->n; ++j)
                out[i * c->n + j] = tg_ref_at(4, res2 + ma, c->layout, TG_NO_TRANS, C.ld, i, j);
        double rc = tg_ref_ratio(4, c->layout, c->m, c->n, res + ma, C.ld, out, bound, NULL, NULL);
        if (!(rb < 16)) {
            snprintf(d, sizeof d, "cuBLAS itself is off the reference (ratio %g): the test is wrong", rb);
            ok = 0;
        } else if (!(rc < 32)) {
            snprintf(d, sizeof d, "differs from cuBLAS SGEMM by ratio %g", rc);
            ok = 0;
        }
    }
    verdict(ok, case_name(c), d);
    free(out);
    free(bound);
    free(res);
    free(res2);
    free_buf(&A);
    free_buf(&B);
    free_buf(&C);
}

/* ---- invalid arguments ---- */

typedef struct {
    int pos; /* the parameter that must be named */
    int layout, ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    int null_a, null_b, null_c, step;
} bad_call;

static const bad_call bad_calls[] = {
    {1, 0, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 0, 0, 9},
    {2, TG_ROW_MAJOR, 0, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 0, 0, 9},
    {3, TG_ROW_MAJOR, TG_NO_TRANS, 113, 8, 8, 8, 8, 8, 8, 0, 0, 0, 9},
    {4, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, -1, 8, 8, 8, 8, 8, 0, 0, 0, 9},
    {5, TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, -1, 8, 8, 8, 8, 0, 0, 0, 9},
    {6, TG_COL_MAJOR, TG_TRANS, TG_NO_TRANS, 8, 8, -1, 8, 8, 8, 0, 0, 0, 9},
    {8, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 1, 0, 0, 9},
    {9, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 9, 8, 8, 8, 0, 0, 0, 9},  /* lda < k */
    {9, TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 9, 8, 8, 8, 8, 9, 0, 0, 0, 9},  /* lda < m */
    {9, TG_COL_MAJOR, TG_TRANS, TG_NO_TRANS, 4, 8, 8, 4, 8, 8, 0, 0, 0, 9},     /* lda < k */
    {9, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 0, 8, 0, 0, 8, 8, 0, 0, 0, 9},  /* m zero still */
    {10, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 1, 0, 9},
    {11, TG_ROW_MAJOR, TG_NO_TRANS, TG_TRANS, 8, 8, 9, 9, 8, 8, 0, 0, 0, 9},    /* ldb < k */
    {11, TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 9, 8, 8, 8, 0, 0, 0, 9}, /* ldb < k */
    {13, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 0, 1, 9},
    {14, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 9, 8, 8, 9, 8, 0, 0, 0, 9}, /* ldc < n */
    {14, TG_COL_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 9, 8, 8, 9, 8, 8, 0, 0, 0, 9}, /* ldc < m */
    {16, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0},
    {16, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 8, 8, 8, 0, 0, 0, 10},
    {9, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 8, 8, 8, 7, 8, 8, 0, 0, 0, -1}, /* call order */
};
#define N_BAD ((int)(sizeof bad_calls / sizeof bad_calls[0]))

/* Each bad call through tg_cuda_sgemm_step, and (but for the step's own) through tg_cuda_sgemm. */
static int bad_call_count(void)
{
    int n = 0;
    for (int i = 0; i < N_BAD; ++i) n += bad_calls[i].pos == 16 ? 1 : 2;
    return n;
}

static void run_bad_calls(void)
{
    const int64_t elems = 200;
    float *h = (float *)malloc(elems * sizeof(float)), *back = (float *)malloc(elems * sizeof(float));
    float *a, *b, *cc;
    if (!h || !back) abort();
    for (int64_t i = 0; i < elems; ++i) h[i] = (float)urand();
    CUDA_OK(cudaMalloc((void **)&a, elems * sizeof(float)));
    CUDA_OK(cudaMalloc((void **)&b, elems * sizeof(float)));
    CUDA_OK(cudaMalloc((void **)&cc, elems * sizeof(float)));
    CUDA_OK(cudaMemcpy(a, h, elems * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, h, elems * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < N_BAD; ++i) {
        const bad_call *x = &bad_calls[i];
        for (int api = 0; api < 2; ++api) {
            if (api == 1 && x->pos == 16) continue;
            char want[32], d[400];
            int st;
            CUDA_OK(cudaMemcpy(cc, h, elems * sizeof(float), cudaMemcpyHostToDevice));
            const float *pa = x->null_a ? NULL : a, *pb = x->null_b ? NULL : b;
            float *pc = x->null_c ? NULL : cc;
            if (api == 0)
                st = tg_cuda_sgemm_step((tg_layout)x->layout, (tg_trans)x->ta, (tg_trans)x->tb, x->m, x->n,
                                        x->k, 1.f, pa, x->lda, pb, x->ldb, 0.f, pc, x->ldc, 0, x->step);
            else
                st = tg_cuda_sgemm((tg_layout)x->layout, (tg_trans)x->ta, (tg_trans)x->tb, x->m, x->n,
                                   x->k, 1.f, pa, x->lda, pb, x->ldb, 0.f, pc, x->ldc, 0);
            CUDA_OK(cudaDeviceSynchronize());
            CUDA_OK(cudaMemcpy(back, cc, elems * sizeof(float), cudaMemcpyDeviceToHost));
            snprintf(want, sizeof want, "parameter %d (", x->pos);
            snprintf(d, sizeof d, "%s bad call %d: status %d, message \"%s\"%s",
                     api ? "tg_cuda_sgemm" : "tg_cuda_sgemm_step", i, st, tg_last_error(),
                     memcmp(h, back, elems * sizeof(float)) ? ", C was written" : "");
            verdict(st == TG_ERR_ARG && strstr(tg_last_error(), want) &&
                        strstr(tg_last_error(), api ? "tg_cuda_sgemm:" : "tg_cuda_sgemm_step:") &&
                        memcmp(h, back, elems * sizeof(float)) == 0,
                    "invalid argument rejected with its position, C untouched", d);
        }
    }
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
    CUDA_OK(cudaFree(cc));
    free(h);
    free(back);
}

static void check_names(void)
{
    char d[200];
    int n = tg_cuda_sgemm_step_count(), ok = n == 9 && !tg_cuda_sgemm_step_name(0) &&
                                              !tg_cuda_sgemm_step_name(n + 1);
    for (int s = 1; s <= n; ++s) ok = ok && tg_cuda_sgemm_step_name(s) && *tg_cuda_sgemm_step_name(s);
    snprintf(d, sizeof d, "count %d", n);
    verdict(ok, "9 ladder steps, each named, none outside 1..9", d);
}

int main(void)
{
    const char *seed = getenv("TGEMM_TEST_SEED");
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    rng_state = seed ? strtoull(seed, NULL, 10) : 0x9E3779B97F4A7C15ULL ^ (uint64_t)time(NULL);
    if (!rng_state) rng_state = 1;
    uint64_t seed_used = rng_state;
    small_only = getenv("TGEMM_TEST_SMALL") && atoi(getenv("TGEMM_TEST_SMALL"));
    uninit_c = getenv("TGEMM_TEST_UNINIT_C") && atoi(getenv("TGEMM_TEST_UNINIT_C"));
    const char *ev = getenv("TGEMM_TEST_EVERY");
    if (ev && atoi(ev) > 1) every = atoi(ev);
    /* Line by line even into a file: a run stopped at a sanitizer's time limit keeps what it said. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    build_plan();
    int total = plan_len + bad_call_count() + 2; /* + names + the checker's own test */
    if (e != cudaSuccess || devices == 0) {
        printf("no CUDA device (%s): %d tests skipped\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "none found", total);
        printf("0 passed, 0 failed, %d skipped\n", total);
        return 0;
    }
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d, %d SMs); seed %llu (TGEMM_TEST_SEED=%llu replays it)\n", prop.name,
           prop.major, prop.minor, prop.multiProcessorCount, (unsigned long long)seed_used,
           (unsigned long long)seed_used);
    CUBLAS_OK(cublasCreate(&blas));
    check_names();
    for (int i = 0; i < plan_len; ++i) {
        if (i % every == 0) run_case(&plan[i]);
        else skipped++;
    }
    if (!planted_checked) verdict(0, "the checker's own test never ran", "no small case passed");
    run_bad_calls();
    for (int w = 0; w <= tg_cuda_sgemm_step_count(); ++w)
        printf("  %-16s worst ratio %.3g\n", w ? tg_cuda_sgemm_step_name(w) : "tg_cuda_sgemm",
               worst_ratio[w]);
    CUBLAS_OK(cublasDestroy(blas));
    if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
