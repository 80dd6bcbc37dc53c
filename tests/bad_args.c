/* Invalid arguments, one parameter at a time, in call order; and the NULL pointers that are valid.
 *
 * Every bad call must return TG_ERR_ARG, leave C untouched (bit for bit, with its padding), and
 * leave a thread-local message naming the function, the parameter's 1-based position and name,
 * and its value. Where several parameters are bad the first in call order is the one reported, as
 * the reference BLAS's xerbla does. Pointers are required only where they would be read or written,
 * so a NULL A and B with alpha or k zero, or a NULL C with m or n zero, are valid calls.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

/* A call that starts valid (row-major, m 3, n 4, k 5, tight leading dimensions); each case changes
 * some fields. */
typedef struct {
    const char *why;
    int layout, transa, transb;
    int64_t m, n, k;
    double alpha;
    int a_null, b_null, c_null;
    int64_t lda, ldb, ldc;
} tgt_bad;

static tgt_bad tgt_base(const char *why)
{
    tgt_bad b;
    b.why = why;
    b.layout = TG_ROW_MAJOR;
    b.transa = TG_NO_TRANS;
    b.transb = TG_NO_TRANS;
    b.m = 3;
    b.n = 4;
    b.k = 5;
    b.alpha = 1;
    b.a_null = b.b_null = b.c_null = 0;
    b.lda = 5;
    b.ldb = 4;
    b.ldc = 4;
    return b;
}

/* The smallest valid leading dimension of op(X) (rows x cols) for a layout and transpose. */
static int64_t tgt_min_ld(int layout, int trans, int64_t rows, int64_t cols)
{
    int64_t vectors, len;
    tgt_storage(layout, trans, rows, cols, &vectors, &len);
    return len > 1 ? len : 1;
}

/* Runs the call; it must fail on parameter pos (its name and value in the message). */
static void tgt_run_bad(size_t es, const tgt_bad *b, int pos, const char *name, int64_t value)
{
    /* Real, poisoned buffers: a library that touched them before failing would be caught. */
    tgt_buf A, B, C;
    unsigned char *c0;
    char want[96], shown[48];
    int st, ok;
    const char *msg, *fn = es == 4 ? "tg_sgemm" : "tg_dgemm";
    if (!(tgt_buf_init(&A, es, 8, 8, 8) & tgt_buf_init(&B, es, 8, 8, 8) &
          tgt_buf_init(&C, es, 8, 8, 8)) ||
        !(c0 = (unsigned char *)malloc(C.total * es))) {
        tgt_check(0, "%s: the test ran out of memory", b->why);
        tgt_buf_free(&A);
        tgt_buf_free(&B);
        tgt_buf_free(&C);
        return;
    }
    memcpy(c0, C.mem, C.total * es);
    st = tgt_gemm(es, b->layout, b->transa, b->transb, b->m, b->n, b->k, b->alpha,
                  b->a_null ? NULL : A.p, b->lda, b->b_null ? NULL : B.p, b->ldb, 0.5,
                  b->c_null ? NULL : C.p, b->ldc);
    msg = tg_last_error();
    snprintf(want, sizeof want, "parameter %d (%s)", pos, name);
    snprintf(shown, sizeof shown, "= %lld:", (long long)value);
    ok = tgt_check(st == TG_ERR_ARG, "%s %s: status %d, want TG_ERR_ARG", fn, b->why, st);
    ok = ok && tgt_check(memcmp(c0, C.mem, C.total * es) == 0, "%s %s: C was modified", fn, b->why);
    ok = ok && tgt_check(msg && strstr(msg, want) && strstr(msg, shown) && strstr(msg, fn),
                         "%s %s: message \"%s\" should name %s, %s", fn, b->why,
                         msg ? msg : "(null)", want, shown);
    (void)ok;
    free(c0);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C);
}

/* Every bad parameter, in call order, for both precisions. */
static void tgt_bad_calls(size_t es)
{
    const int64_t huge = INT64_MAX / 4;
    const int lay[2] = {TG_ROW_MAJOR, TG_COL_MAJOR}, tr[2] = {TG_NO_TRANS, TG_TRANS};
    tgt_bad b;

    b = tgt_base("layout 0");
    b.layout = 0;
    tgt_run_bad(es, &b, 1, "layout", 0);
    b = tgt_base("layout 103");
    b.layout = 103;
    tgt_run_bad(es, &b, 1, "layout", 103);
    b = tgt_base("transa 113 (CBLAS ConjTrans)");
    b.transa = 113;
    tgt_run_bad(es, &b, 2, "transa", 113);
    b = tgt_base("transa 'N'");
    b.transa = 'N';
    tgt_run_bad(es, &b, 2, "transa", 'N');
    b = tgt_base("transb 110");
    b.transb = 110;
    tgt_run_bad(es, &b, 3, "transb", 110);
    b = tgt_base("m -1");
    b.m = -1;
    tgt_run_bad(es, &b, 4, "m", -1);
    b = tgt_base("m INT64_MIN");
    b.m = INT64_MIN;
    tgt_run_bad(es, &b, 4, "m", INT64_MIN);
    b = tgt_base("n -1");
    b.n = -1;
    tgt_run_bad(es, &b, 5, "n", -1);
    b = tgt_base("k -1");
    b.k = -1;
    tgt_run_bad(es, &b, 6, "k", -1);
    b = tgt_base("a NULL");
    b.a_null = 1;
    tgt_run_bad(es, &b, 8, "a", 0);
    b = tgt_base("b NULL");
    b.b_null = 1;
    tgt_run_bad(es, &b, 10, "b", 0);
    b = tgt_base("c NULL");
    b.c_null = 1;
    tgt_run_bad(es, &b, 13, "c", 0);

    /* Leading dimensions one below the minimum, for every layout and transpose. */
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 2; t++) {
            b = tgt_base("lda one below the minimum");
            b.layout = lay[l];
            b.transa = b.transb = tr[t];
            b.lda = tgt_min_ld(lay[l], tr[t], b.m, b.k) - 1;
            b.ldb = tgt_min_ld(lay[l], tr[t], b.k, b.n);
            b.ldc = tgt_min_ld(lay[l], TG_NO_TRANS, b.m, b.n);
            tgt_run_bad(es, &b, 9, "lda", b.lda);
            b.why = "ldb one below the minimum";
            b.lda++;
            b.ldb--;
            tgt_run_bad(es, &b, 11, "ldb", b.ldb);
            b.why = "ldc one below the minimum";
            b.ldb++;
            b.ldc--;
            tgt_run_bad(es, &b, 14, "ldc", b.ldc);
        }

    /* A leading dimension below the CBLAS minimum is an error even when nothing would be read. */
    b = tgt_base("m 0, row-major lda < k");
    b.m = 0;
    b.lda = 4;
    tgt_run_bad(es, &b, 9, "lda", 4);
    b = tgt_base("m 0, col-major lda 0");
    b.layout = TG_COL_MAJOR;
    b.m = 0;
    b.lda = 0;
    b.ldb = 5;
    tgt_run_bad(es, &b, 9, "lda", 0);
    b = tgt_base("m, n, k 0 with NULLs, ldc 0");
    b.m = b.n = b.k = 0;
    b.lda = b.ldb = 1;
    b.ldc = 0;
    b.a_null = b.b_null = b.c_null = 1;
    tgt_run_bad(es, &b, 14, "ldc", 0);
    b = tgt_base("alpha 0, ldb < n");
    b.alpha = 0;
    b.ldb = 3;
    tgt_run_bad(es, &b, 11, "ldb", 3);

    /* Sizes whose byte extent cannot be addressed: caught before any pointer is used. */
    b = tgt_base("A's extent overflows (m huge)");
    b.m = INT64_MAX / 2; /* that many 4-byte elements span more than PTRDIFF_MAX bytes */
    b.k = 1;
    b.lda = 1;
    tgt_run_bad(es, &b, 9, "lda", 1);
    b = tgt_base("A's extent overflows (lda huge)");
    b.lda = INT64_MAX;
    tgt_run_bad(es, &b, 9, "lda", INT64_MAX);
    b = tgt_base("B's extent overflows (n huge)");
    b.n = b.ldb = b.ldc = huge;
    tgt_run_bad(es, &b, 11, "ldb", huge);
    b = tgt_base("C's extent overflows (ldc huge)");
    b.ldc = INT64_MAX / 2;
    tgt_run_bad(es, &b, 14, "ldc", INT64_MAX / 2);

    /* Several bad parameters: the first in call order is reported. */
    b = tgt_base("layout and m bad");
    b.layout = 7;
    b.m = -1;
    tgt_run_bad(es, &b, 1, "layout", 7);
    b = tgt_base("transa and transb bad");
    b.transa = 1;
    b.transb = 2;
    tgt_run_bad(es, &b, 2, "transa", 1);
    b = tgt_base("m and n bad");
    b.m = -2;
    b.n = -3;
    tgt_run_bad(es, &b, 4, "m", -2);
    b = tgt_base("k and lda bad");
    b.k = -4;
    b.lda = 0;
    tgt_run_bad(es, &b, 6, "k", -4);
    b = tgt_base("a NULL and lda bad");
    b.a_null = 1;
    b.lda = 1;
    tgt_run_bad(es, &b, 8, "a", 0);
    b = tgt_base("lda and b bad");
    b.lda = 2;
    b.b_null = 1;
    tgt_run_bad(es, &b, 9, "lda", 2);
    b = tgt_base("ldb and c bad");
    b.ldb = 1;
    b.c_null = 1;
    tgt_run_bad(es, &b, 11, "ldb", 1);
    b = tgt_base("c NULL and ldc bad");
    b.c_null = 1;
    b.ldc = 1;
    tgt_run_bad(es, &b, 13, "c", 0);
}

/* Calls that are valid although pointers are NULL; C (when there is one) must come out exact. */
static void tgt_valid_nulls(size_t es)
{
    const char *fn = es == 4 ? "tg_sgemm" : "tg_dgemm";
    tgt_buf C;
    int st;
    if (!tgt_buf_init(&C, es, 3, 4, 4)) {
        tgt_check(0, "valid NULLs: the test ran out of memory");
        return;
    }
    st = tgt_gemm(es, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 0, 4, 5, 1, NULL, 5, NULL, 4, 1, NULL,
                  4);
    tgt_check(st == TG_OK, "%s m 0 with NULL a, b, c: status %d (%s)", fn, st, tg_last_error());
    st = tgt_gemm(es, TG_COL_MAJOR, TG_TRANS, TG_NO_TRANS, 3, 0, 5, 1, NULL, 5, NULL, 5, 1, NULL,
                  3);
    tgt_check(st == TG_OK, "%s n 0 with NULL a, b, c: status %d (%s)", fn, st, tg_last_error());

    /* k zero, then alpha zero: C = beta * C (beta 2 is exact), A and B never read. */
    for (int alpha_zero = 0; alpha_zero < 2; alpha_zero++) {
        int64_t k = alpha_zero ? 5 : 0, bad = -1;
        for (int64_t v = 0; v < 3; v++)
            for (int64_t e = 0; e < 4; e++) tgt_buf_set(&C, v, e, (double)(v * 4 + e) - 5.5);
        st = tgt_gemm(es, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 3, 4, k, alpha_zero ? 0 : 1, NULL,
                      k > 1 ? k : 1, NULL, 4, 2, C.p, 4);
        for (int64_t x = 0; x < 12 && bad < 0; x++)
            if (tg_ref_at(es, C.p, TG_ROW_MAJOR, TG_NO_TRANS, 4, x / 4, x % 4) !=
                2 * ((double)x - 5.5))
                bad = x;
        tgt_check(st == TG_OK && bad < 0, "%s %s with NULL a, b: status %d (%s), C wrong at %lld",
                  fn, alpha_zero ? "alpha 0" : "k 0", st, tg_last_error(), (long long)bad);
    }
    tgt_buf_free(&C);
}

static void tgt_status_texts(void)
{
    const int codes[5] = {TG_OK, TG_ERR_ARG, TG_ERR_NOMEM, TG_ERR_UNSUPPORTED, TG_ERR_DEVICE};
    for (int i = 0; i < 5; i++) {
        const char *s = tg_strerror(codes[i]);
        int distinct = s && *s;
        for (int j = 0; j < i && distinct; j++) distinct = strcmp(s, tg_strerror(codes[j])) != 0;
        tgt_check(distinct, "tg_strerror(%d) = \"%s\" should be non-empty and distinct", codes[i],
                  s ? s : "(null)");
    }
    tgt_check(tg_strerror(12345) != NULL && *tg_strerror(12345), "tg_strerror(12345) is empty");
}

void tgt_section_unsupported(void)
{
    /* Run only with TGEMM_ARCH naming no family (tests/tests.mk sets "none"): a call that has work
     * to do must refuse cleanly, never run an illegal instruction, and leave C as it was. */
    for (size_t es = 4; es <= 8; es += 4) {
        tgt_buf A, B, C;
        unsigned char *c0 = NULL;
        uint64_t rng = 42;
        int st;
        if (!(tgt_buf_init(&A, es, 5, 6, 6) & tgt_buf_init(&B, es, 6, 7, 7) &
              tgt_buf_init(&C, es, 5, 7, 7)) ||
            !(c0 = (unsigned char *)malloc(C.total * es))) {
            tgt_check(0, "unsupported: the test ran out of memory");
        } else {
            tgt_buf_fill(&A, &rng);
            tgt_buf_fill(&B, &rng);
            tgt_buf_fill(&C, &rng);
            memcpy(c0, C.mem, C.total * es);
            st = tgt_gemm(es, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 5, 7, 6, 1, A.p, 6, B.p, 7,
                          0.5, C.p, 7);
            tgt_check(st == TG_ERR_UNSUPPORTED && memcmp(c0, C.mem, C.total * es) == 0 &&
                          strstr(tg_last_error(), "TGEMM_ARCH"),
                      "TGEMM_ARCH=%s: status %d (%s), C %s, message \"%s\"",
                      getenv("TGEMM_ARCH") ? getenv("TGEMM_ARCH") : "(unset)", st,
                      tg_strerror(st), memcmp(c0, C.mem, C.total * es) ? "modified" : "untouched",
                      tg_last_error());
        }
        free(c0);
        tgt_buf_free(&A);
        tgt_buf_free(&B);
        tgt_buf_free(&C);
    }
}

void tgt_section_args(void)
{
    tgt_bad_calls(4);
    tgt_bad_calls(8);
    tgt_valid_nulls(4);
    tgt_valid_nulls(8);
    tgt_status_texts();
}
