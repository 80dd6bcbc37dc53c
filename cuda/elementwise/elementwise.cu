/* The CUDA elementwise kernels and their host entry points (tg_cuda_add ... tg_cuda_bias_act).
 *
 * One kernel template serves every call: C is `lines` runs of `len` contiguous elements, ld apart
 * (one run for the 1-D calls, a row or column of C for bias_act), and each element is
 * z = act(op(x, y)). Per run, the elements before z's first 16-byte boundary (the head) and after
 * its last (the tail) go one at a time; in between every thread moves whole 128-bit vectors (4
 * floats, 2 doubles, 8 halves) of x, y and z, which is what lets a memory-bound kernel approach the
 * copy bandwidth. That needs x and y at the same offset from a 16-byte boundary as z; when they are
 * not, the whole run goes one element at a time (correct, slower), and when a pointer is not even
 * aligned to its element, bytewise. Grid-stride loops, 64-bit indices: any length works.
 *
 * Arithmetic: in the compute type (fp32 for fp32, fp16 and bf16; fp64 for fp64), the activations too
 * (see "activations" below for how they keep 16 ulps without a wider type: fp64 arithmetic for fp32
 * arrays held the GELUs at a third to a half of the copy bandwidth on the H100). One rounding to the
 * array's type at the end.
 *
 * H100, arrays uniform in [-10, 10], against the device copy in the same run
 * (tests/elementwise/bench_cuda_elementwise, results/nvidia-h100-80gb-hbm3/3afdb9a/elementwise):
 * every operation and activation in every type 94.8-101% on 512 MiB, 91.0-101% on 256 MiB; the
 * GELU erf forms are the slowest (fp64's, bf16's below say what took them from 74% and 88%).
 * H200, 1.4 times the H100's bandwidth (results/nvidia-h200/ab-select/): the operations, ReLU,
 * sigmoid, SiLU and fp32/fp16/bf16 GELU tanh 95-104% on 512 MiB; there the arithmetic of the rest
 * is the limit: GELU erf 77-80% (fp64 74%), fp64 GELU tanh 77%, bias_act GELU tanh 83%.
 *
 * Private names here are tg__ewd_ (device side), apart from the CPU side's tg__ew_ that it shares,
 * since the single header puts both in one translation unit.
 */
#include <stdint.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "tgemm_elementwise.h"

/* The checks shared with the CPU entry points (cpu/elementwise.c), through a macro for the reason
 * given in tgemm_cuda.h: in the single header, tgemm.h's implementation already holds them. */
#ifndef TGEMM_CUDA_CUH_SINGLE_HEADER
#define TGEMM_CUDA__EW_PRIVATE "../../cpu/elementwise.h"
#include TGEMM_CUDA__EW_PRIVATE
#endif

/* ---- the types: op computed in C ---- */
template <typename T> struct tg__ewd_t;
template <> struct tg__ewd_t<float> { typedef float C; };
template <> struct tg__ewd_t<double> { typedef double C; };
template <> struct tg__ewd_t<__half> { typedef float C; };
template <> struct tg__ewd_t<__nv_bfloat16> { typedef float C; };

static __device__ __forceinline__ float tg__ewd_c(float v) { return v; }
static __device__ __forceinline__ double tg__ewd_c(double v) { return v; }
static __device__ __forceinline__ float tg__ewd_c(__half v) { return __half2float(v); }
/* bf16 is the top half of a float: the shift is the whole conversion. Written out, because
 * __bfloat162float (cvt.f32.bf16) made ptxas (CUDA 13, sm_90) convert a batch's 16 elements at once
 * and hold them: 47-48 registers a thread where fp16's kernels take 32, 5 blocks of 256 an SM
 * instead of 8. With the shift ptxas gives bf16 32 registers as well, and on the H100 bf16 GELU
 * erf went from 88% of the copy to 95% (side by side, 4745258). */
static __device__ __forceinline__ float tg__ewd_c(__nv_bfloat16 v)
{
    return __uint_as_float((unsigned)__bfloat16_as_ushort(v) << 16);
}
template <typename T> static __device__ __forceinline__ T tg__ewd_to(double v);
template <> __device__ __forceinline__ float tg__ewd_to<float>(double v) { return (float)v; }
template <> __device__ __forceinline__ double tg__ewd_to<double>(double v) { return v; }
template <> __device__ __forceinline__ __half tg__ewd_to<__half>(double v) { return __float2half_rn((float)v); }
template <> __device__ __forceinline__ __nv_bfloat16 tg__ewd_to<__nv_bfloat16>(double v)
{
    return __float2bfloat16_rn((float)v);
}

/* ---- activations ----
 * fp32 and fp64 arrays: in their own type, within 16 ulps. The GELU forms take their argument u as
 * an unevaluated sum hi + lo (the cancellation-free forms of cpu/elementwise_act.c, whose header
 * explains them): the rounding of u alone would cost ~|2u| ulps, 18 and more in the tails where the
 * result is still above the ulp floor. fp16 and bf16 (tg__ewd_act_fast): in fp32 with the plain
 * argument and the hardware's approximate exp and division, whose errors (~2^-17) stay far under
 * their half-ulp (2^-11, 2^-8 of the value), at a third of the instructions: twice the elements per byte. */
template <typename A> struct tg__ewd_k;
template <> struct tg__ewd_k<double> {
    static constexpr double A_HI = 0.7978845608028654, A_LO = -4.98465440455546e-17; /* sqrt(2/pi) */
    static constexpr double B_HI = 0.035677408136300125, B_LO = -3.0875749590776575e-19; /* A*0.044715 */
    /* past BIG every activation is at its limit in this type, and x^3 would overflow not far beyond */
    static constexpr double BIG = 1e100;
};
template <> struct tg__ewd_k<float> {
    static constexpr float A_HI = 0.797884583f, A_LO = -2.26703403e-08f;
    static constexpr float B_HI = 0.0356774069f, B_LO = 1.19941623e-09f;
    static constexpr float R_HI = 0.707106769f, R_LO = 1.21016175e-08f;
    static constexpr float TWO_SQRTPI = 1.12837923f;
    static constexpr float BIG = 1e10f;
};
/* The math functions by name for both types (a plain fma or fabs of floats could go through double). */
static __device__ __forceinline__ float tg__ewd_fma(float a, float b, float c) { return fmaf(a, b, c); }
static __device__ __forceinline__ double tg__ewd_fma(double a, double b, double c) { return fma(a, b, c); }
static __device__ __forceinline__ float tg__ewd_abs(float v) { return fabsf(v); }
static __device__ __forceinline__ double tg__ewd_abs(double v) { return fabs(v); }
static __device__ __forceinline__ float tg__ewd_exp(float v) { return expf(v); }
static __device__ __forceinline__ double tg__ewd_exp(double v) { return exp(v); }
/* 1/d roughly: the hardware's seed, which tg__ewd_quot refines. On the H100 the fp64 GELU erf's
 * worst error in the GPU tests was 5.14 ulp with it, 5.51 with the IEEE division. The CPU emulation
 * seeds fp64 with a float's precision, so that the refinement is what gives the quotient its bits
 * there too. */
static __device__ __forceinline__ double tg__ewd_rcp_seed(double d)
{
#ifdef __CUDA_ARCH__
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(d));
    return r;
#else
    return (float)(1.0 / d);
#endif
}
static __device__ __forceinline__ float tg__ewd_rcp_seed(float d)
{
#ifdef __CUDA_ARCH__
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
    return r;
#else
    return 1.0f / d;
#endif
}
/* n / d for a normal d of moderate size, without the IEEE division's operand checks and slow path,
 * a branch of its own for every element. fp32: the seed refined by one Newton step, then n times it
 * (under two ulps). fp64: the seed refined by one step of third order (error e^3), then the quotient
 * corrected by its remainder: within an ulp, where the IEEE division is within half of one. The sign
 * of a zero quotient is n's, as the division's. */
static __device__ __forceinline__ float tg__ewd_quot(float n, float d)
{
    float w = tg__ewd_rcp_seed(d);
    return n * fmaf(w, fmaf(-d, w, 1.0f), w);
}
static __device__ __forceinline__ double tg__ewd_quot(double n, double d)
{
    double w = tg__ewd_rcp_seed(d), u = fma(-d, w, 1.0), q;
    w = fma(w, fma(u, u, u), w);
    q = n * w;
    return fma(-fma(d, q, -n), w, q); /* n - d q so written keeps -0 for n = -0 */
}
/* n / (1 + e), 0 <= e <= 1, in the logistic forms. fp32: tg__ewd_quot. The IEEE division takes its
 * slow path when n is tiny, as x e is for GELU tanh below x ~ -9 (random inputs in [-10, 10] held
 * GELU tanh fp32 to 81% of the copy on the H100 with it, 93% on constant inputs), and __frcp_rn,
 * which replaced it there, still checked its operand with a branch. With the quotient and the limit
 * as a select (tg__ewd_act_a), GELU tanh fp32 went from 81.8% of the copy to 96.1% on the H200,
 * bias_act GELU tanh fp32 from 71% to 83% (side by side, three runs each; results/nvidia-h200/
 * ab-select/). fp64 keeps the division and the early return: with both changes its kernels took
 * 54-68 registers instead of 40, and sigmoid fell from 96.6% to 91%, SiLU from 96.1% to 89.7%,
 * GELU tanh from 77.4% to 69.3% in the same runs. */
static __device__ __forceinline__ float tg__ewd_div1(float n, float d) { return tg__ewd_quot(n, d); }
static __device__ __forceinline__ double tg__ewd_div1(double n, double d) { return n / d; }
/* A product the compiler must round: nvcc contracts a * b + c into one fma by default, and the
 * error-free transformations below hold only for the rounded product (contracted, the fp64 GELU tanh
 * missed its 16 ulps on the H100). */
static __device__ __forceinline__ float tg__ewd_mul(float a, float b) { return __fmul_rn(a, b); }
static __device__ __forceinline__ double tg__ewd_mul(double a, double b) { return __dmul_rn(a, b); }

/* The limit of every activation at +-Inf (and past BIG): x or -0. */
template <typename A> static __device__ __forceinline__ A tg__ewd_limit(A x)
{
    return x > 0 ? x : (x < 0 ? (A)-0.0 : x);
}

/* fp64 GELU erf: the CPU's vector form (cpu/elementwise_act_simd.inc, tg__ew_gelu_erf_d with AVX2's
 * exp) but for erfcx (below), one element a thread. E = erfc(y), y = |x|/sqrt2, is exp(-y^2)
 * erfcx(y): y^2 = x^2/2 formed exactly as a pair (its low part joins exp's reduced argument),
 * erfcx a polynomial of degree 20 in
 * (y - 4)/(y + 4), which takes y's rounding without amplifying it. The result is x/2 E for x < 0,
 * x - |x|/2 E above. CUDA's erfc(double), with a first-order term for u's rounding, held this
 * activation to 73% of the copy on the H100; this form with an IEEE division and the checks the
 * other activations share, to 90% (4745258, side by side), where ncu found the issue slots 81%
 * busy and the fp64 pipe 59%. Hence the fewest instructions: Horner's rule (other warps hide its
 * latency), a division without the IEEE one's checks and slow path, and no branch: NaN passes
 * through every step (the clamp keeps it), and past the clamp (|x| >= 37.655, +-Inf too) exp's
 * scale is 0 and E with it, as on the CPU, so the limits x and -0 come out. That alone gained
 * nothing (ptxas took more registers); with one vector a thread a turn (tg__ewd_u) 95%. The CPU's
 * later form, erfcx / 2 as a rational function of degrees 9 and 10 in xn (fewer fmas), lost here:
 * ptxas gave its kernel 44 registers against 39, fewer warps in flight, and it ran at 90.9% of the
 * copy against this form's 95.1% at 512 MiB, side by side (87.9% at 256 MiB; c464629 on the H100,
 * results/nvidia-h100-80gb-hbm3/c464629/). So this one keeps the polynomial, on its own
 * coefficients (TG__EW_ERFCX_CD). */
static __constant__ double tg__ewd_exp_cd[12] = {TG__EW_EXP_CD};
static __constant__ double tg__ewd_erfcx_cd[21] = {TG__EW_ERFCX_CD};
static __device__ __forceinline__ double tg__ewd_gelu_erf_d(double x)
{
    const double ax = -fabs(x), xn = ax < -TG__FLUSH_ERF_D ? -TG__FLUSH_ERF_D : ax;
    const double h = 0.5 * xn, s = __dmul_rn(xn, h), sl = fma(xn, h, -s); /* x^2/2 = s + sl */
    const double k = fma(-s, TG__LOG2E, TG__ROUND_D), n = k - TG__ROUND_D;
    /* erfcx's point, y <= 9 (past it E is far under the floor): y -+ 4 from one rounding each */
    const double xc = fmax(xn, -9.0 / TG__SQRT1_2), num = fma(xc, -TG__SQRT1_2, -4.0),
                 den = fma(xc, -TG__SQRT1_2, 4.0);
    double r = fma(-n, TG__LN2_HI_D, -s), p, e, u;
    int j;
    r = fma(-n, TG__LN2_LO_D, r) - sl;
    p = tg__ewd_exp_cd[11];
    for (j = 10; j >= 0; j--) p = fma(p, r, tg__ewd_exp_cd[j]);
    /* times 2^n, built in the exponent field: k's low bits hold n (unsigned: the shift drops bits) */
    e = p * __longlong_as_double(
                (long long)(((unsigned long long)__double_as_longlong(k) - (0x4338000000000000ULL - 1023)) << 52));
    u = tg__ewd_quot(num, den);
    p = tg__ewd_erfcx_cd[20];
    for (j = 19; j >= 0; j--) p = fma(p, u, tg__ewd_erfcx_cd[j]);
    return fma(h, e * p, x >= 0 ? x : -0.0); /* -0 takes -0 */
}

/* The logistic forms take e = exp(-|z|), which never overflows and keeps subnormal results for
 * negative z: x / (1 + exp(-z)) is x / (1 + e) for z >= 0 and x e / (1 + e) below; a select, not a
 * branch, since neighbouring elements take either side. ACT is a template argument, so that each
 * kernel holds one activation and no per-element dispatch.
 * Past BIG (and at +-Inf, NaN) the result is the limit, chosen by a select after the formula, whose
 * value there (NaN or anything) it discards. As an early return, each of a thread's elements was a
 * branch of its own in the SASS, its arithmetic a chain the warp ran alone, element after element:
 * on the H200 (4.1 TB/s) that held fp16/bf16 GELU erf to 68-72% of the copy, fp32's to 72%; with
 * the select 79-80% and 77% (side by side, three runs each; results/nvidia-h200/ab-select/). fp64
 * keeps the early return: see tg__ewd_div1. */
template <int ACT, typename A> static __device__ __forceinline__ A tg__ewd_act_a(A x)
{
    typedef tg__ewd_k<A> K;
    A uh, ul, e, r;
    if (ACT == TG_ACT_SIGMOID) {
        e = tg__ewd_exp(-tg__ewd_abs(x));
        return tg__ewd_div1(x >= 0 ? (A)1 : e, 1 + e);
    }
    if constexpr (ACT == TG_ACT_GELU_ERF && sizeof(A) == 8) return tg__ewd_gelu_erf_d(x);
    if (sizeof(A) == 8 && !(tg__ewd_abs(x) <= K::BIG)) return tg__ewd_limit(x); /* see tg__ewd_div1 */
    if (ACT == TG_ACT_SILU) {
        e = tg__ewd_exp(-tg__ewd_abs(x));
        r = tg__ewd_div1(x >= 0 ? x : x * e, 1 + e);
    } else if constexpr (ACT == TG_ACT_GELU_ERF && sizeof(A) == 4) {
        /* fp32: x/2 erfc(u), u = -x/sqrt(2) = uh + ul, erfc(uh + ul) to first order. The
         * first-order term is about 2 u ul of the result (up to ~2^-19 where the result is above the
         * ulp floor), so the hardware's approximate exp (relative error up to ~2^-16 at these
         * arguments) adds ~2^-35 of the result at most. Past uh^2 ~ 103 it underflows to 0 and the
         * term is dropped: the result is then below 2^-140, far under the floor (2^-24 absolute). */
        uh = -tg__ewd_mul(K::R_HI, x);
        ul = -(tg__ewd_fma(K::R_HI, x, uh) + K::R_LO * x);
        r = (A)0.5 * x * (erfcf(uh) - K::TWO_SQRTPI * __expf(-uh * uh) * ul);
    } else { /* GELU tanh: x / (1 + exp(-2u)), u = a x + b x^3 = uh + ul */
        A x2 = tg__ewd_mul(x, x), x2l = tg__ewd_fma(x, x, -x2);
        A x3 = tg__ewd_mul(x2, x), x3l = tg__ewd_fma(x2, x, -x3) + x2l * x;
        A t = tg__ewd_mul(K::B_HI, x3), tl = tg__ewd_fma(K::B_HI, x3, -t) + K::B_HI * x3l + K::B_LO * x3;
        A s = tg__ewd_mul(K::A_HI, x), sl = tg__ewd_fma(K::A_HI, x, -s) + K::A_LO * x;
        A bb;
        uh = s + t;
        bb = uh - s;
        ul = ((s - (uh - bb)) + (t - bb)) + sl + tl;
        /* exp(-2|u|) = exp(-2|uh|) (1 -+ 2 ul) */
        e = tg__ewd_exp(-2 * tg__ewd_abs(uh));
        e = tg__ewd_fma(e, uh >= 0 ? -2 * ul : 2 * ul, e);
        r = tg__ewd_div1(uh >= 0 ? x : x * e, 1 + e);
    }
    return tg__ewd_abs(x) <= K::BIG ? r : tg__ewd_limit(x);
}

/* GELU erf takes E = erfc(z), z = |x|/sqrt2, as t exp(g(t) - z^2), t = 1/(1 + z/2), g a polynomial
 * of degree 7 (tests/elementwise/act_coeffs.py: relative error 1.2e-6 over z in [0, 14], past which
 * E is 0 in fp32; ~2^-16 with z's rounding and the approximate exp): a third of erfcf's instructions,
 * with which fp16 and bf16 ran at 63% of the copy on the H100 (16 elements a thread).
 * ex2.approx without .ftz keeps the subnormal results bf16 has. */
template <int ACT> static __device__ __forceinline__ float tg__ewd_act_fast(float x)
{
    typedef tg__ewd_k<float> K;
    float z, e, r;
    if (ACT == TG_ACT_SIGMOID) {
        e = __expf(-fabsf(x));
        return __fdividef(x >= 0 ? 1.0f : e, 1.0f + e);
    }
    if (ACT == TG_ACT_GELU_ERF) {
        float t, g, h;
        z = fabsf(x) * K::R_HI;
        t = __fdividef(1.0f, fmaf(0.5f, z, 1.0f));
        g = fmaf(-1.997603774e-01f, t, 7.999589443e-01f);
        g = fmaf(g, t, -1.080996394e+00f);
        g = fmaf(g, t, 4.193609655e-01f);
        g = fmaf(g, t, -7.369627804e-02f);
        g = fmaf(g, t, 4.032535851e-01f);
        g = fmaf(g, t, 9.972833991e-01f);
        g = fmaf(g, t, -1.265405059e+00f);
        h = 0.5f * x * t * __expf(g - z * z); /* x/2 E, with x's sign: -0 for -0 */
        r = x > 0 ? x - h : h;                 /* erfc(-z) = 2 - E for x > 0 */
    } else {
        z = ACT == TG_ACT_SILU ? x : 2.0f * (K::A_HI * x + K::B_HI * x * x * x);
        e = __expf(-fabsf(z));
        r = __fdividef(z >= 0 ? x : x * e, 1.0f + e);
    }
    return fabsf(x) <= K::BIG ? r : tg__ewd_limit(x); /* a select: see tg__ewd_act_a */
}

/* The activation of one element in the array's compute type: fp16 and bf16 take the fast forms. */
template <typename T, int ACT>
static __device__ __forceinline__ typename tg__ewd_t<T>::C tg__ewd_act(typename tg__ewd_t<T>::C v)
{
    typedef typename tg__ewd_t<T>::C C;
    if constexpr (ACT == TG_ACT_NONE) return v;
    else if constexpr (ACT == TG_ACT_RELU) return 0 > v ? (C)0 : v;
    else if constexpr (sizeof(T) == 2) return tg__ewd_act_fast<ACT>(v);
    else return tg__ewd_act_a<ACT>(v);
}

/* ---- N elements: z = act(op(x, y)) ---- */
typedef struct {
    int op, act;         /* tg__ewd_op, tg_act */
    double s;            /* the scalar, already rounded to the array's type */
    int64_t lines, len, ld;
    const void *x, *y;   /* y: indexed along the run, or NULL */
    const void *line_s;  /* one scalar per run (op ADDS), or NULL */
    void *z;
} tg__ewd_dev;

/* The op's switch is taken once for the N elements (a whole batch of 128-bit vectors), not per
 * element, where it took as many instructions as the fast GELU of a half (PTX before 427e1936a41f). */
template <typename T, int ACT, int N>
static __device__ __forceinline__ void tg__ewd_apply(int op, typename tg__ewd_t<T>::C s, const T *xs,
                                                     const T *ys, T *zs)
{
    typedef typename tg__ewd_t<T>::C C;
    C v[N];
    int k;
#define TG__EWD_EACH(expr) for (k = 0; k < N; k++) { C x = tg__ewd_c(xs[k]), y = tg__ewd_c(ys[k]); (void)y; v[k] = (expr); } break
    switch (op) {
    case TG__EW_ADD: TG__EWD_EACH(x + y);
    case TG__EW_SUB: TG__EWD_EACH(x - y);
    case TG__EW_MUL: TG__EWD_EACH(x * y);
    case TG__EW_ADDS: TG__EWD_EACH(x + s);
    case TG__EW_SCALE: TG__EWD_EACH(s * x);
    case TG__EW_AXPY: TG__EWD_EACH(tg__ewd_fma(s, x, y));
    default: TG__EWD_EACH(x);
    }
#undef TG__EWD_EACH
    for (k = 0; k < N; k++) zs[k] = tg__ewd_to<T>((double)tg__ewd_act<T, ACT>(v[k]));
}

/* Scalar access: direct when the pointer is aligned to its element (EA), else bytewise. */
template <typename T, bool EA> static __device__ __forceinline__ T tg__ewd_ld(const T *p)
{
    T v;
    if (EA) return *p;
    memcpy(&v, (const unsigned char *)p, sizeof v);
    return v;
}
template <typename T, bool EA> static __device__ __forceinline__ void tg__ewd_st(T *p, T v)
{
    if (EA) *p = v;
    else memcpy((unsigned char *)p, &v, sizeof v);
}

/* Elements before the first 16-byte boundary of p (0 when p is not aligned to its element). */
template <typename T> static __device__ __forceinline__ int64_t tg__ewd_head(const void *p)
{
    uintptr_t mis = (uintptr_t)p % 16;
    return mis % sizeof(T) ? 0 : (int64_t)((16 - mis) % 16 / sizeof(T));
}

/* Vectors of 128 bits a thread loads before it computes any, so that the arithmetic of the GELUs does
 * not leave a thread with no load in flight. Two with which 427e1936a41f made each kernel hold one
 * activation and the op's switch once per batch: together they took GELU erf fp32 from 80% to 97%
 * of the copy on the H100, GELU tanh fp16 from 79% to 97%; their shares were not measured apart.
 * One for fp64 GELU erf, whose two take 51 registers a thread and leave an SM 4 blocks (ncu: 47%
 * occupancy): with one, 39 registers, 6 blocks, 90% -> 95% of the copy (H100, side by side, three
 * runs each, c81b718); one everywhere cost fp16 GELU erf 2.4 points and fp32's 0.8. The grid is
 * sized for the common count (tg__ewd_launch_t): with one a thread takes two turns of its
 * grid-stride loop. */
template <typename T, int ACT> static constexpr __host__ __device__ int tg__ewd_u()
{
    return sizeof(T) == 8 && ACT == TG_ACT_GELU_ERF ? 1 : 2;
}

/* Grid: x splits the runs' elements, y the runs. */
template <typename T, bool EA, int ACT> __global__ void tg__ewd_kernel(tg__ewd_dev j)
{
    typedef typename tg__ewd_t<T>::C C;
    const int V = 16 / sizeof(T), U = tg__ewd_u<T, ACT>();
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    int64_t l;
    for (l = blockIdx.y; l < j.lines; l += gridDim.y) {
        const T *x = (const T *)j.x + l * j.ld, *y = (const T *)j.y;
        T *z = (T *)j.z + l * j.ld;
        const int64_t n = j.len;
        C s = j.line_s ? tg__ewd_c(tg__ewd_ld<T, EA>((const T *)j.line_s + l)) : (C)j.s;
        int64_t head = tg__ewd_head<T>(z), nvec, body_end, rest, v, r;
        /* 128-bit accesses only when x (and y) sit at z's offset from a 16-byte boundary */
        int co = EA && (uintptr_t)x % 16 == (uintptr_t)z % 16 && (!y || (uintptr_t)y % 16 == (uintptr_t)z % 16);
        if (head > n) head = n;
        nvec = co ? (n - head) / V : 0;
        if (!co) head = 0;
        body_end = head + nvec * V;
        /* A thread's U vectors are stride apart, so that a warp's accesses stay consecutive. */
        for (v = tid; v < nvec; v += U * stride) {
            uint4 u[U], w[U];
            T xs[U * V], ys[U * V], zs[U * V];
            int b;
            for (b = 0; b < U; b++) {
                int64_t i = head + (v + b * stride) * V;
                int in = v + b * stride < nvec;
                u[b] = in ? *(const uint4 *)(x + i) : make_uint4(0, 0, 0, 0);
                w[b] = in && y ? *(const uint4 *)(y + i) : make_uint4(0, 0, 0, 0);
            }
            memcpy(xs, u, sizeof xs);
            memcpy(ys, w, sizeof ys);
            tg__ewd_apply<T, ACT, U * V>(j.op, s, xs, ys, zs);
            memcpy(u, zs, sizeof zs);
            for (b = 0; b < U; b++)
                if (v + b * stride < nvec) *(uint4 *)(z + head + (v + b * stride) * V) = u[b];
        }
        /* The head and the tail (or the whole run when not co-aligned), one element at a time. */
        rest = n - nvec * V;
        for (r = tid; r < rest; r += stride) {
            int64_t i = r < head ? r : body_end + (r - head);
            T xv = tg__ewd_ld<T, EA>(x + i), yv = y ? tg__ewd_ld<T, EA>(y + i) : xv, zv;
            tg__ewd_apply<T, ACT, 1>(j.op, s, &xv, &yv, &zv);
            tg__ewd_st<T, EA>(z + i, zv);
        }
    }
}

/* The kernel for the call's activation (one launch per line: tests/elementwise/emu rewrites them
 * for the CPU emulation). */
template <typename T, bool EA> static void tg__ewd_launch_ea(const tg__ewd_dev &j, dim3 grid, int threads, cudaStream_t stream)
{
    switch (j.act) {
    case TG_ACT_NONE:
        tg__ewd_kernel<T, EA, TG_ACT_NONE><<<grid, threads, 0, stream>>>(j);
        break;
    case TG_ACT_RELU:
        tg__ewd_kernel<T, EA, TG_ACT_RELU><<<grid, threads, 0, stream>>>(j);
        break;
    case TG_ACT_GELU_TANH:
        tg__ewd_kernel<T, EA, TG_ACT_GELU_TANH><<<grid, threads, 0, stream>>>(j);
        break;
    case TG_ACT_GELU_ERF:
        tg__ewd_kernel<T, EA, TG_ACT_GELU_ERF><<<grid, threads, 0, stream>>>(j);
        break;
    case TG_ACT_SIGMOID:
        tg__ewd_kernel<T, EA, TG_ACT_SIGMOID><<<grid, threads, 0, stream>>>(j);
        break;
    default:
        tg__ewd_kernel<T, EA, TG_ACT_SILU><<<grid, threads, 0, stream>>>(j);
        break;
    }
}

/* Enough blocks to fill any current GPU several times over; grid-stride loops do the rest. (The CPU
 * emulation's second run sets 1: test-cuda-elementwise-emulated.) */
#ifndef TG__EWD_MAX_BLOCKS
#define TG__EWD_MAX_BLOCKS 16384
#endif

template <typename T> static void tg__ewd_launch_t(const tg__ewd_dev &j, int ea, cudaStream_t stream)
{
    const int threads = 256, V = 16 / sizeof(T);
    int64_t want = (j.len / (V * tg__ewd_u<T, TG_ACT_NONE>()) + threads - 1) / threads;
    dim3 grid((unsigned)(want < 1 ? 1 : want > TG__EWD_MAX_BLOCKS ? TG__EWD_MAX_BLOCKS : want),
              (unsigned)(j.lines < 65535 ? j.lines : 65535));
    if (ea)
        tg__ewd_launch_ea<T, true>(j, grid, threads, stream);
    else
        tg__ewd_launch_ea<T, false>(j, grid, threads, stream);
}

/* The scalar rounded to the array's type once, kept as a double. */
static double tg__ewd_round(tg_dtype t, double v)
{
    switch (t) {
    case TG_F32: return (float)v;
    case TG_F16: return (double)__half2float(__double2half(v));
    case TG_BF16: return (double)__bfloat162float(__double2bfloat16(v));
    default: return v;
    }
}

static int tg__ewd_aligned(const void *p, size_t es) { return !p || (uintptr_t)p % es == 0; }

/* Queues a checked job (lines, len > 0). */
static int tg__ewd_cuda_run(const char *fn, tg_dtype t, tg__ewd_dev j, cudaStream_t stream)
{
    size_t es = tg__ew_size(t);
    int ea = tg__ewd_aligned(j.x, es) && tg__ewd_aligned(j.y, es) && tg__ewd_aligned(j.z, es) &&
             tg__ewd_aligned(j.line_s, es);
    cudaError_t err;
    j.s = tg__ewd_round(t, j.s);
    switch (t) {
    case TG_F32: tg__ewd_launch_t<float>(j, ea, stream); break;
    case TG_F64: tg__ewd_launch_t<double>(j, ea, stream); break;
    case TG_F16: tg__ewd_launch_t<__half>(j, ea, stream); break;
    default: tg__ewd_launch_t<__nv_bfloat16>(j, ea, stream); break;
    }
    err = cudaGetLastError();
    return err == cudaSuccess ? TG_OK : tg__fail(TG_ERR_DEVICE, fn, cudaGetErrorString(err));
}

static int tg__ewd_cuda_1d(const char *fn, tg_dtype t, int op, int act, double s, int64_t n,
                          const void *x, const void *y, void *z, cudaStream_t stream)
{
    tg__ewd_dev j;
    if (n == 0) return TG_OK;
    j.op = op;
    j.act = act;
    j.s = s;
    j.lines = 1;
    j.len = j.ld = n;
    j.x = x;
    j.y = y;
    j.line_s = NULL;
    j.z = z;
    return tg__ewd_cuda_run(fn, t, j, stream);
}

TGEMM_DEF int tg_cuda_add(tg_dtype t, int64_t n, const void *x, const void *y, void *z, cudaStream_t stream)
{
    int st = tg__ew_check_binary("tg_cuda_add", t, n, x, y, z);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_add", t, TG__EW_ADD, TG_ACT_NONE, 0.0, n, x, y, z, stream);
}

TGEMM_DEF int tg_cuda_sub(tg_dtype t, int64_t n, const void *x, const void *y, void *z, cudaStream_t stream)
{
    int st = tg__ew_check_binary("tg_cuda_sub", t, n, x, y, z);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_sub", t, TG__EW_SUB, TG_ACT_NONE, 0.0, n, x, y, z, stream);
}

TGEMM_DEF int tg_cuda_mul(tg_dtype t, int64_t n, const void *x, const void *y, void *z, cudaStream_t stream)
{
    int st = tg__ew_check_binary("tg_cuda_mul", t, n, x, y, z);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_mul", t, TG__EW_MUL, TG_ACT_NONE, 0.0, n, x, y, z, stream);
}

TGEMM_DEF int tg_cuda_scale(tg_dtype t, int64_t n, double alpha, void *x, cudaStream_t stream)
{
    int st = tg__ew_check_scale("tg_cuda_scale", t, n, x);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_scale", t, TG__EW_SCALE, TG_ACT_NONE, alpha, n, x, NULL, x, stream);
}

TGEMM_DEF int tg_cuda_axpy(tg_dtype t, int64_t n, double alpha, const void *x, void *y, cudaStream_t stream)
{
    int st = tg__ew_check_axpy("tg_cuda_axpy", t, n, x, y);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_axpy", t, TG__EW_AXPY, TG_ACT_NONE, alpha, n, x, y, y, stream);
}

TGEMM_DEF int tg_cuda_activate(tg_dtype t, tg_act act, int64_t n, const void *x, void *y, cudaStream_t stream)
{
    int st = tg__ew_check_activate("tg_cuda_activate", t, act, n, x, y);
    return st ? st : tg__ewd_cuda_1d("tg_cuda_activate", t, TG__EW_COPY, act, 0.0, n, x, NULL, y, stream);
}

TGEMM_DEF int tg_cuda_bias_act(tg_dtype t, tg_layout layout, int64_t rows, int64_t cols, const void *bias,
                               tg_bias_mode mode, tg_act act, void *c, int64_t ldc, cudaStream_t stream)
{
    int row = layout == TG_ROW_MAJOR, along = (mode == TG_BIAS_PER_COL) == row;
    tg__ewd_dev j;
    int st = tg__ew_check_bias_act("tg_cuda_bias_act", t, layout, rows, cols, bias, mode, act, c, ldc);
    if (st) return st;
    if (rows == 0 || cols == 0) return TG_OK;
    j.op = along ? TG__EW_ADD : TG__EW_ADDS;
    j.act = act;
    j.s = 0.0;
    j.lines = row ? rows : cols;
    j.len = row ? cols : rows;
    j.ld = ldc;
    j.x = c;
    j.y = along ? bias : NULL;
    j.line_s = along ? NULL : bias;
    j.z = c;
    return tg__ewd_cuda_run("tg_cuda_bias_act", t, j, stream);
}
