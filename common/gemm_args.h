/* GEMM argument checks and the strided views they turn into, inline in every entry point.
 *
 * The checks follow the CBLAS contract and report the first bad parameter in call order (1-based
 * positions: layout 1, transa 2, transb 3, m 4, n 5, k 6, alpha 7, a 8, lda 9, b 10, ldb 11, beta 12,
 * c 13, ldc 14). Leading dimensions are checked even when m, n or k is zero, as CBLAS does. A pointer
 * is required only where it would be read or written. Both the CPU and the CUDA entry points use
 * these, so the two sides agree on what a valid call and a matrix are. They are inline, with the
 * messages out of line (gemm_args.c): as calls of their own, with fifteen arguments, they cost an
 * 8^3 sgemm ~30 of its 257 cycles (Zen 4). Included by internal.h, whose TG__PRIVATE and
 * tg__arg_error they use.
 */
#ifndef TGEMM_GEMM_ARGS_H
#define TGEMM_GEMM_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Element (i, j) of a view lives at p + (i*rs + j*cs) elements. Layout, transposes and leading
 * dimensions all become strides, so one driver serves every combination without copies. */
typedef struct {
    const void *p;
    int64_t rs, cs;
} tg__view;

typedef struct {
    int64_t m, n, k;
    tg__view a;          /* op(A), m x k */
    tg__view b;          /* op(B), k x n */
    void *c;             /* C, m x n */
    int64_t rs_c, cs_c;
} tg__gemm;

/* The message for a bad leading dimension (gemm_args.c): out of line, so that the checks of a
 * valid call never set up its buffer. Returns TG_ERR_ARG. */
TG__PRIVATE int tg__ld_error(const char *fn, int pos, const char *name, int64_t ld,
                             int64_t vectors, int64_t len, const char *what);

static inline int64_t tg__max1(int64_t x) { return x > 1 ? x : 1; }

/* Whether (vectors - 1) * ld + len elements of es bytes stay addressable. */
static inline int tg__extent_ok(int64_t vectors, int64_t len, int64_t ld, size_t es)
{
    int64_t limit;
    if (vectors <= 0 || len <= 0) return 1;
    /* Every realistic operand answers here, without the divisions below (a tiny call pays for
     * them): under 2^28 each, the extent is below 2^56 elements. */
    if ((uint64_t)(vectors | len | ld) < ((uint64_t)1 << 28) && es <= 64) return 1;
    limit = (int64_t)(PTRDIFF_MAX / (ptrdiff_t)es);
    if (len > limit) return 0;
    return vectors - 1 <= (limit - len) / ld;
}

/* One operand stored as `vectors` runs of `len` elements, ld apart: checks its leading dimension
 * and its byte extent. */
TG__ALWAYS_INLINE int tg__check_ld(const char *fn, int pos, const char *name, int64_t ld,
                                   int64_t vectors, int64_t len, const char *what, size_t es)
{
    if (ld >= tg__max1(len) && tg__extent_ok(vectors, len, ld, es)) return TG_OK;
    return tg__ld_error(fn, pos, name, ld, vectors, len, what);
}

/* Checks every GEMM argument in the order of the call and returns TG_OK or TG_ERR_ARG with the
 * message set. alpha_zero and es (element size) decide which pointers will be read and how many
 * bytes the operands span. */
TG__ALWAYS_INLINE int tg__gemm_check(const char *fn, int layout, int transa, int transb,
                                     int64_t m, int64_t n, int64_t k, int alpha_zero, const void *a,
                                     int64_t lda, const void *b, int64_t ldb, const void *c,
                                     int64_t ldc, size_t es)
{
    int row = layout == TG_ROW_MAJOR, ta = transa == TG_TRANS, tb = transb == TG_TRANS;
    int reads_ab = m > 0 && n > 0 && k > 0 && !alpha_zero;
    int st;
    /* A stored as row-major m x k (no transpose) is m runs of k; every other case follows from
     * swapping the roles: row-major XOR transposed decides whether a run is a row of op(A). */
    int64_t a_vec = (row != ta) ? m : k, a_len = (row != ta) ? k : m;
    int64_t b_vec = (row != tb) ? k : n, b_len = (row != tb) ? n : k;
    int64_t c_vec = row ? m : n, c_len = row ? n : m;

    if (layout != TG_ROW_MAJOR && layout != TG_COL_MAJOR)
        return tg__arg_error(fn, 1, "layout", layout, "must be TG_ROW_MAJOR (101) or TG_COL_MAJOR (102)");
    if (transa != TG_NO_TRANS && transa != TG_TRANS)
        return tg__arg_error(fn, 2, "transa", transa, "must be TG_NO_TRANS (111) or TG_TRANS (112)");
    if (transb != TG_NO_TRANS && transb != TG_TRANS)
        return tg__arg_error(fn, 3, "transb", transb, "must be TG_NO_TRANS (111) or TG_TRANS (112)");
    if (m < 0) return tg__arg_error(fn, 4, "m", m, "must be >= 0");
    if (n < 0) return tg__arg_error(fn, 5, "n", n, "must be >= 0");
    if (k < 0) return tg__arg_error(fn, 6, "k", k, "must be >= 0");
    if (reads_ab && !a)
        return tg__arg_error(fn, 8, "a", 0, "must not be NULL when m, n, k > 0 and alpha != 0");
    st = tg__check_ld(fn, 9, "lda", lda, a_vec, a_len,
                      row ? (ta ? "row-major transposed A (k x m)" : "row-major A (m x k)")
                          : (ta ? "column-major transposed A (k x m)" : "column-major A (m x k)"),
                      es);
    if (st) return st;
    if (reads_ab && !b)
        return tg__arg_error(fn, 10, "b", 0, "must not be NULL when m, n, k > 0 and alpha != 0");
    st = tg__check_ld(fn, 11, "ldb", ldb, b_vec, b_len,
                      row ? (tb ? "row-major transposed B (n x k)" : "row-major B (k x n)")
                          : (tb ? "column-major transposed B (n x k)" : "column-major B (k x n)"),
                      es);
    if (st) return st;
    if (m > 0 && n > 0 && !c) return tg__arg_error(fn, 13, "c", 0, "must not be NULL when m, n > 0");
    return tg__check_ld(fn, 14, "ldc", ldc, c_vec, c_len,
                        row ? "row-major C (m x n)" : "column-major C (m x n)", es);
}

/* The views of a checked call. */
static inline tg__gemm tg__gemm_views(int layout, int transa, int transb, int64_t m, int64_t n,
                                      int64_t k, const void *a, int64_t lda, const void *b,
                                      int64_t ldb, void *c, int64_t ldc)
{
    int row = layout == TG_ROW_MAJOR;
    tg__gemm g;
    g.m = m;
    g.n = n;
    g.k = k;
    /* A run of ld-spaced elements is a row of op(X) exactly when row-major XOR transposed. */
    g.a.p = a;
    g.a.rs = (row != (transa == TG_TRANS)) ? lda : 1;
    g.a.cs = (row != (transa == TG_TRANS)) ? 1 : lda;
    g.b.p = b;
    g.b.rs = (row != (transb == TG_TRANS)) ? ldb : 1;
    g.b.cs = (row != (transb == TG_TRANS)) ? 1 : ldb;
    g.c = c;
    g.rs_c = row ? ldc : 1;
    g.cs_c = row ? 1 : ldc;
    return g;
}

#endif /* TGEMM_GEMM_ARGS_H */
