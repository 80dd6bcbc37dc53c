/* The small-matrix path: no packing of A, packing of B only where it pays, no threads, no blocking.
 *
 * For small products the blocked path's packing and team start-up cost as much as the arithmetic
 * (64^3 is ~8k cycles of FMAs against ~2k cycles to pack A alone). Here the micro-kernel reads A
 * straight from the caller's matrix, whatever its strides, and reads B's rows in place when they are
 * contiguous and a whole register tile wide; only a transposed B or the last, partial column panel
 * is copied into a zero-padded panel. All of A, B and C fit in L2 at these sizes, so there is no
 * cache blocking either: each tile runs the whole k in one go.
 */
#include "cpu.h"

TG__PRIVATE int tg__gemm_small(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                               const void *alpha, const void *beta)
{
    const int64_t es = (int64_t)kern->es, mr = kern->mr, nr = kern->nr;
    char *panel = NULL;
    if (g->b.cs != 1 || g->n % nr != 0) {
        panel = (char *)tg__alloc((size_t)(g->k * nr * es));
        if (!panel) return tg__fail(TG_ERR_NOMEM, fn, "no memory for a packed panel of B");
    }
    for (int64_t j = 0; j < g->n; j += nr) {
        int64_t n = g->n - j < nr ? g->n - j : nr, rs_b = g->b.rs;
        const char *b = (const char *)g->b.p + j * g->b.cs * es;
        if (g->b.cs != 1 || n < nr) {
            kern->pack_b(n, g->k, b, g->b.rs, g->b.cs, panel);
            b = panel;
            rs_b = nr;
        }
        for (int64_t i = 0; i < g->m; i += mr)
            kern->ukernel(g->k, alpha, (const char *)g->a.p + i * g->a.rs * es, g->a.rs, g->a.cs, b,
                          rs_b, beta, (char *)g->c + (i * g->rs_c + j) * es, g->rs_c, 1,
                          g->m - i < mr ? g->m - i : mr, n);
    }
    tg__free(panel);
    return TG_OK;
}
