/* The blocked GEMM: the five loops around the micro-kernel (Goto's algorithm).
 *
 *   for jc in n step NC:            a kc x nc block of op(B) is packed once (shared by all threads)
 *     for pc in k step KC:          into NR-column panels, kept in L3
 *       for ic in m step MC:        an mc x kc block of op(A) is packed (per thread) into MR-row
 *         for jr in nc step NR:     panels, kept in L2
 *           for ir in mc step MR:   micro-kernel: one MR x NR tile of C, kc deep, in registers
 *
 * Written once for both precisions: it moves bytes and calls the kernel descriptor's typed packing and
 * micro-kernel. Threads split the ic and jr loops (work items of one A block and a range of B panels),
 * never k, so every element of C is summed in the same order whatever the thread count: results are
 * bitwise identical for 1, 2 or more threads. Each thread works through its own run of items and then
 * takes what is left of the others' (tg__claim): on a shared machine a thread whose CPU is taken away
 * must not hold the rest back.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu.h"

TG__PRIVATE const void *tg__one(size_t es)
{
    static const float one_s = 1.0f;
    static const double one_d = 1.0;
    return es == sizeof(float) ? (const void *)&one_s : (const void *)&one_d;
}

/* Marks an item taken, for the calling thread: 1 if nobody had, so that each item runs exactly once.
 *
 * The items of one k block are handed out as a static schedule would (a run of them per thread, so
 * that a thread packs each A block once), but a thread done with its run takes the others' remaining
 * items from the far end. A static split waits for its slowest thread: with a busy loop pinned to one
 * of the two CPUs (the host taking a vCPU, as this shared VM's host does), 2 threads, side by side
 * against the static split on Zen 3: sgemm 2048^3 1.46-1.50x, 4000^3 1.39x, dgemm 2048^3 1.41-1.49x,
 * 4096x4096x32 1.19x (1.26-1.48x OpenBLAS, whose split is static too); without the busy loop
 * 1.00-1.09x (s 4000^3 1.02, 777x1555x333 1.00, d 128^3 1.05, 256^3 1.00, 4096x4096x32 1.04), and
 * 1.00 at 1 thread. OpenMP's dynamic schedule adapts too, but hands neighbouring items, halves of
 * one A block, to different threads, which then both pack it: d 4096x4096x32 0.74 where k is small;
 * guided hands the first thread half the work at once (d 2048^3 with the busy loop 1.04). */
static int tg__claim(unsigned char *claimed, int64_t item)
{
    unsigned char was;
TG__OMP(omp atomic capture)
    {
        was = claimed[item];
        claimed[item] = 1;
    }
    return !was;
}

TG__PRIVATE int tg__gemm_blocked(const char *fn, const tg__kernel *kern, const tg__gemm *g0,
                                 const void *alpha, const void *beta)
{
    const void *one = tg__one(kern->es);
    const int64_t es = (int64_t)kern->es, mr = kern->mr, nr = kern->nr;
    const tg__gemm g = *g0;
    tg__blocks bs;
    int64_t mc_max, kc_max, nc_max, b_bytes;
    char *bbuf, *abuf;
    unsigned char *claimed;
    int nt;

    bs = tg__block_sizes(kern, g.k, g.n);
    bs.mc = tg__even_mc(kern, bs.mc, g.m);
    mc_max = tg__min(tg__ceil_div(g.m, mr) * mr, bs.mc);
    kc_max = tg__min(g.k, bs.kc);
    nc_max = tg__min(tg__ceil_div(g.n, nr) * nr, bs.nc);
    nt = tg__threads_for(g.m, g.n, g.k);
    /* One block for the packed B, every thread's packed A and the items' flags (memory.c keeps one
     * block between calls); B's part is rounded to whole cache lines so A's panels start on one. */
    b_bytes = tg__ceil_div(kc_max * nc_max * es, 64) * 64;
    bbuf = (char *)tg__alloc(
        (size_t)(b_bytes + nt * mc_max * kc_max * es + tg__ceil_div(g.m, bs.mc) * nt));
    if (!bbuf) return tg__fail(TG_ERR_NOMEM, fn, "no memory for the packed panels");
    abuf = bbuf + b_bytes;
    claimed = (unsigned char *)abuf + nt * mc_max * kc_max * es;

TG__OMP(omp parallel num_threads(nt) if (nt > 1))
    {
        const int tid = TG__THREAD_NUM(), team = TG__TEAM_SIZE();
        char *my_a = abuf + (int64_t)tid * mc_max * kc_max * es;
        for (int64_t jc = 0; jc < g.n; jc += bs.nc) {
            int64_t nc = tg__min(bs.nc, g.n - jc), panels_b = tg__ceil_div(nc, nr);
            /* An item is one A block and one thread's share of B's panels, so that even a single
             * block of A keeps every thread busy; my0..my1 is this thread's run of items. */
            int64_t blocks_a = tg__ceil_div(g.m, bs.mc), chunks = team, items = blocks_a * chunks;
            int64_t my0 = items * tid / team, my1 = items * (tid + 1) / team;
            for (int64_t pc = 0; pc < g.k; pc += bs.kc) {
                int64_t kc = tg__min(bs.kc, g.k - pc), packed_ic = -1;
                const void *beta_now = pc == 0 ? beta : one;
                const char *b_blk = (const char *)g.b.p + (pc * g.b.rs + jc * g.b.cs) * es;

                /* Nobody claims before the barrier below, and the last k block's claims all
                 * happened before the barrier that ended it. */
                for (int64_t item = my0; item < my1; item++) claimed[item] = 0;
                {
                    /* Each thread packs one contiguous run of panels in a single call, so that
                     * the packing can stream along B's rows. */
                    int64_t p0 = panels_b * tid / team, p1 = panels_b * (tid + 1) / team;
                    if (p1 > p0)
                        kern->pack_b(tg__min(nc, p1 * nr) - p0 * nr, kc,
                                     b_blk + p0 * nr * g.b.cs * es, g.b.rs, g.b.cs,
                                     bbuf + p0 * nr * kc * es);
TG__OMP(omp barrier)
                }

                /* This thread's run front to back, then the others' items back to front. */
                for (int64_t step = 0; step < items; step++) {
                    int64_t item = step < my1 - my0 ? my0 + step
                                                    : (my0 - 1 - (step - (my1 - my0)) + items) % items;
                    int64_t ic = item / chunks * bs.mc, mc = tg__min(bs.mc, g.m - ic);
                    int64_t ch = item % chunks;
                    int64_t jp0 = panels_b * ch / chunks, jp1 = panels_b * (ch + 1) / chunks;
                    if (jp0 == jp1 || !tg__claim(claimed, item)) continue;
                    if (ic != packed_ic) {
                        kern->pack_a(mc, kc, (const char *)g.a.p + (ic * g.a.rs + pc * g.a.cs) * es,
                                     g.a.rs, g.a.cs, my_a);
                        packed_ic = ic;
                    }
                    for (int64_t jp = jp0; jp < jp1; jp++) {
                        int64_t j = jc + jp * nr;
                        kern->ukernel(kc, alpha, my_a, 1, mr, kc, bbuf + jp * nr * kc * es, nr,
                                      beta_now, (char *)g.c + (ic * g.rs_c + j * g.cs_c) * es,
                                      g.rs_c, g.cs_c, mc, tg__min(nr, g.n - j));
                    }
                }
                /* B's buffer is packed again for the next k block only when every item is done. */
TG__OMP(omp barrier)
            }
        }
    }
    tg__free(bbuf);
    return TG_OK;
}
