/* --sizes: numbers, ranges, explicit shapes and the named size families.
 *
 * A size item is one of: N (an N x N x N square), lo:hi:step (linear), lo:hi:xF (geometric, integer
 * factor F >= 2) -- both ranges include hi when a step lands on it --, MxNxK (one explicit shape), or
 * a family name. The families are fixed lists so that runs on different machines compare shape by
 * shape; "linear" holds the forward products of common models' linear layers, tokens x out x in.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_DIM ((int64_t)1 << 20) /* beyond this a dense operand no longer fits any sane memory */

typedef struct {
    const char *name, *what;
    const int64_t (*shapes)[3];
    int count;
} family;

static const int64_t square[][3] = {{64, 64, 64},       {128, 128, 128},    {256, 256, 256},
                                    {384, 384, 384},    {512, 512, 512},    {768, 768, 768},
                                    {1024, 1024, 1024}, {1536, 1536, 1536}, {2048, 2048, 2048}};
static const int64_t tall_skinny[][3] = {{2048, 32, 512},  {2048, 128, 512}, {8192, 32, 512},
                                         {8192, 128, 512}, {32768, 64, 256}};
static const int64_t short_wide[][3] = {{32, 2048, 512},  {128, 2048, 512}, {32, 8192, 512},
                                        {128, 8192, 512}, {64, 32768, 256}};
static const int64_t small_k[][3] = {{1024, 1024, 16}, {1024, 1024, 64}, {2048, 2048, 16},
                                     {2048, 2048, 64}, {4096, 4096, 16}, {4096, 4096, 64}};
static const int64_t large_k[][3] = {{64, 64, 8192},   {64, 64, 32768}, {256, 256, 8192},
                                     {256, 256, 32768}};
/* tokens x out x in: BERT-base / GPT-2 block (768 wide, 3072 MLP) and a 7B-class block (4096 wide,
 * 11008 MLP), each at 16, 128 and 1024 tokens. */
static const int64_t linear[][3] = {
    {16, 768, 768},     {16, 3072, 768},     {16, 768, 3072},     {128, 768, 768},
    {128, 3072, 768},   {128, 768, 3072},    {1024, 768, 768},    {1024, 3072, 768},
    {1024, 768, 3072},  {16, 4096, 4096},    {16, 11008, 4096},   {16, 4096, 11008},
    {128, 4096, 4096},  {128, 11008, 4096},  {128, 4096, 11008},  {1024, 4096, 4096},
    {1024, 11008, 4096}, {1024, 4096, 11008}};

/* One row or one column of C, matrix-vector products: the linear family's layers at one token (a
 * decoding step), and square ones either way round. */
static const int64_t gemv[][3] = {{1, 768, 768},    {1, 3072, 768},    {1, 768, 3072},
                                  {1, 4096, 4096},  {1, 11008, 4096},  {1, 4096, 11008},
                                  {1, 1024, 1024},  {1024, 1, 1024},   {4096, 1, 4096},
                                  {11008, 1, 4096}};

#define FAMILY(n, what, a) {n, what, a, (int)(sizeof a / sizeof a[0])}
static const family families[] = {
    FAMILY("square", "m = n = k from 64 to 2048", square),
    FAMILY("tall-skinny", "m >> n: 2048..32768 x 32..128, k 256..512", tall_skinny),
    FAMILY("short-wide", "m << n: 32..128 x 2048..32768, k 256..512", short_wide),
    FAMILY("small-k", "m = n = 1024..4096, k = 16 or 64 (rank-k updates)", small_k),
    FAMILY("large-k", "m = n = 64 or 256, k = 8192 or 32768 (long dot products)", large_k),
    FAMILY("linear", "tokens x out x in of BERT/GPT-2 (768, 3072) and 7B-class (4096, 11008) "
                     "layers", linear),
    FAMILY("gemv", "m or n = 1: those layers at one token, and square matrix-vector products",
           gemv),
};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

void tg__families_help(FILE *out)
{
    for (int i = 0; i < NFAMILIES; i++)
        fprintf(out, "      %-12s %s (%d shapes)\n", families[i].name, families[i].what,
                families[i].count);
}

/* Appends a shape unless it is already listed (the first listing's family stays), so that no two
 * benchmarks share a name. */
static int push(tg__shape **shapes, int *count, int64_t m, int64_t n, int64_t k, const char *fam)
{
    for (int i = 0; i < *count; i++)
        if ((*shapes)[i].m == m && (*shapes)[i].n == n && (*shapes)[i].k == k) return 0;
    tg__shape *s = realloc(*shapes, (size_t)(*count + 1) * sizeof **shapes);
    if (!s) return -1;
    s[*count] = (tg__shape){m, n, k, fam};
    *shapes = s;
    (*count)++;
    return 0;
}

/* A positive decimal integer up to MAX_DIM spanning exactly [s, end). */
static int dim(const char *s, const char *end, int64_t *out)
{
    if (s == end || !isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *e;
    long long v = strtoll(s, &e, 10);
    if (e != end || errno || v < 1 || v > MAX_DIM) return -1;
    *out = v;
    return 0;
}

int tg__sizes_expand(const char *item, tg__shape **shapes, int *count, char *err, size_t errlen)
{
    for (int i = 0; i < NFAMILIES; i++) {
        if (strcmp(item, families[i].name) != 0) continue;
        for (int j = 0; j < families[i].count; j++) {
            const int64_t *s = families[i].shapes[j];
            if (push(shapes, count, s[0], s[1], s[2], families[i].name)) goto nomem;
        }
        return 0;
    }
    const char *end = item + strlen(item), *c1 = strchr(item, ':'), *x1 = strchr(item, 'x');
    int64_t a, b, c;
    if (c1) { /* lo:hi:step or lo:hi:xF */
        const char *c2 = strchr(c1 + 1, ':');
        int geometric = c2 && c2[1] == 'x';
        if (!c2 || dim(item, c1, &a) || dim(c1 + 1, c2, &b) ||
            dim(c2 + 1 + geometric, end, &c) || b < a || (geometric && c < 2))
            goto bad;
        for (int64_t v = a; v <= b; v = geometric ? v * c : v + c)
            if (push(shapes, count, v, v, v, "square")) goto nomem;
        return 0;
    }
    if (x1) { /* MxNxK */
        const char *x2 = strchr(x1 + 1, 'x');
        if (!x2 || dim(item, x1, &a) || dim(x1 + 1, x2, &b) || dim(x2 + 1, end, &c)) goto bad;
        return push(shapes, count, a, b, c, "custom") ? -1 : 0;
    }
    if (dim(item, end, &a) == 0) return push(shapes, count, a, a, a, "square") ? -1 : 0;
bad:
    snprintf(err, errlen,
             "malformed size '%s': expected N, lo:hi:step, lo:hi:xF (F >= 2), MxNxK (each "
             "1..%lld, lo <= hi) or a family name (square, tall-skinny, short-wide, small-k, "
             "large-k, linear)",
             item, (long long)MAX_DIM);
    return -1;
nomem:
    snprintf(err, errlen, "out of memory expanding '%s'", item);
    return -1;
}
