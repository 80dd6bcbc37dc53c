/* Operands, calls and the correctness check of the elementwise cases: see ew_bench.h.
 *
 * Every input element is a hash of (seed, array, index) mapped to [-10, 10], so the check can
 * regenerate the operands of any element -- even of an array the call overwrote in place -- without
 * keeping a copy of arrays that may be gigabytes; only a sample of them is checked when they are
 * that large. The references are straightforward: an exact operation is done once in the array's
 * type (IEEE arithmetic rounds correctly; fp32 products and sums are exact in double first); an
 * activation is evaluated in long double in forms that do not cancel for negative inputs (a
 * logistic function is (v >= 0 ? 1 : e) / (1 + e) with e = exp(-|v|), GELU erf uses erfc), so the
 * reference is good to far better than one ulp of the output.
 *
 * The STREAM references (implementations stream and stream_nt) do not compute the operation: they
 * run the ceilings' STREAM kernel of the case's pattern over its arrays, so their check is that
 * kernel's own loop, exactly (a copy equals its source, an add is x + y, the in-place updates are
 * s*a and s*b + a), on every element the output has.
 *
 * fp16 and bf16 (dtypes h and b, GPU only) are 16-bit patterns that the kernels compute in fp32
 * (cuda/elementwise/tgemm_elementwise.h): their reference is the fp32 result rounded once to the
 * type -- exact operations must match it, activations be within 1 ulp of it.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "ceilings.h"
#include "ew_bench.h"
#include "vendors.h"

#define GUARD 16                 /* elements on each side of the output: 32 to 128 bytes */
#define GUARD_VALUE 1232.0       /* exactly representable in every type, unlike any result */
#define ALL_MAX ((int64_t)1 << 22)
#define RANDOM_SAMPLES (1 << 18)
#define ULP_LIMIT 16.0
#define CHECK_ALPHA 0.7          /* inexact in binary: scale's products round */
#define TIMED_AXPY_ALPHA 0.7

/* ---- inputs ---- */
enum { ARR_X, ARR_Y, ARR_BIAS };

static uint64_t mix(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the array types, by dtype: s (fp32), d (fp64), h (fp16), b (bf16) ---- */
static int mantissa_bits(char t) { return t == 'd' ? 52 : t == 's' ? 23 : t == 'h' ? 10 : 7; }

/* v rounded to the nearest value of type t, ties to even (fp16 overflows to infinity past 65504). */
static double round_to(char t, double v)
{
    if (t == 'd' || v == 0 || !isfinite(v)) return v;
    if (t == 's') return (double)(float)v;
    int e = ilogb(v), lowest = t == 'h' ? -14 : -126; /* below: subnormal, a fixed spacing */
    double ulp = ldexp(1.0, (e < lowest ? lowest : e) - mantissa_bits(t));
    double r = nearbyint(v / ulp) * ulp;
    return t == 'h' && fabs(r) > 65504 ? copysign(INFINITY, v) : r;
}

/* The 16-bit pattern of v, a value of type t (h or b), NaN or an infinity. */
static uint16_t bits16(char t, double v)
{
    if (t == 'b') { /* bf16 is the upper half of an fp32 */
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        return (uint16_t)(u >> 16);
    }
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double m = fabs(v);
    if (isnan(m)) return sign | 0x7e00;
    if (isinf(m)) return sign | 0x7c00;
    if (m < 0x1p-14) return sign | (uint16_t)(m * 0x1p24); /* subnormal (or zero) */
    int e = ilogb(m);
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((ldexp(m, -e) - 1) * 1024);
}

static double value16(char t, uint16_t b)
{
    if (t == 'b') {
        uint32_t u = (uint32_t)b << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    int e = (b >> 10) & 0x1f, m = b & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return b & 0x8000 ? -v : v;
}

static void set(char t, void *a, int64_t i, double v)
{
    if (t == 's') ((float *)a)[i] = (float)v;
    else if (t == 'd') ((double *)a)[i] = v;
    else ((uint16_t *)a)[i] = bits16(t, round_to(t, v));
}

static double get(char t, const void *a, int64_t i)
{
    if (t == 's') return (double)((const float *)a)[i];
    if (t == 'd') return ((const double *)a)[i];
    return value16(t, ((const uint16_t *)a)[i]);
}

static double input(const tg__ew_problem *p, int arr, int64_t i)
{
    uint64_t h = mix(p->seed + 0x9e3779b97f4a7c15ull * ((uint64_t)i * 4 + (uint64_t)arr + 1));
    double v = (double)(h >> 11) * 0x1p-53 * 20 - 10;
    return round_to(p->c.dtype, v);
}

static void fill(const tg__ew_problem *p, void *a, int arr, int64_t n)
{
    for (int64_t i = 0; i < n; i++) set(p->c.dtype, a, i, input(p, arr, i));
}

/* ---- which arrays an operation has ---- */
static int reads_x(int op) { return op != TG__OP_SCALE && op != TG__OP_BIAS_ACT; }
static int reads_y(int op) { return op == TG__OP_ADD || op == TG__OP_SUB || op == TG__OP_MUL; }
int tg__ew_in_place(int op)
{
    return op == TG__OP_SCALE || op == TG__OP_AXPY || op == TG__OP_BIAS_ACT;
}

/* Whether the output is also an input; it holds array `arr` at first. */
static int in_place(int op, int *arr)
{
    *arr = op == TG__OP_AXPY ? ARR_Y : ARR_X;
    return tg__ew_in_place(op);
}

/* Whether the operation must be exact: all but the transcendental activations. */
static int is_exact(const tg__case *c)
{
    return !((c->op == TG__OP_ACTIVATE || c->op == TG__OP_BIAS_ACT) && c->act > TG_ACT_RELU);
}

/* One ulp of the output type at max(|v|, 2^-24 or 2^-53; fp16: 2^-14, below which its spacing is
 * fixed): the unit errors are counted in, so that far tails, where the value is negligible, are
 * judged in absolute terms. */
static long double unit(char t, long double v)
{
    long double m = fabsl(v), tiny = t == 'd' ? 0x1p-53L : t == 'h' ? 0x1p-14L : 0x1p-24L;
    if (m < tiny) m = tiny;
    return ldexpl(1.0L, ilogbl(m) - mantissa_bits(t));
}

static int is_vendor(int impl)
{
    return impl == TG__IMPL_OPENBLAS || impl == TG__IMPL_BLIS || impl == TG__IMPL_MKL;
}

static int is_stream(int impl) { return impl == TG__IMPL_STREAM || impl == TG__IMPL_STREAM_NT; }

/* The STREAM kernel of the case's pattern: the one its ceiling is measured with (ew_cases.c). */
static tg__stream stream_kind(const tg__case *c)
{
    const char *pattern = tg__ew_pattern(c, 0);
    for (int k = 0; k < TG__STREAM_COUNT; k++)
        if (!strcmp(pattern, tg__stream_name((tg__stream)k))) return (tg__stream)k;
    return TG__STREAM_COUNT;
}

/* The vendor's CBLAS routine for the case, or NULL. */
static void *vendor_fn(const tg__case *c)
{
    const char *name = c->op == TG__OP_AXPY ? (c->dtype == 's' ? "cblas_saxpy" : "cblas_daxpy")
                                            : (c->dtype == 's' ? "cblas_sscal" : "cblas_dscal");
    return tg__impl_sym(name);
}

const char *tg__ew_unsupported(int impl, const tg__case *c)
{
    /* call() below knows fp32 and fp64 only: a 2-byte array must never reach it */
    if (c->dtype == 'h' || c->dtype == 'b') return "the CPU implementations have no fp16 or bf16";
    if (impl == TG__IMPL_TGEMM || impl == TG__IMPL_PLANTED) return NULL;
    if (is_stream(impl)) {
        if (impl == TG__IMPL_STREAM_NT && tg__ew_in_place(c->op))
            return "non-temporal stores are for out-of-place patterns: an in-place update reads "
                   "every line it writes, so there is no line fill to skip (stream covers it)";
        return NULL;
    }
    if (!is_vendor(impl)) return "this library has no elementwise kernels";
    if (c->op != TG__OP_AXPY && c->op != TG__OP_SCALE)
        return "BLAS has axpy and scal only among these operations";
    if (tg__ew_elements(c) > 2147483647) return "CBLAS lengths are int: at most 2^31 - 1";
    if (!vendor_fn(c)) return "the library lacks cblas_?axpy / cblas_?scal";
    return NULL;
}

static void *alloc(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

int tg__ew_problem_init(tg__ew_problem *p, const tg__case *c, int impl, uint64_t seed,
                        const char *plant)
{
    memset(p, 0, sizeof *p);
    p->c = *c;
    p->impl = impl;
    p->es = c->dtype == 'd' ? 8 : c->dtype == 's' ? 4 : 2;
    p->n = tg__ew_elements(c);
    p->seed = seed;
    long long pm, pn, pk;
    p->planted = plant && sscanf(plant, "%lldx%lldx%lld", &pm, &pn, &pk) == 3 && pm == c->m &&
                 pn == c->n && pk == c->k;
    if (is_vendor(impl)) p->vendor_fn = vendor_fn(c);
    if (is_stream(impl)) p->stream = stream_kind(c);
    int arr, op = c->op;
    size_t bytes = (size_t)p->n * p->es;
    if (reads_x(op) && !(p->x = alloc(bytes))) goto nomem;
    if (reads_y(op) && !(p->y = alloc(bytes))) goto nomem;
    if (op == TG__OP_BIAS_ACT && (!(p->bias = alloc((size_t)c->n * p->es)) ||
                                  !(p->nbias = alloc((size_t)c->n * p->es))))
        goto nomem;
    if (!(p->zbuf = alloc(bytes + 2 * GUARD * p->es))) goto nomem;
    p->z = (char *)p->zbuf + GUARD * p->es;
    if (p->x) fill(p, p->x, ARR_X, p->n);
    if (p->y) fill(p, p->y, ARR_Y, p->n);
    if (p->bias) fill(p, p->bias, ARR_BIAS, c->n);
    for (int64_t i = 0; p->nbias && i < c->n; i++) set(p->c.dtype, p->nbias, i, -input(p, ARR_BIAS, i));
    /* the output is touched here, not in the first timed call */
    if (in_place(op, &arr)) fill(p, p->z, arr, p->n);
    else memset(p->z, 0, bytes);
    return 0;
nomem:
    tg__ew_problem_free(p);
    return -1;
}

void tg__ew_problem_free(tg__ew_problem *p)
{
    free(p->x);
    free(p->y);
    free(p->bias);
    free(p->nbias);
    free(p->zbuf);
    memset(p, 0, sizeof *p);
}

typedef void (*cblas_saxpy_t)(int, float, const float *, int, float *, int);
typedef void (*cblas_daxpy_t)(int, double, const double *, int, double *, int);
typedef void (*cblas_sscal_t)(int, float, float *, int);
typedef void (*cblas_dscal_t)(int, double, double *, int);

static int vendor_call(tg__ew_problem *p, double alpha)
{
    const int n32 = (int)p->n;
    if (p->c.op == TG__OP_AXPY && p->es == 4)
        ((cblas_saxpy_t)p->vendor_fn)(n32, (float)alpha, p->x, 1, p->z, 1);
    else if (p->c.op == TG__OP_AXPY)
        ((cblas_daxpy_t)p->vendor_fn)(n32, alpha, p->x, 1, p->z, 1);
    else if (p->es == 4)
        ((cblas_sscal_t)p->vendor_fn)(n32, (float)alpha, p->z, 1);
    else
        ((cblas_dscal_t)p->vendor_fn)(n32, alpha, p->z, 1);
    return TG_OK;
}

/* Element i of an array that may be absent (NULL: the pattern does not read it). */
static const void *at(const void *a, int64_t i, size_t es)
{
    return a ? (const char *)a + (size_t)i * es : NULL;
}

/* The STREAM reference: the ceilings' kernel of the case's pattern over the case's own arrays (the
 * output, x, and y for add), split as STREAM splits its loops: an OpenMP team of the case's thread
 * count, each thread one contiguous part (a static schedule), the parts starting on 64-byte lines
 * so that the kernel's vectors stay aligned. bias_act's bias is not read: at most 1024 elements
 * beside the 2^20 and more whose time is the point. */
static int stream_call(tg__ew_problem *p)
{
    const tg__stream kind = (tg__stream)p->stream;
    const int nt = p->impl == TG__IMPL_STREAM_NT;
    const int64_t n = p->n, line = 64 / (int64_t)p->es;
    const void *b = kind == TG__STREAM_SCALE_INPLACE ? NULL : p->x;
    const void *c = kind == TG__STREAM_ADD ? p->y : NULL;
#pragma omp parallel num_threads(p->c.threads)
    {
        const int64_t team = omp_get_num_threads();
        const int64_t part = ((n + team - 1) / team + line - 1) / line * line;
        const int64_t lo = omp_get_thread_num() * part, hi = lo + part < n ? lo + part : n;
        if (lo < hi && p->es == 8)
            tg__probe_stream(kind, nt, (double *)p->z + lo, at(b, lo, 8), at(c, lo, 8),
                             (size_t)(hi - lo), 1);
        else if (lo < hi)
            tg__probe_stream_f32(kind, nt, (float *)p->z + lo, at(b, lo, 4), at(c, lo, 4),
                                 (size_t)(hi - lo), 1);
    }
    return TG_OK;
}

static int tgemm_call(tg__ew_problem *p, double alpha)
{
    const tg__case *c = &p->c;
    const tg_dtype t = p->es == 4 ? TG_F32 : TG_F64;
    switch (c->op) {
    case TG__OP_ADD: return tg_add(t, p->n, p->x, p->y, p->z);
    case TG__OP_SUB: return tg_sub(t, p->n, p->x, p->y, p->z);
    case TG__OP_MUL: return tg_mul(t, p->n, p->x, p->y, p->z);
    case TG__OP_SCALE: return tg_scale(t, p->n, alpha, p->z);
    case TG__OP_AXPY: return tg_axpy(t, p->n, alpha, p->x, p->z);
    case TG__OP_ACTIVATE: return tg_activate(t, (tg_act)c->act, p->n, p->x, p->z);
    case TG__OP_BIAS_ACT:
        return tg_bias_act(t, TG_ROW_MAJOR, c->m, c->n, alpha < 0 ? p->nbias : p->bias,
                           TG_BIAS_PER_COL, (tg_act)c->act, p->z, c->n);
    default: return TG_ERR_UNSUPPORTED;
    }
}

/* What a call must have computed, as an operation the check knows: the case's own, or for a
 * STREAM reference the equivalent of its kernel's loop (copy: activate:none; add; in place
 * a = s*a: scale by s; a = s*b + a: axpy by s), always exact. */
typedef struct {
    int op, act;
    double alpha;
    int exact;
} expected;

static expected expect(const tg__ew_problem *p, double alpha)
{
    const char t = p->c.dtype;
    const double s = t == 'd' ? TG__STREAM_S_F64 : (double)TG__STREAM_S_F32;
    if (!is_stream(p->impl)) return (expected){p->c.op, p->c.act, alpha, is_exact(&p->c)};
    switch ((tg__stream)p->stream) {
    case TG__STREAM_COPY: return (expected){TG__OP_ACTIVATE, TG_ACT_NONE, 0, 1};
    case TG__STREAM_ADD: return (expected){TG__OP_ADD, TG_ACT_NONE, 0, 1};
    case TG__STREAM_SCALE_INPLACE: return (expected){TG__OP_SCALE, TG_ACT_NONE, s, 1};
    default: return (expected){TG__OP_AXPY, TG_ACT_NONE, s, 1};
    }
}

static int call(tg__ew_problem *p, double alpha)
{
    if (p->run) return p->run(p, alpha);
    int st = p->vendor_fn ? vendor_call(p, alpha)
             : is_stream(p->impl) ? stream_call(p)
                                  : tgemm_call(p, alpha);
    if (st == TG_OK && p->planted) {
        /* the last element, where a tail bug would live, just past what the check allows: one ulp
         * off for an exact operation, 64 for an activation (allowed: 16) */
        const char *mode = getenv("TGEMM_BENCH_PLANTED");
        if (mode && !strcmp(mode, "crash")) abort();
        const char t = p->c.dtype;
        double v = get(t, p->z, p->n - 1);
        if (!expect(p, alpha).exact) v += 64 * (double)unit(t, v);
        else v = p->es == 4 ? (double)nextafterf((float)v, INFINITY) : nextafter(v, INFINITY);
        set(t, p->z, p->n - 1, v);
    }
    return st;
}

double tg__ew_timed_alpha(int op, long visit)
{
    if (op == TG__OP_SCALE) return visit % 2 ? 0.5 : 2.0; /* exact: no drift, ever */
    if (op == TG__OP_AXPY) return visit % 2 ? -TIMED_AXPY_ALPHA : TIMED_AXPY_ALPHA;
    /* bias_act: the sign of the bias. Adding the same bias call after call would move every column
     * with a positive bias up by it each time (GELU and SiLU pass large values through), into
     * inputs far past any layer's and past where exp underflows, whose speed is not the
     * operation's: alternating its sign keeps C within about [-20, 20]. (The GPU worker's timed
     * calls keep the one bias, harness/cuda/worker.cu: NVIDIA's units take subnormals at full
     * speed, and its copy of the operands has no negated bias.) */
    if (op == TG__OP_BIAS_ACT) return visit % 2 ? -1 : 1;
    return 0;
}

int tg__ew_problem_run(tg__ew_problem *p)
{
    return call(p, tg__ew_timed_alpha(p->c.op, p->calls++));
}

/* ---- references ---- */

/* The logistic function 1 / (1 + exp(-v)) without cancellation or overflow. */
static long double logistic(long double v)
{
    long double e = expl(-fabsl(v));
    return (v >= 0 ? 1.0L : e) / (1.0L + e);
}

static long double act_ref(int act, long double v)
{
    static const long double sqrt_2_over_pi = 0.797884560802865355879892119868763737L;
    switch (act) {
    case TG_ACT_RELU: return v > 0 ? v : v == 0 ? v : 0.0L; /* max(0, -0) is -0 */
    case TG_ACT_GELU_TANH: /* x (1 + tanh u) / 2 = x logistic(2u) */
        return v * logistic(2 * sqrt_2_over_pi * (v + 0.044715L * v * v * v));
    case TG_ACT_GELU_ERF: return 0.5L * v * erfcl(-v / sqrtl(2.0L));
    case TG_ACT_SIGMOID: return logistic(v);
    case TG_ACT_SILU: return v * logistic(v);
    default: return v;
    }
}

/* a op b rounded once to the computation type: fp64 for fp64, else fp32. */
static double exact(char t, int op, double a, double b)
{
    double r = op == TG__OP_MUL || op == TG__OP_SCALE ? a * b : op == TG__OP_SUB ? a - b : a + b;
    return t == 'd' ? r : (double)(float)r; /* 32 bits or fewer: r is exact in double */
}

/* What the output must hold: fp16 and bf16 results are the fp32 result rounded to the type. */
static long double target(char t, long double ref)
{
    return t == 'h' || t == 'b' ? round_to(t, (double)(float)ref) : ref;
}

/* |got - ref| in ulps of the output type at max(|ref|, 2^-24 or 2^-53). */
static double ulps(char t, long double got, long double ref)
{
    if (isnan(got) || isnan(ref)) return isnan(got) && isnan(ref) ? 0 : INFINITY;
    if (isinf(got) || isinf(ref)) return got == ref ? 0 : INFINITY;
    return (double)(fabsl(got - ref) / unit(t, ref));
}

/* The error of element i of the output against what e says it must hold, in ulps. */
static double element_error(const tg__ew_problem *p, int64_t i, const expected *e)
{
    const int op = e->op, act = e->act;
    const char t = p->c.dtype;
    const double got = get(t, p->z, i);
    const double a = round_to(t, e->alpha); /* alpha in the array's type */
    switch (op) {
    case TG__OP_ADD: case TG__OP_SUB: case TG__OP_MUL:
        return ulps(t, got, target(t, exact(t, op, input(p, ARR_X, i), input(p, ARR_Y, i))));
    case TG__OP_SCALE: return ulps(t, got, target(t, exact(t, op, a, input(p, ARR_X, i))));
    case TG__OP_AXPY: {
        double x = input(p, ARR_X, i), y = input(p, ARR_Y, i);
        double fused = t == 'd' ? fma(a, x, y) : (double)fmaf((float)a, (float)x, (float)y);
        double unfused = exact(t, TG__OP_ADD, exact(t, TG__OP_MUL, a, x), y);
        double e1 = ulps(t, got, target(t, fused)), e2 = ulps(t, got, target(t, unfused));
        return e1 < e2 ? e1 : e2;
    }
    case TG__OP_ACTIVATE: return ulps(t, got, target(t, act_ref(act, input(p, ARR_X, i))));
    case TG__OP_BIAS_ACT: { /* the sum rounded to the computation type, then the activation */
        double s = exact(t, TG__OP_ADD, input(p, ARR_X, i), input(p, ARR_BIAS, i % p->c.n));
        return ulps(t, got, target(t, act_ref(act, s)));
    }
    default: return INFINITY;
    }
}

static uint64_t next(uint64_t *s) { return mix(*s += 0x9e3779b97f4a7c15ull); }

void tg__ew_check(tg__ew_problem *p, uint64_t seed, tg__ew_check_result *r)
{
    memset(r, 0, sizeof *r);
    const char t = p->c.dtype;
    const int64_t n = p->n;
    int arr;
    /* Fresh operands; an output that is not also an input starts as NaN, so an element the call
     * forgets to write fails. */
    if (in_place(p->c.op, &arr)) fill(p, p->z, arr, n);
    else
        for (int64_t i = 0; i < n; i++) set(t, p->z, i, NAN);
    for (int64_t g = 0; g < GUARD; g++) {
        set(t, p->zbuf, g, GUARD_VALUE);
        set(t, p->z, n + g, GUARD_VALUE);
    }
    r->method = n <= ALL_MAX ? "all" : "sampled";
    int st = call(p, CHECK_ALPHA);
    if (st != TG_OK) {
        r->max_ulps = INFINITY;
        snprintf(r->msg, sizeof r->msg, "the call returned status %d (%s)", st, tg_strerror(st));
        return;
    }
    for (int64_t g = 0; g < GUARD; g++)
        if (get(t, p->zbuf, g) != GUARD_VALUE || get(t, p->z, n + g) != GUARD_VALUE) {
            r->max_ulps = INFINITY;
            snprintf(r->msg, sizeof r->msg, "wrote outside the output (guard element %s %lld)",
                     get(t, p->zbuf, g) != GUARD_VALUE ? "before" : "after", (long long)g);
            return;
        }
    int64_t worst = -1;
    const expected e = expect(p, CHECK_ALPHA);
    /* visits element i: keeps the worst error and the first element over the limit */
#define VISIT(i)                                                                                  \
    do {                                                                                          \
        double e_ = element_error(p, (i), &e);                                                    \
        if (!(e_ <= r->max_ulps)) {                                                               \
            r->max_ulps = e_;                                                                     \
            worst = (i);                                                                          \
        }                                                                                         \
    } while (0)
    if (n <= ALL_MAX) {
        for (int64_t i = 0; i < n; i++) VISIT(i);
    } else {
        for (int64_t i = 0; i < 4096; i++) {
            VISIT(i);
            VISIT(n - 1 - i);
        }
        for (int k = 1; k < 32; k++)
            for (int64_t i = n / 32 * k - 256; i < n / 32 * k + 256; i++) VISIT(i);
        uint64_t s = seed;
        for (int k = 0; k < RANDOM_SAMPLES; k++) VISIT((int64_t)(next(&s) % (uint64_t)n));
    }
#undef VISIT
    double limit = e.exact ? 0 : t == 'h' || t == 'b' ? 1 : ULP_LIMIT;
    r->ok = r->max_ulps <= limit;
    if (!r->ok) {
        char op[48] = "STREAM ";
        if (is_stream(p->impl)) strcat(op, tg__stream_name((tg__stream)p->stream));
        else tg__ew_op_str(p->c.op, p->c.act, op, sizeof op);
        snprintf(r->msg, sizeof r->msg, "%s element %lld is %.9g, %.3g ulps off (limit %g%s)", op,
                 (long long)worst, get(t, p->z, worst), r->max_ulps, limit,
                 e.exact ? ": the operation is exact" : "");
    }
}
