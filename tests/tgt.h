/* Shared declarations of tgemm's foundation test suite (the .c files in tests/).
 *
 * The suite is written once and built several ways (tests/tests.mk): linked against build/libtgemm,
 * against a test build of the library sources (TGEMM_TESTING: the allocation-failure hook), under
 * the sanitizers, and against the single header tgemm.h alone (TGT_HEADER: C99, C11 and C++, gcc
 * and clang, with and without OpenMP). So it is plain C that also compiles as C++: malloc results
 * are cast, no VLAs, no compound literals, OpenMP only through _Pragma under _OPENMP.
 *
 * Test helpers are named tgt_ so they never collide with the library's tg_ / tg__ names (in the
 * TGEMM_STATIC build everything is one translation unit). Matrices are handled as bytes plus an
 * element size (4: float, 8: double), as common/reference.h does, so each test is written once for
 * both precisions.
 */
#ifndef TGT_H
#define TGT_H

#include <stddef.h>
#include <stdint.h>

#ifdef TGT_HEADER
#include "tgemm.h"               /* the drop-in alone: found through -I. only, never -Icommon */
#else
#include "../common/api.h"
#endif
#include "../common/reference.h" /* its own #include "api.h" is guarded out after tgemm.h */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- counting (main.c) ---- */
/* Records one check; on failure prints "FAIL <what>" (the first TGT_MAX_PRINTED of them, so a
 * broken build cannot flood the log). Returns ok. Not thread-safe: threads report to main. */
int tgt_check(int ok, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
enum { TGT_MAX_PRINTED = 25 };
/* The name of the kernel family and path settings, for failure messages. */
const char *tgt_config(void);

/* ---- random numbers and buffers (matrices.c) ---- */
/* splitmix64: small, seedable, good enough to draw test data; every case derives its own seed so a
 * failure can be reproduced from its message. */
uint64_t tgt_rand(uint64_t *state);
double tgt_uniform(uint64_t *state); /* uniform in [-1, 1] */
int64_t tgt_range(uint64_t *state, int64_t lo, int64_t hi); /* uniform integer in [lo, hi] */

/* A matrix in caller storage, with guard zones around it: `vectors` runs of `len` elements, `ld`
 * apart (a row-major matrix's rows, a column-major one's columns). Everything that is not a matrix
 * element (the gaps between runs, TGT_GUARD elements before and after) holds a NaN poison, so a
 * library that reads it produces NaN and one that writes it is caught by tgt_buf_poison_intact. */
enum { TGT_GUARD = 16 };
typedef struct {
    size_t es;
    int64_t vectors, len, ld;
    size_t total;        /* elements allocated, guards included */
    unsigned char *mem;  /* the allocation */
    void *p;             /* the matrix itself: mem + TGT_GUARD elements */
    void *map;           /* at a page's end (below): the mapping, map_len bytes; else NULL */
    size_t map_len;
} tgt_buf;
/* When set, tgt_buf_init puts each matrix's last element right before a page that may not be
 * touched, instead of before the trailing guard: a library that reads past the end of an operand,
 * even into lanes it then drops (a whole vector over the last columns of B), or writes past the
 * end of C, stops the suite with a fault. The pageend section sets it. */
extern int tgt_buf_at_page_end;
/* Allocates and poisons everything; returns 0 if memory ran out (the test fails, not crashes). */
int tgt_buf_init(tgt_buf *b, size_t es, int64_t vectors, int64_t len, int64_t ld);
void tgt_buf_free(tgt_buf *b);
/* Matrix elements uniform in [-1, 1]; the rest keeps its poison. */
void tgt_buf_fill(tgt_buf *b, uint64_t *rng);
/* Matrix elements set to the poison too (C before a beta-zero call must never be read). */
void tgt_buf_poison_all(tgt_buf *b);
/* Element e of the run v (e < len). */
void tgt_buf_set(tgt_buf *b, int64_t v, int64_t e, double x);
/* Whether every element outside the matrix still holds the poison, bit for bit. If not, *where gets
 * the first changed element's offset from p (negative: before it). */
int tgt_buf_poison_intact(const tgt_buf *b, int64_t *where);
/* Storage of op(X) (rows x cols of the operand as the call sees it) for a layout and transpose:
 * how many runs of how many elements. */
void tgt_storage(int layout, int trans, int64_t rows, int64_t cols, int64_t *vectors,
                 int64_t *len);

/* tg_sgemm or tg_dgemm by element size, alpha and beta rounded to the type. */
int tgt_gemm(size_t es, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
             double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
             void *c, int64_t ldc);
const char *tgt_layout_name(int layout);
const char *tgt_trans_name(int trans);

/* ---- one differential case (differential.c) ---- */
/* What a case plants: nothing, one NaN or one Inf in A, or Inf in every element of C. */
enum { TGT_PLAIN = 0, TGT_NAN_A, TGT_INF_A, TGT_INF_C };
typedef struct {
    size_t es;
    int layout, transa, transb;
    int64_t m, n, k;
    int64_t pad_a, pad_b, pad_c; /* leading dimension = the minimum + pad */
    double alpha, beta;
    int special;                 /* TGT_PLAIN, TGT_NAN_A, ... */
    uint64_t seed;
} tgt_case;
/* Runs one case against the fp64 reference: C poisoned (all of it when beta is zero, so NaN there
 * must not propagate; outside m x n always), A and B poisoned around, ratio test under 16, storage
 * outside m x n and A and B checked untouched. One check; prints the whole case on failure. */
int tgt_run_case(const tgt_case *c);
/* Float, then double: the tiny dimensions all layouts x transposes x m, n, k in 0..max. */
void tgt_section_cube(int max);
void tgt_section_edges(void);      /* each dimension alone over the edge sizes */
void tgt_section_tiny(void);       /* every width of C the tiny route takes, up to 33 */
void tgt_section_scalars(void);    /* alpha, beta in {0, 1, -1, other}; NaN in C with beta 0; NaN/Inf alpha */
void tgt_section_special(void);    /* NaN and Inf in A */
void tgt_section_pageend(void);    /* small shapes with every operand ending at a page's end */
void tgt_section_rows(void);       /* the small path's rows mode: tall A, two to four panels */
void tgt_section_gemv(void);       /* one row or column of C: the matrix-vector forms */
void tgt_section_random(int count);/* seeded random larger shapes, padded leading dimensions */
/* One random case of those (also the OpenBLAS section's cases). */
tgt_case tgt_random_case(uint64_t *rng, size_t es);

/* ---- the other sections ---- */
void tgt_section_openblas(int count); /* second_opinion.c: the same raw arguments to OpenBLAS */
void tgt_section_args(void);          /* bad_args.c: every invalid argument, and valid NULLs */
void tgt_section_unsupported(void);   /* bad_args.c: TGEMM_ARCH naming no family; by name only */
void tgt_section_threads(void);       /* threads.c: bitwise equal for 1, 2, 3 threads and inside
                                         a caller's parallel region */
void tgt_section_callers(void);       /* callers.c: many threads calling at once */
void tgt_section_nomem(void);         /* nomem.c: the allocation-failure hook (TGEMM_TESTING) */

#ifdef __cplusplus
}
#endif

#endif /* TGT_H */
