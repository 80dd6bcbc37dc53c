/* Products with one row or one column of C (m or n 1), as a matrix-vector product.
 *
 * Such a product reads each element of its matrix operand once, so its speed is the speed at which
 * that matrix streams in, and the GEMM paths' tiles stream it badly: a short A reads B a panel (one
 * or two cache lines of each row) at a time down k, hundreds of rows in flight that only a
 * prefetch follows, and a narrow B reads A six rows at a time. Here the matrix goes to one of the
 * kernel's two GEMV forms (cpu.h's tg__gemv_fn), whichever reads it along its contiguous runs:
 * rows as long as a chunk of y (the rows form) or whole columns down k (the dots form). With C's
 * row or column as y, the matrix is B (m = 1: y = Bᵀ · A's row) or Aᵀ (n = 1: y = A · B's
 * column). A strided x is copied for the dots form, which loads it as vectors; threads split y,
 * whose every element is computed the same way wherever it falls (gemv_simd.inc), so the bits do
 * not depend on the thread count.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include <string.h>

#include "cpu.h"

/* x on the stack up to this many bytes, so that a small call never allocates. */
enum { TG__GEMV_STACK_X = 4096 };

typedef struct {
    int64_t n, k;
    const char *x, *m;
    int64_t incx, sp, sj; /* M's element (p, j) at m + p * sp + j * sj, in elements */
    char *y;
    int64_t incy;
} tg__gemv;

/* g as y = alpha * Mᵀx + beta * y; the form that reads M along its runs (1 rows, 2 dots), or 0. */
static int tg__gemv_of(const tg__gemm *g, tg__gemv *v)
{
    const int row = g->m == 1; /* else n == 1 */
    v->n = row ? g->n : g->m;
    v->k = g->k;
    v->x = (const char *)(row ? g->a.p : g->b.p);
    v->incx = row ? g->a.cs : g->b.rs;
    v->m = (const char *)(row ? g->b.p : g->a.p);
    v->sp = row ? g->b.rs : g->a.cs;
    v->sj = row ? g->b.cs : g->a.rs;
    v->y = (char *)g->c;
    v->incy = row ? g->cs_c : g->rs_c;
    /* One element of y is a dot product: whichever of M's column and x is contiguous serves as
     * the column, the other as x. */
    if (v->n == 1 && v->sp != 1 && v->incx == 1) {
        const char *t = v->x;
        v->x = v->m;
        v->m = t;
        v->incx = v->sp;
        v->sp = 1;
    }
    return v->sj == 1 && v->n > 1 ? 1 : v->sp == 1 ? 2 : 0;
}

TG__PRIVATE int tg__gemm_gemv(const char *fn, const tg__kernel *kern, const tg__gemm *g,
                              const void *alpha, const void *beta)
{
    const int64_t es = (int64_t)kern->es, line = 64 / es;
    tg__gemv v;
    const int form = tg__gemv_of(g, &v);
    const tg__gemv_fn run = form == 1 ? kern->gemv_rows : kern->gemv_dots;
    /* M's rows a row apart (rows form), its columns a column apart (dots) */
    const int64_t ld = form == 1 ? v.sp : v.sj, lines = tg__ceil_div(v.n, line);
    double stack[TG__GEMV_STACK_X / sizeof(double)];
    char *heap = NULL;
    int nt;
    if (!form) return -1;
    /* Threads split y at multiples of a cache line's elements, four lines or more each: a
     * thread's part is then never as narrow as the rows form's narrow rows (gemv_simd.inc), so no
     * element of a wider y is summed their way. */
    nt = (int)tg__min(tg__threads_for(v.n, 1, v.k), lines / 4);
    if (form == 2 && v.incx != 1) {
        char *xp = (char *)stack;
        if (v.k * es > TG__GEMV_STACK_X) {
            heap = (char *)tg__alloc((size_t)(v.k * es));
            if (!heap) return tg__fail(TG_ERR_NOMEM, fn, "no memory for a copy of the vector");
            xp = heap;
        }
        for (int64_t p = 0; p < v.k; p++) memcpy(xp + p * es, v.x + p * v.incx * es, (size_t)es);
        v.x = xp;
        v.incx = 1;
    }
    if (nt <= 1) {
        run(v.n, v.k, alpha, v.x, v.incx, v.m, ld, beta, v.y, v.incy);
    } else {
        TG__OMP(omp parallel num_threads(nt))
        {
            const int64_t tid = TG__THREAD_NUM(), team = TG__TEAM_SIZE();
            const int64_t j0 = tg__min(lines * tid / team * line, v.n);
            const int64_t j1 = tg__min(lines * (tid + 1) / team * line, v.n);
            if (j1 > j0)
                run(j1 - j0, v.k, alpha, v.x, v.incx, v.m + j0 * v.sj * es, ld, beta,
                    v.y + j0 * v.incy * es, v.incy);
        }
    }
    tg__free(heap);
    return TG_OK;
}
