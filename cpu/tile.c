/* Instantiates the typed tile helpers (tile.inc) for float and double. */
#include "cpu.h"

#define TG__T float
#define TG__FN(x) x##_s
#include "tile.inc"
#undef TG__T
#undef TG__FN

#define TG__T double
#define TG__FN(x) x##_d
#include "tile.inc"
#undef TG__T
#undef TG__FN
