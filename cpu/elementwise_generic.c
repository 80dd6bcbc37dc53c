/* The portable elementwise runs (elementwise_generic.inc) for float and double.
 *
 * Used on every CPU without AVX2 and FMA, when TGEMM_ARCH=generic, and by the vector families
 * (AVX2, AVX-512) for the heads and tails of the operations without a transcendental activation. */
#include <math.h>

#include "elementwise.h"

#define TG__T float
#define TG__FN(x) x##_s
#define TG__S(e) ((e)->sf)
#define TG__FMA fmaf
#define TG__ACT tg__ew_act_s
#include "elementwise_generic.inc"
#undef TG__T
#undef TG__FN
#undef TG__S
#undef TG__FMA
#undef TG__ACT

#define TG__T double
#define TG__FN(x) x##_d
#define TG__S(e) ((e)->sd)
#define TG__FMA fma
#define TG__ACT tg__ew_act_d
#include "elementwise_generic.inc"
#undef TG__T
#undef TG__FN
#undef TG__S
#undef TG__FMA
#undef TG__ACT
