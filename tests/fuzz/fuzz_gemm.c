/* libFuzzer target: tg_sgemm and tg_dgemm on arguments decoded from the fuzzer's bytes, valid and
 * not, every operand in a buffer of exactly the size the call may touch (AddressSanitizer sees any
 * access past it).
 *
 *   make fuzz            (clang's libFuzzer; FUZZ_SECONDS per kernel family and block setting)
 *
 * Each input decodes to a type, layout and transposes (now and then an invalid enum), m, n, k in
 * [-2, 40] or one of a few sizes up to 130, leading dimensions at, above or
 * (now and then) below their minimum, alpha and beta among 0, 1, -1, 0.5, NaN, Inf and a value from
 * the bytes, NULL for an operand now and then, the thread count, and the operands' values. The
 * expected outcome is worked out here from the CBLAS rules, independently of common/gemm_args.h:
 * - an invalid call must return TG_ERR_ARG and leave C's bytes as they were;
 * - a valid one must return TG_OK, pass the BLAS ratio test (< 16) against common/reference.c's fp64
 *   GEMM (which also decides the NaN and Inf cases, but for an infinite alpha with k > 0, where the
 *   BLAS leaves +-Inf or NaN open), leave C's padding between its rows untouched, and give the same
 *   bits on one thread as on two (the library's bitwise guarantee).
 * Anything else aborts, which libFuzzer reports with the input that did it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fuzz_input.h"
#include "reference.h"

static int64_t dim(bytes_in *in)
{
    static const int64_t big[8] = {63, 64, 65, 96, 127, 128, 129, 130};
    return size_from(in, 43, big);
}

static double scalar(bytes_in *in)
{
    static const double fixed[] = {0.0, 1.0, -1.0, 0.5, NAN, INFINITY, -0.0};
    unsigned v = take(in);
    return v < 7 * 16 ? fixed[v % 7] : (double)(int)(v - 180) / 16.0;
}

/* Elements a stored operand spans: vectors runs of len, ld apart (0 if either count is 0). */
static size_t span(int64_t vectors, int64_t len, int64_t ld)
{
    return vectors > 0 && len > 0 ? (size_t)((vectors - 1) * ld + len) : 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes_in in = {data, size};
    const size_t es = take(&in) & 1 ? 8 : 4;
    const unsigned flags = take(&in);
    int layout = flags & 1 ? TG_COL_MAJOR : TG_ROW_MAJOR;
    int ta = flags & 2 ? TG_TRANS : TG_NO_TRANS, tb = flags & 4 ? TG_TRANS : TG_NO_TRANS;
    int64_t m = dim(&in), n = dim(&in), k = dim(&in);
    unsigned ldpad = take(&in), nulls = take(&in), threads = take(&in);
    double alpha = scalar(&in), beta = scalar(&in);
    int row, valid, st, alpha_zero;
    int64_t a_vec, a_len, b_vec, b_len, c_vec, c_len, lda, ldb, ldc;
    size_t na, nb, nc, i;
    unsigned char *a = NULL, *b = NULL, *c = NULL, *c0 = NULL, *c1 = NULL;
    double *out = NULL, *bound = NULL;

    /* an invalid enum now and then */
    if ((flags >> 3) % 16 == 1) layout = 99;
    if ((flags >> 3) % 16 == 2) ta = 0;
    if ((flags >> 3) % 16 == 3) tb = TG_TRANS + 1;
    row = layout == TG_ROW_MAJOR;
    /* stored shapes by the CBLAS rules: row-major XOR transposed makes a run a row of op(X) */
    a_vec = (row != (ta == TG_TRANS)) ? m : k, a_len = (row != (ta == TG_TRANS)) ? k : m;
    b_vec = (row != (tb == TG_TRANS)) ? k : n, b_len = (row != (tb == TG_TRANS)) ? n : k;
    c_vec = row ? m : n, c_len = row ? n : m;
    /* leading dimensions: the minimum plus 0-3, or one below it when the low bits say so */
    lda = (a_len > 1 ? a_len : 1) + (ldpad & 3) - ((ldpad & 0x0c) == 0x0c);
    ldb = (b_len > 1 ? b_len : 1) + (ldpad >> 4 & 3) - ((ldpad & 0xc0) == 0xc0);
    ldc = (c_len > 1 ? c_len : 1) + (nulls >> 4 & 3) - ((nulls & 0xc0) == 0xc0);

    snprintf(call, sizeof call,
             "%cgemm layout %d transa %d transb %d m %lld n %lld k %lld alpha %g lda %lld ldb %lld beta %g "
             "ldc %lld NULL a/b/c %u%u%u, %d thread(s) first",
             es == 8 ? 'd' : 's', layout, ta, tb, (long long)m, (long long)n, (long long)k, alpha,
             (long long)lda, (long long)ldb, beta, (long long)ldc, nulls & 1, nulls >> 1 & 1, nulls >> 2 & 1,
             threads & 1 ? 2 : 1);
    alpha_zero = alpha == 0;
    valid = (layout == TG_ROW_MAJOR || layout == TG_COL_MAJOR) && (ta == TG_NO_TRANS || ta == TG_TRANS) &&
            (tb == TG_NO_TRANS || tb == TG_TRANS) && m >= 0 && n >= 0 && k >= 0 &&
            lda >= (a_len > 1 ? a_len : 1) && ldb >= (b_len > 1 ? b_len : 1) && ldc >= (c_len > 1 ? c_len : 1);
    /* buffers of exactly the elements the call may touch (one byte when none, so NULL stays a choice) */
    na = valid ? span(a_vec, a_len, lda) : (size_t)(a_vec > 0 && a_len > 0 ? a_vec * a_len : 0);
    nb = valid ? span(b_vec, b_len, ldb) : (size_t)(b_vec > 0 && b_len > 0 ? b_vec * b_len : 0);
    nc = valid ? span(c_vec, c_len, ldc) : (size_t)(c_vec > 0 && c_len > 0 ? c_vec * c_len : 0);
    if (!(nulls & 1)) a = (unsigned char *)malloc(na * es + 1);
    if (!(nulls & 2)) b = (unsigned char *)malloc(nb * es + 1);
    if (!(nulls & 4)) c = (unsigned char *)malloc(nc * es + 1), c0 = (unsigned char *)malloc(nc * es + 1);
    /* a pointer is needed only where read or written */
    if (valid && m > 0 && n > 0 && k > 0 && !alpha_zero && (!a || !b)) valid = 0;
    if (valid && m > 0 && n > 0 && !c) valid = 0;
    /* the values: small integers from the bytes (exact products), now and then a NaN or an Inf */
    for (i = 0; a && i < na; i++) {
        unsigned v = take(&in);
        double x = v == 255 ? NAN : v == 254 ? INFINITY : (double)((int)(v % 17) - 8);
        if (es == 8) memcpy(a + i * 8, &x, 8); else { float f = (float)x; memcpy(a + i * 4, &f, 4); }
    }
    for (i = 0; b && i < nb; i++) {
        unsigned v = take(&in);
        double x = v == 255 ? NAN : (double)((int)(v % 17) - 8) / 4;
        if (es == 8) memcpy(b + i * 8, &x, 8); else { float f = (float)x; memcpy(b + i * 4, &f, 4); }
    }
    for (i = 0; c && i < nc; i++) {
        unsigned v = take(&in);
        double x = v == 255 ? NAN : (double)((int)(v % 33) - 16);
        if (es == 8) memcpy(c + i * 8, &x, 8); else { float f = (float)x; memcpy(c + i * 4, &f, 4); }
    }
    if (c) memcpy(c0, c, nc * es);

    if (valid && m > 0 && n > 0) {
        out = (double *)malloc((size_t)(m * n) * sizeof(double));
        bound = (double *)malloc((size_t)(m * n) * sizeof(double));
        tg_ref_gemm(es, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, beta == 0 ? NULL : c, ldc, out,
                    bound);
    }
    tg_set_num_threads(threads & 1 ? 2 : 1);
    st = es == 8 ? tg_dgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, (const double *)a,
                            lda, (const double *)b, ldb, beta, (double *)c, ldc)
                 : tg_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, (float)alpha,
                            (const float *)a, lda, (const float *)b, ldb, (float)beta, (float *)c, ldc);
    if (!valid) {
        if (st != TG_ERR_ARG) fail("an invalid call did not return TG_ERR_ARG");
        if (c && memcmp(c, c0, nc * es) != 0) fail("an invalid call changed C");
    } else {
        if (st != TG_OK) fail("a valid call did not return TG_OK");
        if (m > 0 && n > 0) {
            int64_t r, j;
            /* (an infinite alpha with k > 0: +-Inf or NaN depends on where alpha multiplies, which
             * the BLAS leaves open; the other checks still hold) */
            if (!(isinf(alpha) && k > 0) && !(tg_ref_ratio(es, layout, m, n, c, ldc, out, bound, NULL, NULL) < 16))
                fail("the ratio test against the fp64 reference failed");
            /* the padding between C's runs untouched */
            for (r = 0; r + 1 < c_vec; r++)
                for (j = c_len; j < ldc; j++)
                    if (memcmp(c + (size_t)(r * ldc + j) * es, c0 + (size_t)(r * ldc + j) * es, es))
                        fail("C's padding changed");
            /* the same bits on the other thread count */
            c1 = (unsigned char *)malloc(nc * es + 1);
            memcpy(c1, c, nc * es);
            memcpy(c, c0, nc * es);
            tg_set_num_threads(threads & 1 ? 1 : 2);
            st = es == 8 ? tg_dgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha,
                                    (const double *)a, lda, (const double *)b, ldb, beta, (double *)c, ldc)
                         : tg_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, (float)alpha,
                                    (const float *)a, lda, (const float *)b, ldb, (float)beta, (float *)c, ldc);
            if (st != TG_OK || memcmp(c, c1, nc * es) != 0) fail("1 and 2 threads gave different bits");
        }
    }
    free(a), free(b), free(c), free(c0), free(c1), free(out), free(bound);
    return 0;
}
