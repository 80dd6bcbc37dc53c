/* The transcendental activations (GELU tanh and erf forms, sigmoid, SiLU), element by element in
 * double: the portable family's (elementwise_act_simd.inc holds the vector families' versions, which
 * follow the same rewritten forms).
 *
 * The textbook forms cancel for negative inputs: 0.5 x (1 + tanh(u)) and 0.5 x (1 + erf(u)) lose all
 * their digits where tanh or erf is near -1. They are rewritten without the subtraction:
 *     GELU tanh:  0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)),  u = sqrt(2/pi) (x + 0.044715 x^3)
 *                 (= x e / (1 + e), e = exp(2u), for u < 0: exp never overflows)
 *     GELU erf:   0.5 x (1 + erf(x/sqrt2)) = 0.5 x erfc(-x/sqrt2)
 * The second trap is the argument: for x near -6 the result is ~exp(-2u) with 2u ~ 40, so a relative
 * error of one ulp in u becomes 40 ulps in the result. u is therefore formed as a double-double
 * (hi + lo, error ~2^-100) and lo enters through the derivative: exp(-2(hi + lo)) = exp(-2hi)(1 - 2lo),
 * erfc(hi + lo) = erfc(hi) - 2/sqrt(pi) exp(-hi^2) lo. What remains is libm's few-ulp error in exp
 * and erfc and three roundings. Float arrays use the same functions and round once, which makes their
 * results correctly rounded nearly always.
 */
#include <math.h>

#include "elementwise.h"

/* sqrt(2/pi), sqrt(2/pi) * 0.044715 and 1/sqrt(2), each as hi + lo: hi the nearest double, lo the
 * nearest double to the rest (computed with 200-bit arithmetic). */
#define TG__EW_A_HI 0.7978845608028654
#define TG__EW_A_LO (-4.98465440455546e-17)
#define TG__EW_B_HI 0.035677408136300125
#define TG__EW_B_LO (-3.0875749590776575e-19)
#define TG__EW_R_HI 0.7071067811865476
#define TG__EW_R_LO (-4.833646656726457e-17)
#define TG__EW_2_SQRTPI 1.1283791670955126

/* Beyond this magnitude every activation has reached its limit (x or -0) to double precision, and
 * x^3 could overflow: the limit is returned directly (it is also the answer at +-Inf). */
#define TG__EW_HUGE 1e100

/* p = a * x + b * x^3 as hi + lo, from a and b given as hi + lo. */
static void tg__ew_cubic(double x, double *hi, double *lo)
{
    double x2 = x * x, x2l = fma(x, x, -x2);
    double x3 = x2 * x, x3l = fma(x2, x, -x3) + x2l * x;
    double t = TG__EW_B_HI * x3, tl = fma(TG__EW_B_HI, x3, -t) + TG__EW_B_HI * x3l + TG__EW_B_LO * x3;
    double s = TG__EW_A_HI * x, sl = fma(TG__EW_A_HI, x, -s) + TG__EW_A_LO * x;
    double u = s + t, bb = u - s, e = (s - (u - bb)) + (t - bb); /* two-sum: u + e == s + t */
    *hi = u;
    *lo = e + sl + tl;
}

static double tg__ew_limit(double x) { return x > 0 ? x : (x < 0 ? -0.0 : x); }

static double tg__ew_gelu_tanh(double x)
{
    double uh, ul, e;
    if (!(fabs(x) <= TG__EW_HUGE)) return tg__ew_limit(x);
    tg__ew_cubic(x, &uh, &ul);
    if (uh >= 0) {
        e = exp(-2.0 * uh);
        return x / (1.0 + fma(e, -2.0 * ul, e));
    }
    e = exp(2.0 * uh); /* x e / (1 + e): no overflow, and subnormal tails keep their value */
    e = fma(e, 2.0 * ul, e);
    return x * e / (1.0 + e);
}

static double tg__ew_gelu_erf(double x)
{
    double uh, ul;
    if (!(fabs(x) <= TG__EW_HUGE)) return tg__ew_limit(x);
#if defined(TG__EW_PLANT) && TG__EW_PLANT == 2
    return 0.5 * x * (1.0 + erf(x * TG__EW_R_HI)); /* planted for the tests: the cancelling form */
#endif
    uh = -TG__EW_R_HI * x;                                 /* u = -x / sqrt(2) */
    ul = -(fma(TG__EW_R_HI, x, uh) + TG__EW_R_LO * x);
    return 0.5 * x * (erfc(uh) - TG__EW_2_SQRTPI * exp(-uh * uh) * ul);
}

/* For x < 0 both use e / (1 + e) with e = exp(x), so that exp never overflows and results in the
 * subnormal range keep their value. */
static double tg__ew_sigmoid(double x)
{
    double e;
    if (x >= 0) return 1.0 / (1.0 + exp(-x));
    e = exp(x);
    return e / (1.0 + e);
}

static double tg__ew_silu(double x)
{
    double e;
    if (!(fabs(x) <= TG__EW_HUGE)) return tg__ew_limit(x); /* -Inf * 0 would be NaN */
    if (x >= 0) return x / (1.0 + exp(-x));
    e = exp(x);
    return x * e / (1.0 + e);
}

static double (*tg__ew_act_fn(tg_act act))(double)
{
    switch (act) {
    case TG_ACT_GELU_TANH: return tg__ew_gelu_tanh;
    case TG_ACT_GELU_ERF: return tg__ew_gelu_erf;
    case TG_ACT_SIGMOID: return tg__ew_sigmoid;
    default: return tg__ew_silu;
    }
}

TG__PRIVATE void tg__ew_act_s(tg_act act, int64_t n, float *z)
{
    double (*f)(double) = tg__ew_act_fn(act);
    int64_t i;
    for (i = 0; i < n; i++) z[i] = (float)f((double)z[i]);
}

TG__PRIVATE void tg__ew_act_d(tg_act act, int64_t n, double *z)
{
    double (*f)(double) = tg__ew_act_fn(act);
    int64_t i;
    for (i = 0; i < n; i++) z[i] = f(z[i]);
}
