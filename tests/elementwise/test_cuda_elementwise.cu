/* Tests of the CUDA elementwise kernels (tg_cuda_add ... tg_cuda_bias_act) against host references.
 *
 *   make test-cuda-elementwise   (also run by make test-cuda)
 *   build/elementwise/test_cuda_elementwise [--small] [--large]
 *       --small: no case above 10^5 elements
 *       --tiny: none above 5000 (the CPU emulation and the compute-sanitizer runs)
 *       --large: only the > 2^31-element in-place case (~8.6 GB of device memory)
 *
 * For each type (fp32, fp64, fp16, bf16) and operation, on lengths around the vector width and
 * large ones, with x, y and z co-aligned, at different offsets from a 16-byte boundary, and not even
 * aligned to their element (fp32): add, sub, mul, scale, axpy, ReLU must equal the host's rounding
 * of the same operation bit for bit (fp16/bf16: computed in fp32, rounded once); GELU (both forms),
 * sigmoid and SiLU must be within 16 ulps (fp32, fp64; ulp of max(|ref|, 2^-24 or 2^-53)) of a long
 * double reference, and within 1 ulp of the correctly rounded fp32 result in fp16 and bf16. Inputs
 * are uniform in [-10, 10] with +-0, +-Inf, NaN, +-1e30 and deep negative tails sprinkled in; in fp16
 * and bf16 every activation also takes every one of the 65536 values (not under --tiny). Outputs are poisoned before
 * each call and the guard elements around them checked untouched; bias_act's padding likewise. Bad
 * arguments (no GPU needed: the checks come before any CUDA call) must give TG_ERR_ARG naming the
 * parameter. Without a GPU every GPU case is counted as skipped, never passed.
 * Output ends with "N passed, N failed, N skipped".
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "elementwise/tgemm_elementwise.h"
#include "act_ref.h"

static int passed, failed, skipped, have_gpu;
static int64_t max_elems = INT64_MAX; /* --small, --tiny */
static uint64_t rng = 0x2545F4914F6CDD1Dull;

static void check(int ok, const char *what)
{
    if (ok) passed++;
    else {
        failed++;
        if (failed <= 40) printf("FAIL %s\n", what);
    }
}

static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1p-53;
}
/* Past -10 too: where exp of the logistic forms' argument is subnormal in fp32 (sigmoid and SiLU from
 * -87, GELU tanh from -10.1) and the results still normal numbers in bf16, whose range is fp32's.
 * And double's largest values (Inf in the narrower types), where x times anything above 1 on the way
 * to x s(v) or x Phi(x) would overflow. */
static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e30, -1e30,
                                  -10.5, -30.0, -60.0, -90.0, -100.0, -110.0,
                                  DBL_MAX, -DBL_MAX, 0.75 * DBL_MAX, -0.75 * DBL_MAX};
#define N_SPECIALS ((int64_t)(sizeof specials / sizeof specials[0]))
static double get(tg_dtype t, const void *p, int64_t i);
/* >= 0 (a 16-bit tg_dtype): input(i) is the value whose bits are i mod 2^16, every one in turn */
static int every_value_of = -1;
static double input(int64_t i)
{
    if (every_value_of >= 0) {
        uint16_t b[4] = {(uint16_t)i, 0, 0, 0}; /* room for the reads of get's other types */
        return get((tg_dtype)every_value_of, b, 0);
    }
    return i % 11 == 5 ? specials[(i / 11) % N_SPECIALS] : uniform(-10, 10);
}

/* ---- host views of the four types ---- */
static const char *tname(tg_dtype t)
{
    return t == TG_F32 ? "f32" : t == TG_F64 ? "f64" : t == TG_F16 ? "f16" : "bf16";
}
static size_t esize(tg_dtype t) { return t == TG_F64 ? 8 : t == TG_F32 ? 4 : 2; }
static double get(tg_dtype t, const void *p, int64_t i)
{
    switch (t) {
    case TG_F32: { float v; memcpy(&v, (const char *)p + 4 * i, 4); return v; }
    case TG_F64: { double v; memcpy(&v, (const char *)p + 8 * i, 8); return v; }
    case TG_F16: { __half v; memcpy(&v, (const char *)p + 2 * i, 2); return __half2float(v); }
    default: { __nv_bfloat16 v; memcpy(&v, (const char *)p + 2 * i, 2); return __bfloat162float(v); }
    }
}
/* v rounded to the type (from a double: fp16/bf16 through fp32, as the kernels round their fp32 result) */
static double rnd(tg_dtype t, double v)
{
    switch (t) {
    case TG_F32: return (float)v;
    case TG_F64: return v;
    case TG_F16: return __half2float(__float2half_rn((float)v));
    default: return __bfloat162float(__float2bfloat16_rn((float)v));
    }
}
static void put(tg_dtype t, void *p, int64_t i, double v)
{
    switch (t) {
    case TG_F32: { float f = (float)v; memcpy((char *)p + 4 * i, &f, 4); break; }
    case TG_F64: memcpy((char *)p + 8 * i, &v, 8); break;
    case TG_F16: { __half h = __float2half_rn((float)v); memcpy((char *)p + 2 * i, &h, 2); break; }
    default: { __nv_bfloat16 b = __float2bfloat16_rn((float)v); memcpy((char *)p + 2 * i, &b, 2); break; }
    }
}
static int same(double a, double b) { return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)); }

/* ---- references ---- */

/* Error of got against ref: ulps of max(|ref|, tiny) for fp32/fp64; for fp16/bf16, the distance in
 * representable values from the correctly rounded fp32 result rounded to the type; infinite for a
 * zero of the wrong sign. */
static int64_t ordered(tg_dtype t, double v)
{
    uint16_t b;
    if (t == TG_F16) { __half h = __float2half_rn((float)v); memcpy(&b, &h, 2); }
    else { __nv_bfloat16 h = __float2bfloat16_rn((float)v); memcpy(&b, &h, 2); }
    return (b & 0x8000) ? -(int64_t)(b & 0x7fff) : (int64_t)(b & 0x7fff);
}
static double err(tg_dtype t, double got, long double ref)
{
    double want;
    if (t == TG_F32 || t == TG_F64) return ulps(t, got, ref);
    if (isnan(got) || isnan(ref)) return isnan(got) && isnan(ref) ? 0 : INFINITY;
    if (got == 0 && signbit(got) != signbit((double)ref)) return INFINITY; /* as in ulps */
    want = rnd(t, (double)(float)ref);
    if (isinf(want) || isinf(got)) return want == got ? 0 : INFINITY;
    return fabs((double)(ordered(t, got) - ordered(t, want)));
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_SCALE, OP_AXPY, OP_ACT, NOPS };
static const char *op_names[] = {"add", "sub", "mul", "scale", "axpy", "activate"};
static const char *act_names[] = {"none", "relu", "gelu_tanh", "gelu_erf", "sigmoid", "silu"};
/* The worst error seen per type and activation (ulps, or fp16/bf16 ulps off the correctly rounded
 * fp32 result): printed at the end, the margin under the bound. */
static double worst_act[4][6];
static void note_worst(tg_dtype t, int act, double e)
{
    if (e > worst_act[t][act]) worst_act[t][act] = e;
}

/* The exact result of an exact operation: the computation type's rounding, then the array's. */
static double exact(tg_dtype t, int op, tg_act act, double s, double x, double y)
{
    double v;
    if (t == TG_F64) {
        v = op == OP_ADD ? x + y : op == OP_SUB ? x - y : op == OP_MUL ? x * y : op == OP_SCALE ? s * x
          : op == OP_AXPY ? fma(s, x, y) : x;
    } else {
        float a = (float)s, fx = (float)x, fy = (float)y;
        v = op == OP_ADD ? fx + fy : op == OP_SUB ? fx - fy : op == OP_MUL ? fx * fy : op == OP_SCALE ? a * fx
          : op == OP_AXPY ? fmaf(a, fx, fy) : fx;
    }
    if (act == TG_ACT_RELU) v = 0 > v ? 0 : v;
    return rnd(t, v);
}

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)
#define GUARD 16

static int is_exact(int op, tg_act act) { return op != OP_ACT || act <= TG_ACT_RELU; }

/* One 1-D call: n elements, x/y/z at byte offsets bx/by/bz from cudaMalloc's (256-byte aligned)
 * buffers; inplace: z is x (axpy: z is y). */
static void run_1d(tg_dtype t, int op, tg_act act, int64_t n, int bx, int by, int bz, int inplace)
{
    size_t es = esize(t), bytes = (size_t)(n + 2 * GUARD) * es + 64;
    unsigned char *hx, *hy, *hz, *dx, *dy, *dz, *dout, *hout;
    void *x, *y, *gx, *gy, *gz, *z;
    double *x0, *y0, s = uniform(-3, 3), worst = 0;
    int64_t i, bad = 0, zoff;
    int st = TG_OK;
    char what[240];
    if (!have_gpu) { skipped++; return; }
    hx = (unsigned char *)malloc(bytes), hy = (unsigned char *)malloc(bytes), hz = (unsigned char *)malloc(bytes);
    x0 = (double *)malloc((size_t)(n + 1) * sizeof(double)), y0 = (double *)malloc((size_t)(n + 1) * sizeof(double));
    if (!hx || !hy || !hz || !x0 || !y0) { printf("out of host memory\n"); exit(2); }
    CK(cudaMalloc(&dx, bytes)); CK(cudaMalloc(&dy, bytes)); CK(cudaMalloc(&dz, bytes));
    memset(hx, 0x7b, bytes), memset(hy, 0x7b, bytes), memset(hz, 0x7b, bytes);
    x = hx + GUARD * es + bx, y = hy + GUARD * es + by;
    for (i = 0; i < n; i++) {
        put(t, x, i, input(i)), put(t, y, i, input(i + 5));
        x0[i] = get(t, x, i), y0[i] = get(t, y, i);
    }
    CK(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dz, hz, bytes, cudaMemcpyHostToDevice));
    gx = dx + GUARD * es + bx, gy = dy + GUARD * es + by;
    /* the output's buffer and byte offset */
    dout = inplace ? (op == OP_AXPY ? dy : dx) : dz;
    hout = inplace ? (op == OP_AXPY ? hy : hx) : hz;
    zoff = (int64_t)(GUARD * es) + (inplace ? (op == OP_AXPY ? by : bx) : bz);
    gz = dout + zoff;
    if (!inplace && (op == OP_SCALE || op == OP_AXPY))
        CK(cudaMemcpy(gz, op == OP_SCALE ? gx : gy, (size_t)n * es, cudaMemcpyDeviceToDevice));
    switch (op) {
    case OP_ADD: st = tg_cuda_add(t, n, gx, gy, gz, 0); break;
    case OP_SUB: st = tg_cuda_sub(t, n, gx, gy, gz, 0); break;
    case OP_MUL: st = tg_cuda_mul(t, n, gx, gy, gz, 0); break;
    case OP_SCALE: st = tg_cuda_scale(t, n, s, gz, 0); break;
    case OP_AXPY: st = tg_cuda_axpy(t, n, s, gx, gz, 0); break;
    default: st = tg_cuda_activate(t, act, n, gx, gz, 0); break;
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hout, dout, bytes, cudaMemcpyDeviceToHost));
    z = hout + zoff;
    /* alpha rounded to the array's type once, as the API says */
    s = t == TG_F16 ? __half2float(__double2half(s)) : t == TG_BF16 ? __bfloat162float(__double2bfloat16(s)) : rnd(t, s);
    for (i = 0; i < n; i++) {
        double got = get(t, z, i), e;
        if (is_exact(op, act)) {
            double want = exact(t, op, act, s, op == OP_SCALE ? x0[i] : x0[i], op == OP_AXPY ? y0[i] : y0[i]);
            e = same(got, want) ? 0 : INFINITY;
        } else {
            e = err(t, got, act_ref(act, x0[i]));
        }
        if (e > worst) worst = e;
        if (op == OP_ACT) note_worst(t, act, e);
        if (!(e <= (is_exact(op, act) ? 0 : t == TG_F16 || t == TG_BF16 ? 1 : 16))) {
            if (!bad) printf("  %s %s %s n=%lld: element %lld of x=%.9g y=%.9g: %.17g (error %.3g)\n",
                             op_names[op], act_names[act], tname(t), (long long)n, (long long)i, x0[i], y0[i], got, e);
            bad++;
        }
    }
    /* the bytes around the output untouched */
    for (i = 0; i < zoff; i++) bad += hout[i] != 0x7b && !inplace;
    for (i = zoff + n * (int64_t)es; i < (int64_t)bytes; i++) bad += hout[i] != 0x7b;
    snprintf(what, sizeof what, "%s %s %s n=%lld offsets x+%d y+%d z+%d%s: status %d, %lld wrong (worst %.2f)",
             op_names[op], op == OP_ACT ? act_names[act] : "", tname(t), (long long)n, bx, by, bz,
             inplace ? " in place" : "", st, (long long)bad, worst);
    check(st == TG_OK && bad == 0, what);
    free(hx), free(hy), free(hz), free(x0), free(y0);
    CK(cudaFree(dx)); CK(cudaFree(dy)); CK(cudaFree(dz));
}

static void test_1d(void)
{
    static const int64_t sizes[] = {0, 1, 3, 7, 8, 9, 17, 31, 33, 100, 1000, 4097, 100003, (1 << 21) + 5};
    static const tg_dtype types[] = {TG_F32, TG_F64, TG_F16, TG_BF16};
    int ti, op, a, si;
    for (ti = 0; ti < 4; ti++)
        for (op = 0; op < NOPS; op++)
            for (a = (op == OP_ACT ? TG_ACT_NONE : TG_ACT_NONE); a <= (op == OP_ACT ? TG_ACT_SILU : TG_ACT_NONE); a++)
                for (si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++) {
                    tg_dtype t = types[ti];
                    int es = (int)esize(t);
                    int64_t n = sizes[si];
                    if (n > max_elems) continue;
                    run_1d(t, op, (tg_act)a, n, 0, 0, 0, 0);                 /* all aligned */
                    run_1d(t, op, (tg_act)a, n, es, es, es, 0);              /* co-aligned, one element in */
                    run_1d(t, op, (tg_act)a, n, es, 2 * es, 3 * es, 0);      /* different offsets: scalar path */
                    run_1d(t, op, (tg_act)a, n, 3 * es, 3 * es, 0, 1);       /* in place */
                    if (t == TG_F32 && n < 5000) run_1d(t, op, (tg_act)a, n, 2, 2, 2, 0); /* not element-aligned */
                }
}

/* bias_act on a rows x cols matrix with ldc = len + 3 (padding poisoned and checked). */
static void run_bias(tg_dtype t, tg_layout layout, tg_bias_mode mode, tg_act act, int64_t rows, int64_t cols)
{
    size_t es = esize(t);
    int row = layout == TG_ROW_MAJOR;
    int64_t lines = row ? rows : cols, len = row ? cols : rows, ldc = len + 3, i, j, bad = 0;
    int64_t total = (lines ? lines : 1) * ldc, nbias = mode == TG_BIAS_PER_ROW ? rows : cols;
    void *c, *b, *dc, *db;
    double *c0, worst = 0;
    int st;
    char what[200];
    if (!have_gpu) { skipped++; return; }
    c = malloc((size_t)total * es), b = malloc((size_t)(nbias + 1) * es);
    c0 = (double *)malloc((size_t)total * sizeof(double));
    for (i = 0; i < total; i++) put(t, c, i, i % ldc < len ? input(i) : -77.0), c0[i] = get(t, c, i);
    for (i = 0; i < nbias; i++) put(t, b, i, uniform(-3, 3));
    CK(cudaMalloc(&dc, (size_t)total * es)); CK(cudaMalloc(&db, (size_t)(nbias + 1) * es));
    CK(cudaMemcpy(dc, c, (size_t)total * es, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, (size_t)(nbias + 1) * es, cudaMemcpyHostToDevice));
    st = tg_cuda_bias_act(t, layout, rows, cols, db, mode, act, dc, ldc, 0);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(c, dc, (size_t)total * es, cudaMemcpyDeviceToHost));
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            int64_t at = row ? i * ldc + j : j * ldc + i;
            double bv = get(t, b, mode == TG_BIAS_PER_ROW ? i : j), got = get(t, c, at), e;
            /* the sum in the computation type: fp64 for fp64, else fp32 */
            double sum = t == TG_F64 ? c0[at] + bv : (double)((float)c0[at] + (float)bv);
            if (act <= TG_ACT_RELU) e = same(got, rnd(t, (double)act_ref(act, sum))) ? 0 : INFINITY;
            else e = err(t, got, act_ref(act, sum));
            if (e > worst) worst = e;
            note_worst(t, act, e);
            if (!(e <= (act <= TG_ACT_RELU ? 0 : t == TG_F16 || t == TG_BF16 ? 1 : 16))) {
                if (!bad) printf("  bias_act %s %s: act(%.9g + %.9g) = %.9g, reference %.9Lg (error %.3g)\n",
                                 tname(t), act_names[act], c0[at], bv, got, act_ref(act, sum), e);
                bad++;
            }
        }
    for (i = 0; i < total; i++)
        if (i % ldc >= len && get(t, c, i) != -77.0) bad++;
    snprintf(what, sizeof what, "bias_act %s %s %s %s %lldx%lld: status %d, %lld wrong (worst %.2f)", tname(t),
             row ? "row" : "col", mode == TG_BIAS_PER_ROW ? "per-row" : "per-col", act_names[act],
             (long long)rows, (long long)cols, st, (long long)bad, worst);
    check(st == TG_OK && bad == 0, what);
    free(c), free(b), free(c0);
    CK(cudaFree(dc)); CK(cudaFree(db));
}

static void test_bias(void)
{
    static const int64_t shapes[][2] = {{0, 4}, {1, 1}, {3, 5}, {17, 33}, {64, 7}, {1, 70001}, {70001, 3}, {300, 301}};
    static const tg_dtype types[] = {TG_F32, TG_F64, TG_F16, TG_BF16};
    int ti, l, m, a, s;
    for (ti = 0; ti < 4; ti++)
        for (l = 0; l < 2; l++)
            for (m = 0; m < 2; m++)
                for (a = TG_ACT_NONE; a <= TG_ACT_SILU; a++)
                    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
                        if ((s < 5 || a <= TG_ACT_GELU_TANH) && shapes[s][0] * shapes[s][1] <= max_elems)
                            run_bias(types[ti], l ? TG_COL_MAJOR : TG_ROW_MAJOR, (tg_bias_mode)m, (tg_act)a,
                                     shapes[s][0], shapes[s][1]);
}

/* Bad arguments: checked before any CUDA call, so they run without a GPU too. The pointers are
 * host arrays that the calls must never touch. */
static float bx[64], by[64], bz[64];
static void expect_arg(int st, int pos, const char *what)
{
    char msg[640], needle[32];
    int i, untouched = 1;
    for (i = 0; i < 64; i++) untouched &= bz[i] == 5.0f;
    snprintf(needle, sizeof needle, "parameter %d ", pos);
    snprintf(msg, sizeof msg, "%s: status %d, message \"%s\"", what, st, tg_last_error());
    check(st == TG_ERR_ARG && strstr(tg_last_error(), needle) && untouched, msg);
    for (i = 0; i < 64; i++) bz[i] = 5.0f;
}

static void test_bad_args(void)
{
    int i;
    for (i = 0; i < 64; i++) bx[i] = (float)i, by[i] = 1, bz[i] = 5.0f;
    expect_arg(tg_cuda_add((tg_dtype)7, 4, bx, by, bz, 0), 1, "add: bad dtype");
    expect_arg(tg_cuda_sub(TG_F16, -1, bx, by, bz, 0), 2, "sub: n < 0");
    expect_arg(tg_cuda_mul(TG_F32, 4, NULL, by, bz, 0), 3, "mul: x NULL");
    expect_arg(tg_cuda_add(TG_BF16, 4, bx, NULL, bz, 0), 4, "add: y NULL");
    expect_arg(tg_cuda_add(TG_F32, 4, bx, by, NULL, 0), 5, "add: z NULL");
    expect_arg(tg_cuda_add(TG_F32, 8, bz + 1, by, bz, 0), 3, "add: x overlaps z partly");
    expect_arg(tg_cuda_add(TG_F16, 8, bx, (const char *)bz + 2, bz, 0), 4, "add: f16 y overlaps z by one element");
    expect_arg(tg_cuda_scale(TG_F64, -2, 2.0, bz, 0), 2, "scale: n < 0");
    expect_arg(tg_cuda_scale(TG_F64, 2, 2.0, NULL, 0), 4, "scale: x NULL");
    expect_arg(tg_cuda_axpy(TG_F32, 8, 2.0, bz + 2, bz, 0), 4, "axpy: x overlaps y partly");
    expect_arg(tg_cuda_axpy(TG_F32, 8, 2.0, bx, NULL, 0), 5, "axpy: y NULL");
    expect_arg(tg_cuda_activate(TG_F32, (tg_act)6, 4, bx, bz, 0), 2, "activate: bad act");
    expect_arg(tg_cuda_activate(TG_F32, TG_ACT_SILU, 8, bz + 3, bz, 0), 4, "activate: x overlaps y partly");
    expect_arg(tg_cuda_bias_act(TG_F32, (tg_layout)1, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3, 0), 2, "bias: layout");
    expect_arg(tg_cuda_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, (tg_bias_mode)3, TG_ACT_NONE, bz, 3, 0), 6, "bias: mode");
    expect_arg(tg_cuda_bias_act(TG_F32, TG_ROW_MAJOR, 2, 3, by, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 2, 0), 9, "bias: ldc");
    expect_arg(tg_cuda_bias_act(TG_F32, TG_COL_MAJOR, 3, 4, bz + 2, TG_BIAS_PER_ROW, TG_ACT_NONE, bz, 3, 0), 5, "bias: overlaps c");
    check(tg_cuda_add(TG_F32, 0, NULL, NULL, NULL, 0) == TG_OK, "zero length, NULL pointers: nothing queued");
}

/* More than 2^31 elements in place on one buffer (--large): zeros, with 1.5 planted on both sides
 * of element 2^31 and at the very end; scale by 2, then add to itself: 6 there, 0 elsewhere. A 32-bit
 * index would miss the far elements or write into the near ones. */
static void test_large(void)
{
    const int64_t n = ((int64_t)1 << 31) + 67, marks[] = {((int64_t)1 << 31) - 1, (int64_t)1 << 31, n - 1};
    const float one5 = 1.5f;
    int64_t i, bad = 0;
    float *d, h;
    int k;
    if (!have_gpu) { skipped++; return; }
    if (cudaMalloc(&d, (size_t)n * 4) != cudaSuccess) { printf("SKIP large: no room on the device\n"); skipped++; return; }
    CK(cudaMemset(d, 0, (size_t)n * 4));
    for (k = 0; k < 3; k++) CK(cudaMemcpy(d + marks[k], &one5, 4, cudaMemcpyHostToDevice));
    check(tg_cuda_scale(TG_F32, n, 2.0, d, 0) == TG_OK, "large: scale");
    check(tg_cuda_add(TG_F32, n, d, d, d, 0) == TG_OK, "large: add in place");
    CK(cudaDeviceSynchronize());
    for (i = 0; i < n; i += 9973) {
        CK(cudaMemcpy(&h, d + i, 4, cudaMemcpyDeviceToHost));
        bad += h != ((i == marks[0] || i == marks[1] || i == marks[2]) ? 6.0f : 0.0f);
    }
    for (k = 0; k < 3; k++) {
        CK(cudaMemcpy(&h, d + marks[k], 4, cudaMemcpyDeviceToHost));
        bad += h != 6.0f;
    }
    check(bad == 0, "large: 2^31 + 67 floats in place, both sides of 2^31 and the last element");
    CK(cudaFree(d));
}

/* Every fp16 and every bf16 value through every activation: the approximations of the 16-bit types'
 * fast path (exp, division, GELU erf's erfc) checked on each input there is, the far tails and
 * subnormals included, not on a sample. */
static void test_every_16bit(void)
{
    static const tg_dtype types[] = {TG_F16, TG_BF16};
    int ti, a;
    if (max_elems < 65536) return;
    for (ti = 0; ti < 2; ti++) {
        every_value_of = types[ti];
        for (a = TG_ACT_RELU; a <= TG_ACT_SILU; a++) run_1d(types[ti], OP_ACT, (tg_act)a, 65536, 0, 0, 0, 0);
        every_value_of = -1;
    }
}

int main(int argc, char **argv)
{
    int count = 0, i, large = 0;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) max_elems = 100000;
        else if (!strcmp(argv[i], "--tiny")) max_elems = 5000;
        else if (!strcmp(argv[i], "--large")) large = 1;
    }
    have_gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    if (have_gpu) {
        cudaDeviceProp p;
        CK(cudaGetDeviceProperties(&p, 0));
        printf("tgemm CUDA elementwise tests on %s (sm_%d%d)\n", p.name, p.major, p.minor);
    } else {
        printf("tgemm CUDA elementwise tests: no GPU, the GPU cases are counted as skipped\n");
    }
    if (large) {
        test_large();
    } else {
        test_bad_args();
        test_1d();
        test_every_16bit();
        test_bias();
        for (i = TG_ACT_GELU_TANH; have_gpu && i <= TG_ACT_SILU; i++)
            printf("  worst error %-9s  f32 %5.2f  f64 %5.2f  f16 %4.2f  bf16 %4.2f\n", act_names[i],
                   worst_act[TG_F32][i], worst_act[TG_F64][i], worst_act[TG_F16][i], worst_act[TG_BF16][i]);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed != 0;
}
