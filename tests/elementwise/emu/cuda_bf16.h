/* CPU emulation of the little of cuda_bf16.h the elementwise code uses: __nv_bfloat16 as its
 * 16-bit pattern (the top half of a float), round-to-nearest-even conversions. */
#ifndef TG_EW_EMU_CUDA_BF16_H
#define TG_EW_EMU_CUDA_BF16_H

#include <cmath>
#include <cstdint>
#include <cstring>

struct __nv_bfloat16 {
    uint16_t x;
};

static inline float __bfloat162float(__nv_bfloat16 b)
{
    uint32_t u = (uint32_t)b.x << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    uint32_t u;
    __nv_bfloat16 b;
    memcpy(&u, &f, 4);
    if (std::isnan(f)) b.x = (uint16_t)((u >> 16) | 0x40);
    else b.x = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
    return b;
}
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.x; }
/* Through float: a double rounding the real header avoids; only the scalar alpha takes this path. */
static inline __nv_bfloat16 __double2bfloat16(double d) { return __float2bfloat16_rn((float)d); }

#endif
