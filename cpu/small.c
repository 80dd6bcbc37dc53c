/* The small-matrix path: no packing of A, packing of B only where it pays, blocking along k only.
 *
 * For small products the blocked path's packing and buffers cost as much as the arithmetic (64^3 is
 * ~8k cycles of FMAs against ~2k cycles to pack A alone). Here the micro-kernel reads A straight from
 * the caller's matrix, whatever its strides, and reads B's rows in place when they are contiguous and
 * a whole register tile wide (or as wide as the kernel's nr_part); only a transposed B or the last,
 * partial column panel is copied into a zero-padded panel (on the stack when it is small, so tiny
 * calls never allocate), and so is every panel when A is tall enough to reuse it. The same path
 * serves very short A (at most two row tiles) of any size when B's rows can be read in place: each
 * element of B is used by so few tiles that packing it could not pay. Threads split the column panels, which needs no reduction, so
 * results stay bitwise the same.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu.h"

enum { TG__STACK_PANEL = 4096 };
/* k in blocks of 256. A panel of B read in place touches one row (one page, when B is wide) per k
 * step, and a block's rows must stay in L1 and the TLB for the panel's next tile. 8x4096x4096
 * sgemm, one probe run each (the packed blocked path: 21 GFLOP/s): without the kernel's prefetch,
 * blocks of 512 ran at 12, of 256 or 128 at 21-22; with it, 256 at 29 and 512 at 15-16; blocks of
 * 16 to 64 lost to the reloads of C (12-17 in a noisier run where 256 gave 19). */
enum { TG__SMALL_KB = 256 };

/* Whether B's columns [j, j + n) of one k block are copied into a panel rather than read in place:
 * always when pack_all is set or B's columns are not contiguous, and for a last panel narrower than
 * the kernel reads (nr, or exactly nr_part). */
static int tg__small_packs(const tg__kernel *kern, const tg__gemm *g, int64_t n, int pack_all)
{
    return pack_all || g->b.cs != 1 || (n < kern->nr && n != kern->nr_part);
}

/* Columns [j, j + n) of C, n <= nr, for one k block of kc from pc (beta_now: beta or 1). */
static void tg__small_panel(const tg__kernel *kern, const tg__gemm *g, const void *alpha,
                            const void *beta_now, int64_t pc, int64_t kc, int64_t j, int64_t n,
                            char *panel, int pack_all)
{
    const int64_t es = (int64_t)kern->es;
    const char *a = (const char *)g->a.p + pc * g->a.cs * es;
    const char *b = (const char *)g->b.p + (pc * g->b.rs + j * g->b.cs) * es;
    int64_t rs_b = g->b.rs;
    if (tg__small_packs(kern, g, n, pack_all)) {
        kern->pack_b(n, kc, b, g->b.rs, g->b.cs, panel);
        b = panel;
        rs_b = kern->nr;
    }
    kern->ukernel(kc, alpha, a, g->a.rs, g->a.cs, g->a.rs, b, rs_b, beta_now,
                  (char *)g->c + j * es, g->rs_c, 1, g->m, n);
}

/* Column panels [jp0, jp1) of C, k in blocks of kb; panel is scratch for one kb-deep packed panel
 * of B. A last panel narrower than nr goes to the kernel's narrow family when it has one, in that
 * family's (narrower) panels. */
static void tg__small_panels(const tg__kernel *kern, const tg__gemm *g, const void *alpha,
                             const void *beta, int64_t jp0, int64_t jp1, int64_t kb, char *panel,
                             int pack_all)
{
    const int64_t nr = kern->nr;
    for (int64_t pc = 0; pc < g->k; pc += kb) {
        const int64_t kc = g->k - pc < kb ? g->k - pc : kb;
        const void *beta_now = pc == 0 ? beta : tg__one(kern->es);
        for (int64_t jp = jp0; jp < jp1; jp++) {
            const int64_t j = jp * nr, n = g->n - j < nr ? g->n - j : nr;
            const tg__kernel *k = n < nr && kern->narrow ? kern->narrow : kern;
            for (int64_t jj = 0; jj < n; jj += k->nr)
                tg__small_panel(k, g, alpha, beta_now, pc, kc, j + jj,
                                n - jj < k->nr ? n - jj : k->nr, panel, pack_all);
        }
    }
}

TG__PRIVATE int tg__gemm_small(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                               const void *alpha, const void *beta)
{
    const int64_t nr = kern->nr, panels = (g->n + nr - 1) / nr;
    const int64_t kb = g->k < TG__SMALL_KB ? g->k : (int64_t)TG__SMALL_KB;
    const int64_t panel_bytes = kb * nr * (int64_t)kern->es;
    /* Read B in place when A is at most two tiles high: then each panel of B is used at most
     * twice and a copy does not pay. Taller A re-reads each panel more often, and a panel read in
     * place (kc rows a leading dimension apart, often a multiple of a large power of two) falls
     * into a few cache sets and is evicted between tiles (64x4096x64: 78 GFLOP/s in place, 119
     * packed; from three tiles on, side by side at 1 thread: 16x768x768 +5.5% packed in both
     * precisions, d 16x256x256 +7.5%, s 16x128x1024 +20%, s 18x512x512 -1.4%, 2 threads within
     * 2%) -- unless the rows a block spans fit in half of L1 (16 KiB on Zen 3), where nothing
     * evicts them and the copy is pure cost: against libxsmm, side by side, s 24^3 0.80 -> 0.85,
     * 48^3 0.96 -> 1.03, d 24^3 0.92 -> 1.05. */
    const double block_b = (double)kb * (double)g->b.rs * (double)kern->es;
    const int pack_all = g->m > 2 * (int64_t)kern->mr && block_b > (double)tg__cpu()->l1d / 2;
    const int64_t last = g->n % nr;
    const tg__kernel *last_kern = last && kern->narrow ? kern->narrow : kern;
    const int packs = tg__small_packs(kern, g, nr, pack_all) ||
                      (last && tg__small_packs(last_kern, g, last % last_kern->nr, pack_all) &&
                       last % last_kern->nr != 0);
    int nt = tg__threads_for(g->m, g->n, g->k);
    double stack[TG__STACK_PANEL / sizeof(double)];
    char *heap = NULL, *buf = (char *)stack;

    if (nt > panels) nt = (int)panels;
    if (packs && (nt > 1 || panel_bytes > TG__STACK_PANEL)) {
        heap = (char *)tg__alloc((size_t)(nt * panel_bytes));
        if (!heap) return tg__fail(TG_ERR_NOMEM, fn, "no memory for packed panels of B");
        buf = heap;
    }
    /* Even a parallel region that runs on one thread costs as much as a tiny product: enter one
     * only when there is a team to use. */
    if (nt <= 1) {
        tg__small_panels(kern, g, alpha, beta, 0, panels, kb, buf, pack_all);
    } else {
        TG__OMP(omp parallel num_threads(nt))
        {
#ifdef _OPENMP
            int64_t tid = omp_get_thread_num(), team = omp_get_num_threads();
#else
            int64_t tid = 0, team = 1;
#endif
            tg__small_panels(kern, g, alpha, beta, panels * tid / team, panels * (tid + 1) / team,
                             kb, buf + tid * panel_bytes, pack_all);
        }
    }
    tg__free(heap);
    return TG_OK;
}
