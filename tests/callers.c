/* Many threads calling at once: each must get its own correct answer, and the thread-local error
 * messages must never mix.
 *
 * Plain POSIX threads, not OpenMP, so the callers are outside any parallel region and each call may
 * start its own team: the library then runs several teams and several sets of packing buffers at
 * once. In each round every thread makes an invalid call that carries a value unique to it, waits
 * at a barrier for the others to do the same, makes a valid call (some big enough to be threaded,
 * some small) and checks that the message (that of its last failed call, as api.h says) still
 * carries its own value. Threads only record what they saw; the main
 * thread does the counting (tgt_check is not thread-safe).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* pthread barriers under strict -std= modes */
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

enum { TGT_CALLERS = 6, TGT_ROUNDS = 30 };

typedef struct {
    int id;
    pthread_barrier_t *meet;   /* all callers meet here every round */
    int wrong;           /* rounds with a wrong status or result */
    int mixed;           /* rounds whose error message was not this thread's */
    char first[600];     /* the first problem seen, for the failure message */
} tgt_caller;

static void *tgt_caller_main(void *arg)
{
    tgt_caller *me = (tgt_caller *)arg;
    /* Every other thread gets a shape big enough for the library to thread it. */
    int big = me->id % 2 == 0;
    size_t es = me->id % 4 < 2 ? 4 : 8;
    int64_t m = big ? 90 + me->id : 9 + me->id, n = big ? 70 + 3 * me->id : 17 + me->id,
            k = big ? 80 : 23 - me->id, bad = -(1000 + me->id), wi, wj;
    int layout = me->id % 3 ? TG_ROW_MAJOR : TG_COL_MAJOR;
    uint64_t rng = 5000 + (uint64_t)me->id;
    tgt_buf A, B, C0, C;
    double *out = (double *)malloc((size_t)(m * n) * sizeof(double));
    double *bound = (double *)malloc((size_t)(m * n) * sizeof(double));
    char value[40];
    int ok = out && bound;

    /* Row- or column-major, no transposes: runs are rows when row-major. */
    ok &= tgt_buf_init(&A, es, layout == TG_ROW_MAJOR ? m : k, layout == TG_ROW_MAJOR ? k : m,
                       layout == TG_ROW_MAJOR ? k : m);
    ok &= tgt_buf_init(&B, es, layout == TG_ROW_MAJOR ? k : n, layout == TG_ROW_MAJOR ? n : k,
                       layout == TG_ROW_MAJOR ? n : k);
    ok &= tgt_buf_init(&C0, es, layout == TG_ROW_MAJOR ? m : n, layout == TG_ROW_MAJOR ? n : m,
                       layout == TG_ROW_MAJOR ? n : m);
    ok &= tgt_buf_init(&C, es, C0.vectors, C0.len, C0.ld);
    if (ok) {
        tgt_buf_fill(&A, &rng);
        tgt_buf_fill(&B, &rng);
        tgt_buf_fill(&C0, &rng);
        tg_ref_gemm(es, layout, TG_NO_TRANS, TG_NO_TRANS, m, n, k, -1.0, A.p, A.ld, B.p, B.ld, 0.5,
                    C0.p, C0.ld, out, bound);
    } else {
        me->wrong = TGT_ROUNDS;
        snprintf(me->first, sizeof me->first, "caller %d: out of memory", me->id);
    }
    snprintf(value, sizeof value, "= %lld:", (long long)bad);

    for (int round = 0; round < TGT_ROUNDS; round++) {
        int st, bad_st;
        double r;
        const char *msg;
        /* An invalid call whose message names a value no other thread uses. After the barrier
         * every thread has failed its own call, so a message shared between threads would now be
         * foreign to all but one of them; a thread-local one must still be this thread's, even
         * after a whole valid call. (Every thread reaches every barrier, even out of memory.) */
        bad_st = ok ? tgt_gemm(es, layout, TG_NO_TRANS, TG_NO_TRANS, bad, n, k, 1.0, A.p, A.ld,
                               B.p, B.ld, 0.0, C.p, C.ld)
                    : TG_ERR_ARG;
        pthread_barrier_wait(me->meet);
        if (!ok) continue;
        memcpy(C.mem, C0.mem, C0.total * es);
        st = tgt_gemm(es, layout, TG_NO_TRANS, TG_NO_TRANS, m, n, k, -1.0, A.p, A.ld, B.p, B.ld,
                      0.5, C.p, C.ld);
        msg = tg_last_error();
        if (bad_st != TG_ERR_ARG || !strstr(msg, value)) {
            if (!me->mixed++)
                snprintf(me->first, sizeof me->first,
                         "caller %d round %d: status %d, message \"%s\" lacks \"%s\"", me->id,
                         round, bad_st, msg, value);
        }
        r = tg_ref_ratio(es, layout, m, n, C.p, C.ld, out, bound, &wi, &wj);
        if (st != TG_OK || !(r < 16)) {
            if (!me->wrong++)
                snprintf(me->first, sizeof me->first,
                         "caller %d round %d (m=%lld n=%lld k=%lld): status %d, ratio %g at "
                         "(%lld, %lld)", me->id, round, (long long)m, (long long)n, (long long)k,
                         st, r, (long long)wi, (long long)wj);
        }
    }
    free(out);
    free(bound);
    tgt_buf_free(&A);
    tgt_buf_free(&B);
    tgt_buf_free(&C0);
    tgt_buf_free(&C);
    return NULL;
}

void tgt_section_callers(void)
{
    pthread_t threads[TGT_CALLERS];
    tgt_caller callers[TGT_CALLERS];
    pthread_barrier_t meet;
    int started = 0;
    pthread_barrier_init(&meet, NULL, TGT_CALLERS);
    for (int t = 0; t < TGT_CALLERS; t++) {
        memset(&callers[t], 0, sizeof callers[t]);
        callers[t].id = t;
        callers[t].meet = &meet;
    }
    for (int t = 0; t < TGT_CALLERS; t++)
        started += pthread_create(&threads[t], NULL, tgt_caller_main, &callers[t]) == 0;
    if (!tgt_check(started == TGT_CALLERS, "callers: only %d of %d threads started", started,
                   TGT_CALLERS))
        abort(); /* the others wait at the barrier forever; end loudly rather than hang */
    for (int t = 0; t < TGT_CALLERS; t++) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&meet);
    for (int t = 0; t < TGT_CALLERS; t++)
        tgt_check(!callers[t].wrong && !callers[t].mixed,
                  "%s %s: %d wrong results, %d foreign error messages; first: %s", tgt_config(),
                  tg_cpu_arch(), callers[t].wrong, callers[t].mixed, callers[t].first);
}
