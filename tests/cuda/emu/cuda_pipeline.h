/* CPU emulation of cp.async (cuda_pipeline.h) for the emulated test: a copy is only queued, and
 * happens when __pipeline_wait_prior releases its commit group, the latest moment the hardware
 * could perform it, so a read of a buffer before its wait sees stale data, as it might on a GPU. */
#ifndef TG_EMU_CUDA_PIPELINE_H
#define TG_EMU_CUDA_PIPELINE_H

#include <cstring>
#include <deque>
#include <vector>

struct tg__emu_copy {
    void *dst;
    const void *src;
    size_t bytes, zeros;
};
inline thread_local std::vector<tg__emu_copy> tg__emu_open;
inline thread_local std::deque<std::vector<tg__emu_copy>> tg__emu_groups;

static inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size, size_t zfill = 0)
{
    tg__emu_open.push_back({dst, src, size - zfill, zfill});
}
static inline void __pipeline_commit(void)
{
    tg__emu_groups.push_back(tg__emu_open);
    tg__emu_open.clear();
}
static inline void __pipeline_wait_prior(size_t n)
{
    while (tg__emu_groups.size() > n) {
        for (const tg__emu_copy &c : tg__emu_groups.front()) {
            std::memcpy(c.dst, c.src, c.bytes);
            std::memset((char *)c.dst + c.bytes, 0, c.zeros);
        }
        tg__emu_groups.pop_front();
    }
}

#endif
