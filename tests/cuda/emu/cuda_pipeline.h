/* CPU emulation of cp.async (cuda_pipeline.h) for the emulated test: a copy is only queued, and
 * happens when __pipeline_wait_prior releases its commit group, the latest moment the hardware
 * could perform it, so a read of a buffer before its wait sees stale data, as it might on a GPU. */
#ifndef TG_EMU_CUDA_PIPELINE_H
#define TG_EMU_CUDA_PIPELINE_H

#include <cstring>

#include "cuda_runtime_api.h"

static inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size, size_t zfill = 0)
{
    tg__emu_current->open.push_back({dst, src, size - zfill, zfill});
}
static inline void __pipeline_commit(void)
{
    tg__emu_current->groups.push_back(tg__emu_current->open);
    tg__emu_current->open.clear();
}
static inline void __pipeline_wait_prior(size_t n)
{
    while (tg__emu_current->groups.size() > n) {
        for (const tg__emu_copy &c : tg__emu_current->groups.front()) {
            std::memcpy(c.dst, c.src, c.bytes);
            std::memset((char *)c.dst + c.bytes, 0, c.zeros);
        }
        tg__emu_current->groups.pop_front();
    }
}

#endif
