/* The portable micro-kernels (kernel_generic.inc) for float and double, 4 x 8 register tiles. */
#include "cpu.h"

/* 4 x 8 keeps 32 accumulators: enough independent sums to hide FMA latency where the compiler
 * vectorizes, few enough to stay in registers on most targets. */
enum { TG__GMR = 4, TG__GNR = 8 };

#define TG__T float
#define TG__FN(x) x##_generic_s
#include "tile.inc"
#include "kernel_generic.inc"
#undef TG__T
#undef TG__FN

#define TG__T double
#define TG__FN(x) x##_generic_d
#include "tile.inc"
#include "kernel_generic.inc"
#undef TG__T
#undef TG__FN

TG__PRIVATE const tg__kernel *tg__kernel_generic(size_t es)
{
    return es == sizeof(float) ? &tg__kernel_desc_generic_s : &tg__kernel_desc_generic_d;
}
