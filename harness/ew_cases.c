/* Elementwise cases as text and as traffic: operation names, case text, the element counts of
 * --sizes, the bytes a call moves and the ceiling that matches it. See ew_bench.h.
 *
 * Counts read like the sizes people think in: 1000000, 1e6 or 2^20, and ranges of them (1e3:1e9:x10).
 * The matching ceiling follows the case's pattern of reads and writes, not its name: an in-place
 * update reads each line it writes, so it never pays the extra line read that a write to a third
 * array costs a write-allocate cache, and it is judged against an in-place probe.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "ew_bench.h"
#include "gpu.h"

#define MAX_COUNT ((int64_t)1 << 40)

static const char *const op_names[TG__OP_COUNT] = {"gemm",  "add",  "sub",      "mul",
                                                   "scale", "axpy", "activate", "bias_act"};
static const char *const act_names[] = {"none", "relu", "gelu_tanh", "gelu_erf", "sigmoid", "silu"};
#define NACTS (int)(sizeof act_names / sizeof act_names[0])

static int has_act(int op) { return op == TG__OP_ACTIVATE || op == TG__OP_BIAS_ACT; }

int tg__ew_op_parse(const char *item, int *op, int *act, char *err, size_t errlen)
{
    const char *colon = strchr(item, ':');
    size_t len = colon ? (size_t)(colon - item) : strlen(item);
    *op = -1;
    for (int i = 1; i < TG__OP_COUNT; i++)
        if (strlen(op_names[i]) == len && !strncmp(item, op_names[i], len)) *op = i;
    if (*op < 0) {
        snprintf(err, errlen, "unknown operation '%s' (choose from add, sub, mul, scale, axpy, "
                              "activate:ACT, bias_act:ACT)", item);
        return -1;
    }
    *act = TG_ACT_NONE;
    if (!has_act(*op)) {
        if (!colon) return 0;
        snprintf(err, errlen, "operation '%s': %s takes no activation", item, op_names[*op]);
        return -1;
    }
    for (int a = 0; colon && a < NACTS; a++)
        if (!strcmp(colon + 1, act_names[a])) {
            *act = a;
            return 0;
        }
    snprintf(err, errlen, "operation '%s': %s needs an activation after ':' (none, relu, gelu_tanh, "
                          "gelu_erf, sigmoid, silu)", item, op_names[*op]);
    return -1;
}

void tg__ew_op_str(int op, int act, char *buf, size_t len)
{
    if (op <= TG__OP_GEMM || op >= TG__OP_COUNT) snprintf(buf, len, "?");
    else if (has_act(op)) snprintf(buf, len, "%s:%s", op_names[op], act_names[act]);
    else snprintf(buf, len, "%s", op_names[op]);
}

void tg__ew_ops_help(FILE *out)
{
    fprintf(out,
"                       add, sub, mul     z = x op y           (2 reads + 1 write)\n"
"                       scale             x = alpha x          (1 read + 1 write, in place)\n"
"                       axpy              y = alpha x + y      (2 reads + 1 write, in place)\n"
"                       activate:ACT      y = act(x)           (1 read + 1 write)\n"
"                       bias_act:ACT      c = act(c + bias) on N/%d x %d row-major, a bias per\n"
"                                         column (1 read + 1 write in place, plus the bias)\n"
"                     ACT: none, relu, gelu_tanh, gelu_erf, sigmoid, silu\n",
            TG__EW_BIAS_COLS, TG__EW_BIAS_COLS);
}

/* ---- element counts ---- */

/* A count spanning exactly [s, end): digits, AeB (A and B digits) or 2^K. */
static int count(const char *s, const char *end, int64_t *out)
{
    const char *e = memchr(s, 'e', (size_t)(end - s)), *p = memchr(s, '^', (size_t)(end - s));
    const char *split = e ? e : p;
    const char *a_end = split ? split : end;
    if (s == a_end || s == end || !isdigit((unsigned char)*s)) return -1;
    for (const char *q = s; q < end; q++)
        if (q != split && !isdigit((unsigned char)*q)) return -1;
    errno = 0;
    long long a = strtoll(s, NULL, 10), b = 0;
    if (split) {
        if (split + 1 == end) return -1;
        b = strtoll(split + 1, NULL, 10);
    }
    if (errno || a < 1) return -1;
    double v = (double)a;
    if (e) {
        if (b > 15) return -1;
        for (long long i = 0; i < b; i++) v *= 10;
    } else if (p) {
        if (a != 2 || b > 40) return -1;
        v = (double)((int64_t)1 << b);
    }
    if (v > (double)MAX_COUNT) return -1;
    *out = (int64_t)v;
    return 0;
}

static int push(tg__shape **shapes, int *n, int64_t v)
{
    for (int i = 0; i < *n; i++)
        if ((*shapes)[i].m == v) return 0;
    tg__shape *s = realloc(*shapes, (size_t)(*n + 1) * sizeof **shapes);
    if (!s) return -1;
    s[*n] = (tg__shape){v, 1, 1, "elementwise"};
    *shapes = s;
    (*n)++;
    return 0;
}

int tg__ew_sizes_expand(const char *item, tg__shape **shapes, int *n, char *err, size_t errlen)
{
    const char *end = item + strlen(item), *c1 = strchr(item, ':');
    int64_t a, b, c;
    if (c1) {
        const char *c2 = strchr(c1 + 1, ':');
        int geometric = c2 && c2[1] == 'x';
        if (!c2 || count(item, c1, &a) || count(c1 + 1, c2, &b) ||
            count(c2 + 1 + geometric, end, &c) || b < a || (geometric && c < 2))
            goto bad;
        for (int64_t v = a; v <= b; v = geometric ? v * c : v + c)
            if (push(shapes, n, v)) goto nomem;
        return 0;
    }
    if (count(item, end, &a) == 0) return push(shapes, n, a) ? -1 : 0;
bad:
    snprintf(err, errlen,
             "malformed element count '%s': an elementwise sweep (--op) takes counts N (digits, "
             "AeB or 2^K, 1..2^40), lo:hi:step or lo:hi:xF (F >= 2, lo <= hi)", item);
    return -1;
nomem:
    snprintf(err, errlen, "out of memory expanding '%s'", item);
    return -1;
}

void tg__ew_case_shape(tg__case *c, int64_t n)
{
    c->m = n;
    c->n = c->k = 1;
    if (c->op == TG__OP_BIAS_ACT) {
        c->n = n < TG__EW_BIAS_COLS ? n : TG__EW_BIAS_COLS;
        c->m = n / c->n;
    }
    c->family = "elementwise";
}

/* ---- case text ---- */

static void size_str(const tg__case *c, char *buf, size_t len)
{
    if (c->op == TG__OP_BIAS_ACT) snprintf(buf, len, "%" PRId64 "x%" PRId64, c->m, c->n);
    else snprintf(buf, len, "%" PRId64, c->m);
}

int tg__ew_case_format(const tg__case *c, char *buf, size_t len)
{
    char op[32], size[48];
    tg__ew_op_str(c->op, c->act, op, sizeof op);
    size_str(c, size, sizeof size);
    int n = snprintf(buf, len, "%s/%c/%s/%d", op, c->dtype, size, c->threads);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int tg__ew_case_parse(const char *s, tg__case *c)
{
    char op[32], err[160];
    char dtype;
    long long m, n = 1;
    int threads, end = 0, opi, act;
    if (sscanf(s, "%31[a-z_:]/%c/%lld%n", op, &dtype, &m, &end) != 3) return -1;
    if (s[end] == 'x') {
        int more = 0;
        if (sscanf(s + end, "x%lld%n", &n, &more) != 1) return -1;
        end += more;
    }
    if (sscanf(s + end, "/%d", &threads) != 1) return -1;
    if (tg__ew_op_parse(op, &opi, &act, err, sizeof err) != 0) return -1;
    if (!strchr("sdhb", dtype) || m < 1 || n < 1 || threads < 1 ||
        (opi != TG__OP_BIAS_ACT && n != 1))
        return -1;
    memset(c, 0, sizeof *c);
    c->op = opi;
    c->act = act;
    c->dtype = dtype;
    c->layout = TG_ROW_MAJOR;
    c->transa = c->transb = TG_NO_TRANS;
    c->m = m;
    c->n = n;
    c->k = 1;
    c->threads = threads;
    c->family = "elementwise";
    /* the text must be exactly what format writes: nothing left over, no other spelling */
    char again[128];
    return tg__ew_case_format(c, again, sizeof again) == 0 && !strcmp(again, s) ? 0 : -1;
}

void tg__ew_case_name(const tg__case *c, const char *impl, char *buf, size_t len)
{
    char op[32], size[48];
    tg__ew_op_str(c->op, c->act, op, sizeof op);
    size_str(c, size, sizeof size);
    snprintf(buf, len, "elementwise/%s/%s/%c/%s/threads:%d", impl, op, c->dtype, size, c->threads);
}

/* ---- traffic and ceilings ---- */

int64_t tg__ew_elements(const tg__case *c) { return c->m * c->n; }

double tg__ew_bytes(const tg__case *c)
{
    static const int arrays[TG__OP_COUNT] = {0, 3, 3, 3, 2, 3, 2, 2};
    double es = c->dtype == 'd' ? 8 : c->dtype == 's' ? 4 : 2; /* fp16, bf16: 2 */
    double bytes = arrays[c->op] * es * (double)tg__ew_elements(c);
    return c->op == TG__OP_BIAS_ACT ? bytes + es * (double)c->n : bytes;
}

const char *tg__ew_pattern(const tg__case *c, int device)
{
    if (device == TG__DEVICE_CUDA) return "device_copy";
    switch (c->op) {
    case TG__OP_ADD: case TG__OP_SUB: case TG__OP_MUL: return "add";
    case TG__OP_AXPY: return "axpy_inplace";
    case TG__OP_ACTIVATE: return "copy";
    default: return "scale_inplace"; /* scale, bias_act */
    }
}

double tg__ew_ceiling(const char *path, const tg__case *c, int device)
{
    const char *pattern = tg__ew_pattern(c, device);
    double a, b;
    if (device == TG__DEVICE_CUDA) {
        a = tg__ceilings_value(path, 1, "copy_gbs", NULL);
        b = tg__ceilings_value(path, 1, "memcpy_gbs", NULL);
    } else {
        char nt[32];
        snprintf(nt, sizeof nt, "%s_nt", pattern);
        a = tg__ceilings_value(path, c->threads, "stream_gbs", pattern);
        b = tg__ceilings_value(path, c->threads, "stream_gbs", nt);
    }
    return a > b ? a : b;
}

void tg__ew_json_fields(FILE *out, const tg__case *c, const char *pattern, double ceiling)
{
    char op[32];
    tg__ew_op_str(c->op, c->act, op, sizeof op);
    fprintf(out, "      \"op\": \"%s\",\n      \"elements\": %" PRId64 ",\n", op,
            tg__ew_elements(c));
    fprintf(out, "      \"rows\": %" PRId64 ",\n      \"cols\": %" PRId64 ",\n", c->m, c->n);
    fprintf(out, "      \"bytes\": %.17g,\n      \"pattern\": %s%s%s,\n", tg__ew_bytes(c),
            pattern ? "\"" : "", pattern ? pattern : "null", pattern ? "\"" : "");
    if (ceiling > 0) fprintf(out, "      \"ceiling_gbps\": %.6g,\n", ceiling);
}
