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
 * bitwise identical for 1, 2 or more threads.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu.h"

static int64_t tg__min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t tg__ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

TG__PRIVATE const void *tg__one(size_t es)
{
    static const float one_s = 1.0f;
    static const double one_d = 1.0;
    return es == sizeof(float) ? (const void *)&one_s : (const void *)&one_d;
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
    int nt;

    bs = tg__block_sizes(kern);
    /* Blocks of A of even height: m = 64 with MC = 60 would otherwise leave a 4-row block whose
     * tiles run a third empty. */
    bs.mc = tg__ceil_div(tg__ceil_div(g.m, tg__ceil_div(g.m, bs.mc)), mr) * mr;
    mc_max = tg__min(tg__ceil_div(g.m, mr) * mr, bs.mc);
    kc_max = tg__min(g.k, bs.kc);
    nc_max = tg__min(tg__ceil_div(g.n, nr) * nr, bs.nc);
    nt = tg__threads_for(g.m, g.n, g.k);
    /* One block for the packed B and every thread's packed A (memory.c keeps one block between
     * calls); B's part is rounded to whole cache lines so A's panels start on one. */
    b_bytes = tg__ceil_div(kc_max * nc_max * es, 64) * 64;
    bbuf = (char *)tg__alloc((size_t)(b_bytes + nt * mc_max * kc_max * es));
    if (!bbuf) return tg__fail(TG_ERR_NOMEM, fn, "no memory for the packed panels");
    abuf = bbuf + b_bytes;

TG__OMP(omp parallel num_threads(nt) if (nt > 1))
    {
#ifdef _OPENMP
        int tid = omp_get_thread_num(), team = omp_get_num_threads();
#else
        int tid = 0, team = 1;
#endif
        char *my_a = abuf + (int64_t)tid * mc_max * kc_max * es;
        for (int64_t jc = 0; jc < g.n; jc += bs.nc) {
            int64_t nc = tg__min(bs.nc, g.n - jc), panels_b = tg__ceil_div(nc, nr);
            /* Split B's panels across threads too when A has fewer blocks than there are threads. */
            int64_t blocks_a = tg__ceil_div(g.m, bs.mc), chunks = team;
            for (int64_t pc = 0; pc < g.k; pc += bs.kc) {
                int64_t kc = tg__min(bs.kc, g.k - pc), packed_ic = -1;
                const void *beta_now = pc == 0 ? beta : one;
                const char *b_blk = (const char *)g.b.p + (pc * g.b.rs + jc * g.b.cs) * es;

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

TG__OMP(omp for schedule(static))
                for (int64_t item = 0; item < blocks_a * chunks; item++) {
                    int64_t ic = item / chunks * bs.mc, mc = tg__min(bs.mc, g.m - ic);
                    int64_t ch = item % chunks;
                    int64_t jp0 = panels_b * ch / chunks, jp1 = panels_b * (ch + 1) / chunks;
                    if (jp0 == jp1) continue;
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
            }
        }
    }
    tg__free(bbuf);
    return TG_OK;
}
