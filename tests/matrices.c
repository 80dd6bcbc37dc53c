/* Test data for the suite: a seedable generator, matrices in guarded, NaN-poisoned storage, and a
 * precision-generic call of tg_sgemm / tg_dgemm.
 *
 * The poison is a quiet NaN with a recognisable payload, compared bit for bit: a library that reads
 * outside the matrix produces NaN (the ratio test catches it), and one that writes there changes
 * the bits (tgt_buf_poison_intact catches it), whatever value it wrote.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tgt.h"

static const uint32_t tgt_poison_s = 0x7fc5a5a5u;
static const uint64_t tgt_poison_d = 0x7ff8a5a5a5a5a5a5ull;

uint64_t tgt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double tgt_uniform(uint64_t *state)
{
    /* 53 random bits onto [0, 1), then onto [-1, 1). */
    return (double)(tgt_rand(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

int64_t tgt_range(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(tgt_rand(state) % (uint64_t)(hi - lo + 1));
}

void tgt_storage(int layout, int trans, int64_t rows, int64_t cols, int64_t *vectors, int64_t *len)
{
    /* A run of ld-spaced storage is a row of op(X) exactly when row-major XOR transposed. */
    int runs_are_rows = (layout == TG_ROW_MAJOR) != (trans == TG_TRANS);
    *vectors = runs_are_rows ? rows : cols;
    *len = runs_are_rows ? cols : rows;
}

static void tgt_put_poison(size_t es, unsigned char *at)
{
    if (es == 4) memcpy(at, &tgt_poison_s, 4);
    else memcpy(at, &tgt_poison_d, 8);
}

static int tgt_is_poison(size_t es, const unsigned char *at)
{
    return es == 4 ? memcmp(at, &tgt_poison_s, 4) == 0 : memcmp(at, &tgt_poison_d, 8) == 0;
}

int tgt_buf_at_page_end;

int tgt_buf_init(tgt_buf *b, size_t es, int64_t vectors, int64_t len, int64_t ld)
{
    int64_t span = vectors > 0 && len > 0 ? (vectors - 1) * ld + len : 0;
    b->es = es;
    b->vectors = vectors;
    b->len = len;
    b->ld = ld;
    b->map = NULL;
    b->map_len = 0;
    if (tgt_buf_at_page_end) {
        /* The leading guard and the matrix fill the end of the mapping's last readable page(s);
         * the page after them is PROT_NONE. */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t bytes = ((size_t)span + TGT_GUARD) * es, used = (bytes + page - 1) / page * page;
        void *map = mmap(NULL, used + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                         -1, 0);
        if (map == MAP_FAILED) return b->mem = NULL, b->p = NULL, 0;
        if (mprotect((unsigned char *)map + used, page, PROT_NONE) != 0) {
            munmap(map, used + page);
            return b->mem = NULL, b->p = NULL, 0;
        }
        b->map = map;
        b->map_len = used + page;
        b->total = (size_t)span + TGT_GUARD;
        b->mem = (unsigned char *)map + used - bytes;
    } else {
        b->total = (size_t)span + 2 * TGT_GUARD;
        b->mem = (unsigned char *)malloc(b->total * es);
    }
    b->p = b->mem ? b->mem + TGT_GUARD * es : NULL;
    if (!b->mem) return 0;
    for (size_t i = 0; i < b->total; i++) tgt_put_poison(es, b->mem + i * es);
    return 1;
}

void tgt_buf_free(tgt_buf *b)
{
    if (b->map) munmap(b->map, b->map_len);
    else free(b->mem);
    b->map = NULL;
    b->mem = NULL;
    b->p = NULL;
}

void tgt_buf_set(tgt_buf *b, int64_t v, int64_t e, double x)
{
    int64_t at = v * b->ld + e;
    if (b->es == 4) ((float *)b->p)[at] = (float)x;
    else ((double *)b->p)[at] = x;
}

void tgt_buf_fill(tgt_buf *b, uint64_t *rng)
{
    for (int64_t v = 0; v < b->vectors; v++)
        for (int64_t e = 0; e < b->len; e++) tgt_buf_set(b, v, e, tgt_uniform(rng));
}

void tgt_buf_poison_all(tgt_buf *b)
{
    for (int64_t v = 0; v < b->vectors; v++)
        for (int64_t e = 0; e < b->len; e++)
            tgt_put_poison(b->es, (unsigned char *)b->p + (size_t)(v * b->ld + e) * b->es);
}

int tgt_buf_poison_intact(const tgt_buf *b, int64_t *where)
{
    for (size_t i = 0; i < b->total; i++) {
        int64_t off = (int64_t)i - TGT_GUARD;
        int inside = off >= 0 && b->len > 0 && off / b->ld < b->vectors && off % b->ld < b->len;
        if (!inside && !tgt_is_poison(b->es, b->mem + i * b->es)) {
            *where = off;
            return 0;
        }
    }
    return 1;
}

int tgt_gemm(size_t es, int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
             double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
             void *c, int64_t ldc)
{
    if (es == 4)
        return tg_sgemm((tg_layout)layout, (tg_trans)transa, (tg_trans)transb, m, n, k,
                        (float)alpha, (const float *)a, lda, (const float *)b, ldb, (float)beta,
                        (float *)c, ldc);
    return tg_dgemm((tg_layout)layout, (tg_trans)transa, (tg_trans)transb, m, n, k, alpha,
                    (const double *)a, lda, (const double *)b, ldb, beta, (double *)c, ldc);
}

const char *tgt_layout_name(int layout)
{
    return layout == TG_ROW_MAJOR ? "row" : layout == TG_COL_MAJOR ? "col" : "bad-layout";
}

const char *tgt_trans_name(int trans)
{
    return trans == TG_NO_TRANS ? "N" : trans == TG_TRANS ? "T" : "bad-trans";
}
