/* The host references the CPU elementwise tests judge by (test_elementwise.c, and the fuzzer
 * tests/fuzz/fuzz_elementwise.c): fp32/fp64 element access and same-value-and-sign comparison, with
 * act_ref.h's accurate activations and ulps. Header-only, static: each test includes it once, after
 * api.h (or tgemm.h) and <math.h>. */
#ifndef TG_TEST_EW_REF_H
#define TG_TEST_EW_REF_H

static size_t es_of(tg_dtype t) { return t == TG_F32 ? 4 : 8; }
static double get(tg_dtype t, const void *p, int64_t i)
{
    return t == TG_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static void put(tg_dtype t, void *p, int64_t i, double v)
{
    if (t == TG_F32) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}
/* Same value, NaN equal to NaN, and the same sign of zero. */
static int same(double a, double b) { return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)); }

#include "act_ref.h"

#endif
