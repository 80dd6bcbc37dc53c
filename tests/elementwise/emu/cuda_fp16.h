/* CPU emulation of the little of cuda_fp16.h the elementwise code uses: __half as its 16-bit
 * pattern, and the round-to-nearest-even conversions (see tests/elementwise/emu/cuda_runtime.h). */
#ifndef TG_EW_EMU_CUDA_FP16_H
#define TG_EW_EMU_CUDA_FP16_H

#include <cmath>
#include <cstdint>

struct __half {
    uint16_t x;
};

static inline float __half2float(__half h)
{
    int e = (h.x >> 10) & 31, m = h.x & 1023;
    float v = e == 0 ? std::ldexp((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : std::ldexp((float)(m | 1024), e - 25);
    return (h.x & 0x8000) ? -v : v;
}

/* Nearest half to a double (a float converts exactly to double first): exact integer arithmetic on
 * the value scaled to units of the half's last place. */
static inline __half __double2half(double d)
{
    __half h;
    uint16_t sign = std::signbit(d) ? 0x8000 : 0;
    double a = std::fabs(d);
    if (std::isnan(d)) { h.x = 0x7e00; return h; }
    if (a >= 65520.0) { h.x = sign | 0x7c00; return h; } /* rounds to Inf from halfway up */
    if (a == 0) { h.x = sign; return h; }
    int e;
    std::frexp(a, &e);                     /* a = f * 2^e, f in [0.5, 1) */
    int q = e - 11 < -24 ? -24 : e - 11;   /* the last place: 2^q (subnormals: 2^-24) */
    double units = std::ldexp(a, -q), r = std::nearbyint(units); /* ties to even (default mode) */
    uint32_t u = (uint32_t)r;              /* value = u * 2^q, u < 2^11 + 1 */
    if (q == -24 && u < 1024) { h.x = sign | (uint16_t)u; return h; }
    if (u == 2048) { u = 1024; q++; }      /* rounded up to the next binade */
    if (q == -24 && u >= 1024) { h.x = sign | (uint16_t)((1 << 10) | (u - 1024)); return h; }
    h.x = sign | (uint16_t)(((q + 25) << 10) | (u - 1024));
    return h;
}
static inline __half __float2half_rn(float f) { return __double2half((double)f); }

#endif
