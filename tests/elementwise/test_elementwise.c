/* Tests of the CPU elementwise kernels (tg_add ... tg_bias_act): exactness, accuracy, specials,
 * layouts, bad arguments, aliasing, threads.
 *
 * The library reads TGEMM_ARCH once per process, so elementwise.mk runs this binary once per kernel
 * family. References are independent of the library: add, sub, mul, scale, ReLU are the type's own
 * correctly rounded operations and axpy the C library's fma, compared bit for bit; the activations
 * are evaluated in long double (64-bit significand on x86-64) and judged in ulps of the output type,
 * the ulp taken of max(|reference|, 2^-24) for float and max(|reference|, 2^-53) for double, so that
 * far tails where the value is negligible are judged in absolute terms. Outputs are poisoned before
 * each call and the elements around them checked untouched.
 *
 * usage: test_elementwise [--large | --sweep [STRIDE]]
 *   --large: one in-place pass over more than 2^31 floats (~8.6 GB)
 *   --sweep: the activations' worst error over every STRIDE-th float (default 17) of [-20, 10] and
 *            10^7 random doubles (a minute or more per kernel family)
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TGEMM_EW_HEADER: built on the single header alone, this file its one implementation. */
#ifdef TGEMM_EW_HEADER
#define TGEMM_IMPLEMENTATION
#include "tgemm.h"
#else
#include "api.h"
#endif

static int passed, failed;
static uint64_t rng = 0x9E3779B97F4A7C15u;

static void check(int ok, const char *what)
{
    if (ok) passed++;
    else {
        failed++;
        if (failed <= 30) printf("FAIL %s\n", what);
    }
}

static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1p-53;
}

/* Inputs: uniform in [-10, 10] with the special values sprinkled in. */
static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e30, -1e30};
#define NSPECIAL (int)(sizeof specials / sizeof specials[0])
static double input(int64_t i) { return i % 11 == 5 ? specials[(i / 11) % NSPECIAL] : uniform(-10, 10); }
/* The same specials among magnitudes spread evenly in exponent, 2^-30 to 2^10, either sign: the
 * tails where the activations reach their limits, deep subnormal or exactly x. */
static double input_wide(int64_t i)
{
    return i % 11 == 5 ? specials[(i / 11) % NSPECIAL] : (uniform(-1, 1) < 0 ? -1 : 1) * exp2(uniform(-30, 10));
}

#include "ew_ref.h"

static const char *act_name(tg_act a)
{
    static const char *names[] = {"none", "relu", "gelu_tanh", "gelu_erf", "sigmoid", "silu"};
    return names[a];
}

/* The reference self-check: where there is no cancellation (x >= 0) the rewritten forms equal the
 * textbook ones. */
static void test_reference(void)
{
    int i, ok = 1;
    for (i = 0; i < 1000; i++) {
        long double x = uniform(0, 10), pi = 3.14159265358979323846264338327950288L;
        long double u = sqrtl(2 / pi) * (x + 0.044715L * x * x * x);
        long double gt = 0.5L * x * (1 + tanhl(u)), ge = 0.5L * x * (1 + erfl(x / sqrtl(2)));
        ok &= ulps(TG_F64, (double)gt, act_ref(TG_ACT_GELU_TANH, x)) < 1;
        ok &= ulps(TG_F64, (double)ge, act_ref(TG_ACT_GELU_ERF, x)) < 1;
    }
    check(ok, "reference: rewritten GELU forms equal the textbook ones for x >= 0");
}

/* ---- the 1-D operations, bit for bit ---- */
enum { OP_ADD, OP_SUB, OP_MUL, OP_SCALE, OP_AXPY, OP_RELU, NOPS };
static const char *op_names[] = {"add", "sub", "mul", "scale", "axpy", "relu"};

static double exact(tg_dtype t, int op, double alpha, double x, double y)
{
    if (t == TG_F32) {
        float a = (float)alpha, fx = (float)x, fy = (float)y;
        switch (op) {
        case OP_ADD: return fx + fy;
        case OP_SUB: return fx - fy;
        case OP_MUL: return fx * fy;
        case OP_SCALE: return a * fx;
        case OP_AXPY: return fmaf(a, fx, fy);
        default: return 0 > fx ? 0 : fx;
        }
    }
    switch (op) {
    case OP_ADD: return x + y;
    case OP_SUB: return x - y;
    case OP_MUL: return x * y;
    case OP_SCALE: return alpha * x;
    case OP_AXPY: return fma(alpha, x, y);
    default: return 0 > x ? 0 : x;
    }
}

/* Runs op on n elements at element offsets ox, oy, oz from 64-byte aligned buffers (plus a byte
 * offset for z, so that z may be misaligned even to its element) and checks every result and the
 * poisoned guard elements around z. In place when oz < 0 (z is x; for axpy, z is y). */
#define GUARD 8
static void run_1d(tg_dtype t, int op, int64_t n, int ox, int oy, int oz)
{
    size_t es = es_of(t), bytes = (size_t)(n + 2 * GUARD + 8) * es;
    unsigned char *xb = (unsigned char *)aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *yb = (unsigned char *)aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *zb = (unsigned char *)aligned_alloc(64, (bytes + 63) / 64 * 64);
    int inplace = oz < 0;
    void *x = xb + (GUARD + ox) * es, *y = yb + (GUARD + oy) * es;
    void *z = inplace ? (op == OP_AXPY ? y : x) : zb + (GUARD + oz) * es;
    double *x0 = (double *)malloc((size_t)(n + 1) * sizeof(double));
    double *y0 = (double *)malloc((size_t)(n + 1) * sizeof(double));
    double alpha = uniform(-3, 3);
    int64_t i, bad = 0, guards_bad = 0;
    int st = TG_OK;
    char what[160];
    if (!xb || !yb || !zb || !x0 || !y0) { printf("out of memory\n"); exit(2); }
    memset(zb, 0x7b, bytes);
    for (i = 0; i < n; i++) {
        put(t, x, i, input(i));
        put(t, y, i, input(i + 3));
        x0[i] = get(t, x, i);
        y0[i] = get(t, y, i);
    }
    switch (op) {
    case OP_ADD: st = tg_add(t, n, x, y, z); break;
    case OP_SUB: st = tg_sub(t, n, x, y, z); break;
    case OP_MUL: st = tg_mul(t, n, x, y, z); break;
    case OP_SCALE: st = inplace ? tg_scale(t, n, alpha, x) : (memcpy(z, x, (size_t)n * es), tg_scale(t, n, alpha, z)); break;
    case OP_AXPY: if (!inplace) memcpy(z, y, (size_t)n * es); st = tg_axpy(t, n, alpha, x, z); break;
    case OP_RELU: st = tg_activate(t, TG_ACT_RELU, n, x, z); break;
    }
    for (i = 0; i < n; i++)
        if (!same(get(t, z, i), exact(t, op, alpha, x0[i], y0[i]))) {
            if (!bad) printf("  %s %s n=%lld: element %lld = %.9g, expected %.9g\n", op_names[op],
                             t == TG_F32 ? "f32" : "f64", (long long)n, (long long)i, get(t, z, i),
                             exact(t, op, alpha, x0[i], y0[i]));
            bad++;
        }
    if (!inplace)
        for (i = 0; i < GUARD; i++) {
            const unsigned char *lo = (const unsigned char *)z - (i + 1) * (int64_t)es;
            const unsigned char *hi = (const unsigned char *)z + (n + i) * (int64_t)es;
            size_t b;
            for (b = 0; b < es; b++) guards_bad += (lo[b] != 0x7b) + (hi[b] != 0x7b);
        }
    snprintf(what, sizeof what, "%s %s n=%lld offsets x%d y%d z%d: status, %lld wrong, %lld guard bytes",
             op_names[op], t == TG_F32 ? "f32" : "f64", (long long)n, ox, oy, oz, (long long)bad,
             (long long)guards_bad);
    check(st == TG_OK && bad == 0 && guards_bad == 0, what);
    free(xb), free(yb), free(zb), free(x0), free(y0);
}

static void test_exact(void)
{
    static const int64_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 67, 1000, 4099};
    int ti, op, s, o;
    for (ti = 0; ti < 2; ti++)
        for (op = 0; op < NOPS; op++)
            for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
                for (o = 0; o < 5; o++) /* element offsets: aligned, shared and different misalignments */
                    run_1d(ti ? TG_F64 : TG_F32, op, sizes[s], o == 4 ? 0 : o, o == 3 ? 1 : o,
                           o == 4 ? -1 : o == 3 ? 2 : o);
}

/* Large enough for the threads (the streamed stores: the run with TGEMM_EW_STREAM_BYTES), odd to
 * leave a tail. */
static void test_threads(void)
{
    int ti, op;
    for (ti = 0; ti < 2; ti++)
        for (op = 0; op < NOPS; op++) {
            tg_set_num_threads(2);
            run_1d(ti ? TG_F64 : TG_F32, op, (1 << 21) + 5, 1, 2, 3);
            run_1d(ti ? TG_F64 : TG_F32, op, (1 << 21) + 5, 0, 0, -1);
            tg_set_num_threads(0);
        }
}

/* ---- activations: ulps against the long double reference ---- */
static double worst[2][6];

static void run_act(tg_dtype t, tg_act act, int64_t n, int off, int inplace, double (*gen)(int64_t))
{
    size_t es = es_of(t);
    unsigned char *xb = (unsigned char *)calloc((size_t)(n + 2 * GUARD), es);
    unsigned char *zb = (unsigned char *)malloc((size_t)(n + 2 * GUARD) * es);
    void *x = xb + (GUARD + off) * es, *z = inplace ? x : zb + GUARD * es;
    double *x0 = (double *)malloc((size_t)(n + 1) * sizeof(double));
    int64_t i, bad = 0;
    double w = 0;
    int st;
    char what[160];
    if (!xb || !zb || !x0) { printf("out of memory\n"); exit(2); }
    memset(zb, 0x7b, (size_t)(n + 2 * GUARD) * es);
    for (i = 0; i < n; i++) {
        put(t, x, i, gen(i));
        x0[i] = get(t, x, i);
    }
    st = tg_activate(t, act, n, x, z);
    for (i = 0; i < n; i++) {
        double e = ulps(t, get(t, z, i), act_ref(act, x0[i]));
        if (e > w) w = e;
        if (!(e <= 16)) {
            if (!bad) printf("  %s %s: act(%.17g) = %.17g, reference %.17Lg (%.1f ulp)\n", act_name(act),
                             t == TG_F32 ? "f32" : "f64", x0[i], get(t, z, i), act_ref(act, x0[i]), e);
            bad++;
        }
    }
    if (!inplace)
        for (i = 0; i < GUARD * (int64_t)es; i++)
            bad += (zb[i] != 0x7b) + (((unsigned char *)z)[n * (int64_t)es + i] != 0x7b);
    if (w > worst[t == TG_F64][act]) worst[t == TG_F64][act] = w;
    snprintf(what, sizeof what, "activate %s %s n=%lld%s: %lld wrong (worst %.2f ulp)", act_name(act),
             t == TG_F32 ? "f32" : "f64", (long long)n, gen == input ? "" : " wide", (long long)bad, w);
    check(st == TG_OK && bad == 0, what);
    free(xb), free(zb), free(x0);
}

static void test_activations(void)
{
    int ti, a;
    for (ti = 0; ti < 2; ti++)
        for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++) {
            tg_dtype t = ti ? TG_F64 : TG_F32;
            run_act(t, (tg_act)a, 0, 0, 0, input);
            run_act(t, (tg_act)a, 13, 1, 0, input);
            run_act(t, (tg_act)a, 200003, 3, 0, input); /* threads; the sample for the worst-case table */
            run_act(t, (tg_act)a, 1001, 0, 1, input);
            run_act(t, (tg_act)a, 100003, 5, 0, input_wide);
        }
    printf("worst error in ulps (bound 16):");
    for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++)
        printf(" %s f32 %.2f f64 %.2f;", act_name((tg_act)a), worst[0][a], worst[1][a]);
    printf("\n");
}

/* The same for tg_bias_act, whose rows are runs with a y (per-column bias) or a scalar (per-row
 * bias), in place: 17 rows of the same inputs, ldc odd so that the rows start at every offset from
 * a vector boundary, must all give row 0's bits, for every row length from 1 to 61. */
static void test_position_bias(void)
{
    enum { R = 17, C = 61 };
    static double vals[C], bias_col[C], bias_row[R];
    int ti, a, mode, cols, r, j, bad;
    for (j = 0; j < C; j++) vals[j] = input(j), bias_col[j] = uniform(-1, 1);
    for (r = 0; r < R; r++) bias_row[r] = 0.25;
    for (ti = 0; ti < 2; ti++)
        for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++)
            for (mode = 0; mode < 2; mode++) {
                tg_dtype t = ti ? TG_F64 : TG_F32;
                void *c = aligned_alloc(64, (R * (C + 1) * 8 + 63) / 64 * 64);
                void *b = aligned_alloc(64, (C * 8 + 63) / 64 * 64);
                char what[96];
                bad = 0;
                for (j = 0; j < C; j++) put(t, b, j, mode ? bias_col[j] : bias_row[0]);
                for (cols = 1; cols <= C; cols++) {
                    int64_t ldc = cols | 1;
                    for (r = 0; r < R; r++)
                        for (j = 0; j < cols; j++) put(t, c, r * ldc + j, vals[j]);
                    tg_bias_act(t, TG_ROW_MAJOR, R, cols, b, mode ? TG_BIAS_PER_COL : TG_BIAS_PER_ROW,
                                (tg_act)a, c, ldc);
                    for (r = 1; r < R; r++)
                        for (j = 0; j < cols; j++) bad += !same(get(t, c, r * ldc + j), get(t, c, j));
                }
                snprintf(what, sizeof what, "bias_act %s %s per %s: same bits in every row, lengths 1-%d",
                         act_name((tg_act)a), ti ? "f64" : "f32", mode ? "column" : "row", C);
                check(bad == 0, what);
                free(c), free(b);
            }
}

/* An element's result does not depend on where it sits: the same 61 inputs activated at element
 * offsets 0 to 16 from a 64-byte boundary, and in runs of 1 to 61 elements, give the same bits as at
 * offset 0 in one run (the vector families compute heads and tails with the body's vector code,
 * the portable family every element alike). A head or tail computed another way, as the portable
 * double functions once did, shows here as a difference of an ulp or more. */
static void test_position(void)
{
    enum { N = 61, OFF = 17 };
    static double buf[N], base[N], got[N];
    int ti, a, o, i, len, bad;
    for (ti = 0; ti < 2; ti++)
        for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++) {
            tg_dtype t = ti ? TG_F64 : TG_F32;
            char what[96];
            void *x = aligned_alloc(64, 1024), *z = aligned_alloc(64, 1024);
            bad = 0;
            for (i = 0; i < N; i++) buf[i] = input(i);
            for (i = 0; i < N; i++) put(t, x, i, buf[i]);
            tg_activate(t, (tg_act)a, N, x, z);
            for (i = 0; i < N; i++) base[i] = get(t, z, i);
            for (o = 1; o < OFF; o++) { /* shifted: x and z both start o elements past the boundary */
                for (i = 0; i < N; i++) put(t, x, o + i, buf[i]);
                tg_activate(t, (tg_act)a, N, (char *)x + o * es_of(t), (char *)z + o * es_of(t));
                for (i = 0; i < N; i++) bad += !same(get(t, z, o + i), base[i]);
            }
            for (len = 1; len < N; len++) { /* shorter runs: the last N - len inputs, from offset 0 */
                for (i = 0; i < N; i++) put(t, x, i, buf[i]);
                tg_activate(t, (tg_act)a, N - len, (char *)x + len * es_of(t), z);
                for (i = 0; i < N - len; i++) got[i] = get(t, z, i);
                for (i = 0; i < N - len; i++) bad += !same(got[i], base[len + i]);
            }
            snprintf(what, sizeof what, "activate %s %s: same bits at every offset and run length",
                     act_name((tg_act)a), ti ? "f64" : "f32");
            check(bad == 0, what);
            free(x), free(z);
        }
    test_position_bias();
}

/* Special inputs one by one: NaN gives NaN, the infinities the limits, and the signs of zero; and
 * the type's largest finite values, where x times anything above 1 on the way to x s(v) or x Phi(x)
 * would overflow. */
static void test_specials(void)
{
    int ti, a, s;
    for (ti = 0; ti < 2; ti++)
        for (a = TG_ACT_NONE; a <= TG_ACT_SILU; a++)
            for (s = 0; s < NSPECIAL + 4; s++) {
                tg_dtype t = ti ? TG_F64 : TG_F32;
                const double max = ti ? DBL_MAX : FLT_MAX;
                const double big[4] = {max, -max, 0.75 * max, -0.75 * max};
                const double v = s < NSPECIAL ? specials[s] : big[s - NSPECIAL];
                double in[1], out[1] = {12345};
                long double ref = act_ref((tg_act)a, (t == TG_F32) ? (float)v : v);
                char what[120];
                int status;
                put(t, in, 0, v);
                put(t, out, 0, 12345);
                status = tg_activate(t, (tg_act)a, 1, in, out);
                snprintf(what, sizeof what, "%s %s(%g) = %g", t == TG_F32 ? "f32" : "f64",
                         act_name((tg_act)a), v, get(t, out, 0));
                check(status == TG_OK && ulps(t, get(t, out, 0), ref) <= (a <= TG_ACT_RELU ? 0 : 16) &&
                          (!isnan(v) || isnan(get(t, out, 0))),
                      what);
            }
}

/* Far tails: inputs whose exp argument lies past the point where the vector families flush exp to
 * 0 (elementwise_act_simd.inc), on to -MAX. Every result is within the bound, and the vector
 * families' are exactly 0 with the sign of the true result: a flush point moved off its band would
 * leave tiny stray values there (x times whatever exp gives at the clamp), which the ulp bound,
 * absolute at these sizes, lets pass. AVX-512's double exp underflows gradually down to its own,
 * farther flush point: there the first lists are its subnormal sliver, within the bound only, and
 * the last list is past its flush. Each list four times over, so that the body runs too. */
static void test_tails(void)
{
    static const double lists[][3][8] = {
        {{-10.1, -10.5, -11, -12, -20, -1e3, -1e30, -FLT_MAX},      /* GELU tanh: -2u < -89.6 */
         {-13.4, -14, -16, -20, -100, -1e3, -1e30, -FLT_MAX},       /* GELU erf: -x^2/2 < -89.7 */
         {-88.5, -90, -100, -150, -1e3, -1e10, -1e30, -FLT_MAX}},   /* sigmoid, SiLU: -|x| */
        {{-21.2, -21.5, -22, -25, -40, -1e3, -1e300, -DBL_MAX},     /* -2u < -713 */
         {-37.7, -38, -40, -50, -100, -1e3, -1e300, -DBL_MAX},      /* -x^2/2 < -710 */
         {-709.5, -710, -745, -800, -1e4, -1e10, -1e300, -DBL_MAX}}, /* -|x| */
        {{-21.53, -21.6, -22, -25, -40, -1e3, -1e300, -DBL_MAX},    /* AVX-512: -2u < -746.4 */
         {-38.64, -39, -40, -50, -100, -1e3, -1e300, -DBL_MAX},     /* -x^2/2 < -746.5 */
         {-746.3, -747, -750, -800, -1e4, -1e10, -1e300, -DBL_MAX}}, /* -|x| */
    };
    const int vector = strcmp(tg_cpu_arch(), "generic") != 0;
    const int avx512 = strcmp(tg_cpu_arch(), "avx512") == 0;
    int l, a, i;
    for (l = 0; l < 3; l++)
        for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++) {
            tg_dtype t = l ? TG_F64 : TG_F32;
            const double *list = lists[l][a == TG_ACT_GELU_TANH ? 0 : a == TG_ACT_GELU_ERF ? 1 : 2];
            const int zero = vector && !(l == 1 && avx512);
            double in[32], out[32];
            int64_t bad = 0;
            char what[120];
            for (i = 0; i < 32; i++) put(t, in, i, list[i % 8]);
            check(tg_activate(t, (tg_act)a, 32, in, out) == TG_OK, "tg_activate on the far tails");
            for (i = 0; i < 32; i++) {
                long double ref = act_ref((tg_act)a, get(t, in, i));
                double got = get(t, out, i);
                if (!(ulps(t, got, ref) <= 16) || (zero && (got != 0 || !signbit(got) != !signbit(ref))))
                    bad++;
            }
            snprintf(what, sizeof what, "%s %s far tails%s: within the bound%s (%lld wrong)",
                     l ? "f64" : "f32", act_name((tg_act)a), l == 2 ? " past AVX-512's flush" : "",
                     zero ? ", exactly +-0" : "", (long long)bad);
            check(bad == 0, what);
        }
}

/* ---- bias + activation on matrices ---- */
static void run_bias(tg_dtype t, tg_layout layout, tg_bias_mode mode, tg_act act, int64_t rows, int64_t cols)
{
    size_t es = es_of(t);
    int row = layout == TG_ROW_MAJOR;
    int64_t lines = row ? rows : cols, len = row ? cols : rows, ldc = len + 3, i, j;
    int64_t total = (lines ? lines : 1) * ldc, bad = 0;
    int64_t nbias = mode == TG_BIAS_PER_ROW ? rows : cols;
    void *c = malloc((size_t)total * es), *bias = malloc((size_t)(nbias + 1) * es);
    double *c0 = (double *)malloc((size_t)total * sizeof(double));
    double worst_e = 0;
    int st;
    char what[200];
    for (i = 0; i < total; i++) {
        put(t, c, i, i % ldc < len ? input(i) : -777.0); /* padding past each run: must stay */
        c0[i] = get(t, c, i);
    }
    for (i = 0; i < nbias; i++) put(t, bias, i, uniform(-3, 3));
    st = tg_bias_act(t, layout, rows, cols, bias, mode, act, c, ldc);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            int64_t at = row ? i * ldc + j : j * ldc + i;
            double b = get(t, bias, mode == TG_BIAS_PER_ROW ? i : j);
            double sum = t == TG_F32 ? (double)((float)c0[at] + (float)b) : c0[at] + b;
            double got = get(t, c, at), e = ulps(t, got, act_ref(act, sum));
            if (e > worst_e) worst_e = e;
            if (act <= TG_ACT_RELU ? !same(got, (double)act_ref(act, sum)) : !(e <= 16)) bad++;
        }
    for (i = 0; i < total; i++)
        if (i % ldc >= len && get(t, c, i) != -777.0) bad++;
    snprintf(what, sizeof what, "bias_act %s %s %s %s %lldx%lld: %lld wrong (worst %.2f ulp)",
             t == TG_F32 ? "f32" : "f64", row ? "row" : "col", mode == TG_BIAS_PER_ROW ? "per-row" : "per-col",
             act_name(act), (long long)rows, (long long)cols, (long long)bad, worst_e);
    check(st == TG_OK && bad == 0, what);
    free(c), free(bias), free(c0);
}

static void test_bias(void)
{
    static const int64_t shapes[][2] = {{0, 5}, {5, 0}, {1, 1}, {3, 5}, {17, 33}, {64, 7}, {1, 70001}, {70001, 2}, {300, 301}};
    int ti, l, m, a, s;
    for (ti = 0; ti < 2; ti++)
        for (l = 0; l < 2; l++)
            for (m = 0; m < 2; m++)
                for (a = TG_ACT_NONE; a <= TG_ACT_SILU; a++)
                    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
                        if (s < 6 || a <= TG_ACT_GELU_TANH) /* big shapes: one transcendental suffices */
                            run_bias(ti ? TG_F64 : TG_F32, l ? TG_COL_MAJOR : TG_ROW_MAJOR,
                                     (tg_bias_mode)m, (tg_act)a, shapes[s][0], shapes[s][1]);
}

/* ---- bad arguments: TG_ERR_ARG naming the parameter, output untouched ---- */
static float bx[64], by[64], bz[64];

static void expect_arg(int st, int pos, const char *what)
{
    char msg[640], needle[32];
    int i, untouched = 1;
    for (i = 0; i < 64; i++) untouched &= bz[i] == 5.0f;
    snprintf(needle, sizeof needle, "parameter %d ", pos);
    snprintf(msg, sizeof msg, "%s: status %d, message \"%s\"%s", what, st, tg_last_error(),
             untouched ? "" : ", output changed");
    check(st == TG_ERR_ARG && strstr(tg_last_error(), needle) && untouched, msg);
    for (i = 0; i < 64; i++) bz[i] = 5.0f;
}

static void test_bad_args(void)
{
    int i;
    for (i = 0; i < 64; i++) bx[i] = (float)i, by[i] = 1, bz[i] = 5.0f;
    expect_arg(tg_add((tg_dtype)7, 4, bx, by, bz), 1, "add: bad dtype");
    expect_arg(tg_add((tg_dtype)-1, 4, bx, by, bz), 1, "add: negative dtype");
    expect_arg(tg_sub(TG_F32, -1, bx, by, bz), 2, "sub: n < 0");
    expect_arg(tg_mul(TG_F32, INT64_MAX / 2, bx, by, bz), 2, "mul: n too large to address");
    expect_arg(tg_add(TG_F32, 4, NULL, by, bz), 3, "add: x NULL");
    expect_arg(tg_add(TG_F32, 4, bx, NULL, bz), 4, "add: y NULL");
    expect_arg(tg_add(TG_F32, 4, bx, by, NULL), 5, "add: z NULL");
    expect_arg(tg_add(TG_F32, 8, bz + 1, by, bz), 3, "add: x overlaps z partly");
    expect_arg(tg_add(TG_F32, 8, bx, bz + 7, bz), 4, "add: y overlaps z partly (last element)");
    expect_arg(tg_add(TG_F32, 8, bx, bz - 0 + 4, bz + 1), 4, "add: y overlaps z partly, z later");
    expect_arg(tg_add(TG_F64, 4, bx, (const char *)bz + 4, bz), 4, "add: f64 y overlaps z by 4 bytes");
    expect_arg(tg_scale((tg_dtype)4, 4, 2.0, bz), 1, "scale: bad dtype");
    expect_arg(tg_scale(TG_F32, -3, 2.0, bz), 2, "scale: n < 0");
    expect_arg(tg_scale(TG_F32, 4, 2.0, NULL), 4, "scale: x NULL");
    expect_arg(tg_axpy(TG_F32, 4, 2.0, NULL, bz), 4, "axpy: x NULL");
    expect_arg(tg_axpy(TG_F32, 4, 2.0, bx, NULL), 5, "axpy: y NULL");
    expect_arg(tg_axpy(TG_F32, 8, 2.0, bz + 2, bz), 4, "axpy: x overlaps y partly");
    expect_arg(tg_activate(TG_F32, (tg_act)6, 4, bx, bz), 2, "activate: bad act");
    expect_arg(tg_activate(TG_F32, (tg_act)-1, 4, bx, bz), 2, "activate: negative act");
    expect_arg(tg_activate(TG_F32, TG_ACT_RELU, -1, bx, bz), 3, "activate: n < 0");
    expect_arg(tg_activate(TG_F32, TG_ACT_RELU, 4, NULL, bz), 4, "activate: x NULL");
    expect_arg(tg_activate(TG_F32, TG_ACT_RELU, 4, bx, NULL), 5, "activate: y NULL");
    expect_arg(tg_activate(TG_F32, TG_ACT_SILU, 8, bz + 3, bz), 4, "activate: x overlaps y partly");
    expect_arg(tg_bias_act((tg_dtype)9, TG_ROW_MAJOR, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 1, "bias: dtype");
    expect_arg(tg_bias_act(TG_F32, (tg_layout)0, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 2, "bias: layout");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, -2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 3, "bias: rows < 0");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, -3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 4, "bias: cols < 0");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, NULL, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 5, "bias: bias NULL");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, (tg_bias_mode)2, TG_ACT_NONE, bz, 3), 6, "bias: mode");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, TG_BIAS_PER_ROW, (tg_act)9, bz, 3), 7, "bias: act");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, NULL, 3), 8, "bias: c NULL");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 2), 9, "bias: row-major ldc < cols");
    expect_arg(tg_bias_act(TG_F32, TG_COL_MAJOR, 4, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3), 9, "bias: col-major ldc < rows");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 0, 0, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 0), 9, "bias: ldc 0 with no elements");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 3, 4, bz + 5, TG_BIAS_PER_COL, TG_ACT_NONE, bz, 5), 5, "bias: bias inside c's span");
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 3, 4, bz, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 4), 5, "bias: bias is c");
    /* A bias in c's padding still overlaps the span C's runs cover. */
    expect_arg(tg_bias_act(TG_F32, TG_ROW_MAJOR, 3, 4, bz + 4, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 6), 5, "bias: bias in c's padding");

    /* fp16 and bf16: checked like the others, then unsupported on the CPU. */
    check(tg_add(TG_F16, 4, bx, by, bz) == TG_ERR_UNSUPPORTED && bz[0] == 5.0f, "f16 add is unsupported on the CPU");
    check(tg_activate(TG_BF16, TG_ACT_RELU, 4, bx, bz) == TG_ERR_UNSUPPORTED && bz[0] == 5.0f, "bf16 activate is unsupported on the CPU");
    expect_arg(tg_add(TG_F16, -1, bx, by, bz), 2, "f16 add: bad n still TG_ERR_ARG");
    /* Zero lengths touch nothing and accept NULL. */
    check(tg_add(TG_F32, 0, NULL, NULL, NULL) == TG_OK && tg_scale(TG_F64, 0, 1.0, NULL) == TG_OK &&
              tg_bias_act(TG_F32, TG_ROW_MAJOR, 0, 4, NULL, TG_BIAS_PER_ROW, TG_ACT_GELU_ERF, NULL, 4) == TG_OK,
          "zero lengths with NULL pointers are fine");
}

/* ---- exact aliasing: every in-place combination ---- */
static void test_alias(void)
{
    double a[37], b[37];
    int i, ok = 1;
    for (i = 0; i < 37; i++) a[i] = b[i] = input(i);
    ok &= tg_add(TG_F64, 37, a, a, a) == TG_OK;               /* x == y == z */
    for (i = 0; i < 37; i++) ok &= same(a[i], b[i] + b[i]);
    for (i = 0; i < 37; i++) a[i] = b[i];
    ok &= tg_sub(TG_F64, 37, a, b, b) == TG_OK;               /* y == z */
    for (i = 0; i < 37; i++) ok &= same(b[i], a[i] - a[i]);
    for (i = 0; i < 37; i++) b[i] = a[i];
    ok &= tg_mul(TG_F64, 37, a, b, a) == TG_OK;               /* x == z */
    for (i = 0; i < 37; i++) ok &= same(a[i], b[i] * b[i]);
    for (i = 0; i < 37; i++) a[i] = b[i];
    ok &= tg_axpy(TG_F64, 37, 0.5, a, a) == TG_OK;            /* x == y */
    for (i = 0; i < 37; i++) ok &= same(a[i], fma(0.5, b[i], b[i]));
    check(ok, "in place: x == y == z, y == z, x == z, axpy x == y");
}

/* Called from inside the caller's own parallel region: one thread per call, same results. */
static void test_nested(void)
{
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        int64_t n = 300000, i;
        float *x = (float *)malloc((size_t)n * 4), *z = (float *)malloc((size_t)n * 4);
        for (i = 0; i < n; i++) x[i] = (float)(i % 1000) - 500.0f;
        if (tg_activate(TG_F32, TG_ACT_RELU, n, x, z) != TG_OK) bad++;
        for (i = 0; i < n; i++) bad += z[i] != (x[i] < 0 ? 0 : x[i]);
        free(x), free(z);
    }
    check(bad == 0, "calls from inside the caller's parallel region");
}

/* ---- the dense sweep (opt-in): every stride-th float of [-20, 10], 10^7 random doubles ----
 * For each activation and type, the largest error in ulps (as run_act judges them) and where it
 * falls; any error above the bound counts as a failure. Floats are walked by bit pattern, so every
 * binade of the range gets its share; the doubles are half uniform in [-20, 10], half of either sign
 * with magnitudes spread evenly in exponent from 2^-40 to 2^5. */
#define SWEEP_CHUNK 65536
static void sweep_chunk(tg_dtype t, tg_act act, int64_t n, const void *x, void *z, double *w,
                        double *at, int64_t *bad)
{
    static double err[SWEEP_CHUNK];
    int64_t i;
    check(tg_activate(t, act, n, x, z) == TG_OK, "sweep: status");
#pragma omp parallel for schedule(static)
    for (i = 0; i < n; i++) err[i] = ulps(t, get(t, z, i), act_ref(act, get(t, x, i)));
    for (i = 0; i < n; i++) {
        double e = isnan(err[i]) ? INFINITY : err[i];
        if (!(e <= 16)) ++*bad;
        if (e > *w) *w = e, *at = get(t, x, i);
    }
}

static void test_sweep(int64_t stride)
{
    static const uint32_t ranges[2][2] = {{0x00000000u, 0x41200000u}, {0x80000000u, 0xC1A00000u}};
    void *x = malloc(SWEEP_CHUNK * sizeof(double)), *z = malloc(SWEEP_CHUNK * sizeof(double));
    int ti, a, r;
    if (!x || !z) { printf("out of memory\n"); exit(2); }
    for (ti = 0; ti < 2; ti++)
        for (a = TG_ACT_GELU_TANH; a <= TG_ACT_SILU; a++) {
            tg_dtype t = ti ? TG_F64 : TG_F32;
            double w = 0, at = 0;
            int64_t bad = 0, count = 0, n = 0, i;
            char what[200];
            if (t == TG_F32) {
                for (r = 0; r < 2; r++) /* [0, 10], then [-20, -0] */
                    for (i = ranges[r][0]; i <= (int64_t)ranges[r][1]; i += stride) {
                        uint32_t u = (uint32_t)i;
                        memcpy((float *)x + n++, &u, 4);
                        if (n == SWEEP_CHUNK) sweep_chunk(t, (tg_act)a, n, x, z, &w, &at, &bad), count += n, n = 0;
                    }
            } else {
                rng = 0x9E3779B97F4A7C15u; /* the same doubles for every activation */
                for (i = 0; i < 10000000; i++) {
                    ((double *)x)[n++] = i % 2 ? uniform(-20, 10) : (uniform(-1, 1) < 0 ? -1 : 1) * exp2(uniform(-40, 5));
                    if (n == SWEEP_CHUNK) sweep_chunk(t, (tg_act)a, n, x, z, &w, &at, &bad), count += n, n = 0;
                }
            }
            if (n) sweep_chunk(t, (tg_act)a, n, x, z, &w, &at, &bad), count += n;
            snprintf(what, sizeof what, "sweep %s %s: %lld inputs, %lld above 16 ulp, worst %.2f ulp at x = %.17g",
                     act_name((tg_act)a), t == TG_F32 ? "f32" : "f64", (long long)count, (long long)bad, w, at);
            printf("%s\n", what);
            check(bad == 0, what);
        }
    free(x), free(z);
}

/* ---- more than 2^31 elements, in place on one buffer ---- */
static void test_large(void)
{
    int64_t n = ((int64_t)1 << 31) + 67, i, bad = 0;
    float *x = (float *)malloc((size_t)n * sizeof(float));
    if (!x) { printf("SKIP large: cannot allocate %lld bytes\n", (long long)(n * 4)); return; }
    for (i = 0; i < n; i++) x[i] = (float)(i & 1023) - 512.0f;
    check(tg_scale(TG_F32, n, 0.5, x) == TG_OK, "large: scale status");
    check(tg_add(TG_F32, n, x, x, x) == TG_OK, "large: add in place status");
    check(tg_activate(TG_F32, TG_ACT_RELU, n, x, x) == TG_OK, "large: relu in place status");
    for (i = 0; i < n; i++) {
        float v = (float)(i & 1023) - 512.0f;
        bad += x[i] != (v < 0 ? 0 : v);
    }
    check(bad == 0, "large: scale 0.5, add to itself, relu over 2^31 + 67 floats");
    free(x);
}

int main(int argc, char **argv)
{
    const char *arch = getenv("TGEMM_ARCH");
    printf("tgemm elementwise tests, kernel family %s%s\n", tg_cpu_arch(), arch ? " (TGEMM_ARCH)" : "");
    if (argc > 1 && strcmp(argv[1], "--large") == 0) {
        test_large();
    } else if (argc > 1 && strcmp(argv[1], "--sweep") == 0) {
        test_sweep(argc > 2 ? atoll(argv[2]) : 17);
    } else {
        test_reference();
        test_exact();
        test_threads();
        test_activations();
        test_position();
        test_specials();
        test_tails();
        test_bias();
        test_bad_args();
        test_alias();
        test_nested();
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
