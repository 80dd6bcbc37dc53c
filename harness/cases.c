/* A case (one GEMM problem of a sweep) as text: its worker command-line form and its benchmark name.
 *
 * Both spell the case the same way, <dtype>/<layout>/<trans>/<m>x<n>x<k>/<threads>, so a name in the
 * JSON and a worker's argument can be read side by side. Elementwise cases (op != 0) have their
 * own spelling in ew_cases.c.
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "bench.h"
#include "ew_bench.h"

static void trans_str(const tg__case *c, char out[3])
{
    out[0] = c->transa == TG_TRANS ? 'T' : 'N';
    out[1] = c->transb == TG_TRANS ? 'T' : 'N';
    out[2] = 0;
}

int tg__case_format(const tg__case *c, char *buf, size_t len)
{
    if (c->op != TG__OP_GEMM) return tg__ew_case_format(c, buf, len);
    char t[3];
    trans_str(c, t);
    int n = snprintf(buf, len, "%c/%s/%s/%lldx%lldx%lld/%d", c->dtype,
                     c->layout == TG_ROW_MAJOR ? "row" : "col", t, (long long)c->m,
                     (long long)c->n, (long long)c->k, c->threads);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int tg__case_parse(const char *s, tg__case *c)
{
    char dtype, layout[4], t[3];
    long long m, n, k;
    int threads, end = 0;
    if (sscanf(s, "%c/%3[a-z]/%2[NT]/%lldx%lldx%lld/%d%n", &dtype, layout, t, &m, &n, &k,
               &threads, &end) != 7 || s[end] != 0)
        return tg__ew_case_parse(s, c);
    if ((dtype != 's' && dtype != 'd') || (strcmp(layout, "row") && strcmp(layout, "col")) ||
        strlen(t) != 2 || m < 1 || n < 1 || k < 1 || threads < 1)
        return -1;
    c->dtype = dtype;
    c->layout = layout[0] == 'r' ? TG_ROW_MAJOR : TG_COL_MAJOR;
    c->transa = t[0] == 'T' ? TG_TRANS : TG_NO_TRANS;
    c->transb = t[1] == 'T' ? TG_TRANS : TG_NO_TRANS;
    c->m = m;
    c->n = n;
    c->k = k;
    c->threads = threads;
    c->family = "custom";
    c->op = TG__OP_GEMM;
    c->act = 0;
    return 0;
}

void tg__case_name(const tg__case *c, const char *impl, char *buf, size_t len)
{
    if (c->op != TG__OP_GEMM) {
        tg__ew_case_name(c, impl, buf, len);
        return;
    }
    char t[3];
    trans_str(c, t);
    snprintf(buf, len, "gemm/%s/%c/%s/%s/%lldx%lldx%lld/threads:%d", impl, c->dtype,
             c->layout == TG_ROW_MAJOR ? "row" : "col", t, (long long)c->m, (long long)c->n,
             (long long)c->k, c->threads);
}
