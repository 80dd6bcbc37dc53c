/* The activations evaluated accurately in long double, and the error of a result in ulps of its
 * type: what every elementwise test judges fp32 and fp64 activations by (the CPU tests through
 * ew_ref.h, the CUDA tests directly). Independent of the library: the forms below are the plain
 * definitions, rearranged only where the textbook expressions cancel. Header-only, static: include it
 * once, after api.h (or tgemm.h, or the CUDA API) and <math.h>. */
#ifndef TG_TEST_ACT_REF_H
#define TG_TEST_ACT_REF_H

/* ---- accurate activations in long double ---- */
static long double act_ref(tg_act act, long double x)
{
    const long double pi = 3.14159265358979323846264338327950288L;
    long double u;
    if (isinf(x) && act != TG_ACT_NONE) { /* the limits */
        if (act == TG_ACT_SIGMOID) return x > 0 ? 1 : 0;
        return x > 0 ? x : act == TG_ACT_RELU ? 0 : -0.0L; /* GELU, SiLU: from below */
    }
    switch (act) {
    case TG_ACT_NONE: return x;
    case TG_ACT_RELU: return x < 0 ? 0 : x;
    case TG_ACT_GELU_TANH:
        /* 0.5 x (1 + tanh u) = x / (1 + exp(-2u)): the same value without the cancellation */
        u = sqrtl(2 / pi) * (x + 0.044715L * x * x * x);
        return x / (1 + expl(-2 * u));
    case TG_ACT_GELU_ERF: return 0.5L * x * erfcl(-x / sqrtl(2));
    case TG_ACT_SIGMOID: return 1 / (1 + expl(-x));
    case TG_ACT_SILU: return x / (1 + expl(-x));
    }
    return NAN;
}

/* |got - ref| in ulps of the output type at max(|ref|, tiny); infinite for a zero whose sign is not
 * the exact result's (GELU and SiLU of -0 and of the far negative tail are -0). */
static double ulps(tg_dtype t, double got, long double ref)
{
    int e;
    long double m = fabsl(ref), tiny = t == TG_F32 ? 0x1p-24L : 0x1p-53L;
    if (isnan(got) || isnan(ref)) return isnan(got) && isnan(ref) ? 0 : INFINITY;
    if (got == 0 && !signbit(got) != !signbit((double)ref)) return INFINITY;
    if (isinf(got) || isinf(ref)) return got == ref ? 0 : INFINITY;
    if (m < tiny) m = tiny;
    frexpl(m, &e); /* m = f * 2^e, f in [0.5, 1): ulp = 2^(e - 1 - (p - 1)) */
    return (double)(fabsl((long double)got - ref) / ldexpl(1, e - (t == TG_F32 ? 24 : 53)));
}

#endif
