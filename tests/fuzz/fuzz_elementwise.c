/* libFuzzer target: the CPU elementwise calls (tg_add ... tg_bias_act) on arguments decoded from the
 * fuzzer's bytes, valid and not, with every operand inside one arena of exactly the bytes decoded
 * (AddressSanitizer sees any access past it), placed apart, in place or overlapping partly.
 *
 *   make fuzz            (with fuzz_gemm.c; tests/fuzz/fuzz.mk)
 *
 * Each input decodes to the call, the type (now and then fp16, bf16 or no type at all), the
 * activation (now and then none valid), n, or rows, cols, ldc, layout and mode for bias_act, alpha,
 * where each operand starts in the arena, NULLs, the thread count, and the values (small integers,
 * halves, NaN, +-Inf, +-0 and values past the activations' flush points). The expected outcome is
 * worked out here from the API's rules (common/api.h), independently of cpu/elementwise.c:
 * - a bad argument (type, activation, layout or mode out of range, a negative count, a NULL where
 *   there are elements, ldc below the run length, an input overlapping the output other than
 *   exactly, a bias overlapping C at all) gives TG_ERR_ARG; fp16 or bf16 otherwise gives
 *   TG_ERR_UNSUPPORTED; either way the arena's bytes stay as they were;
 * - a valid call gives TG_OK, every element as tests/elementwise/ew_ref.h computes it (bit for bit
 *   for add, sub, mul, scale, axpy (one fma) and ReLU; within 16 ulps and with the right sign of
 *   zero for the other activations), every other byte of the arena as it was, and the same bits on
 *   one thread as on two.
 * Anything else aborts, with the decoded call on stderr.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fuzz_input.h"
#include "../elementwise/ew_ref.h"

enum { F_ADD, F_SUB, F_MUL, F_SCALE, F_AXPY, F_ACT, F_BIAS, NFN };
static const char *fn_names[] = {"add", "sub", "mul", "scale", "axpy", "activate", "bias_act"};

static int64_t count(bytes_in *in)
{
    static const int64_t big[8] = {63, 64, 65, 127, 129, 1000, 4099, 20001};
    return size_from(in, 70, big);
}

static double value(unsigned v)
{
    static const double fixed[] = {0.0, -0.0, NAN, INFINITY, -INFINITY, -90.0, -30.0, 1e30, -1e30};
    return v < 9 * 8 ? fixed[v % 9] : (double)((int)v - 164) / 8;
}


/* Whether [a, a + an) and [b, b + bn) share a byte. */
static int overlap(size_t a, size_t an, size_t b, size_t bn) { return an && bn && a < b + bn && b < a + an; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes_in in = {data, size};
    const int fn = (int)(take(&in) % NFN);
    const unsigned tv = take(&in), av = take(&in), place = take(&in), nulls = take(&in), misc = take(&in);
    int t = tv % 8 < 6 ? (int)(tv % 2) : tv % 8 == 6 ? (tv & 8 ? TG_F16 : TG_BF16) : (tv & 8 ? 4 : -1);
    int act = av % 8 < 6 ? (int)(av % 8) : av % 8 == 6 ? 6 : -1;
    int layout = misc % 8 == 7 ? 100 : misc & 1 ? TG_COL_MAJOR : TG_ROW_MAJOR;
    int mode = misc % 16 == 14 ? 2 : misc >> 1 & 1 ? TG_BIAS_PER_COL : TG_BIAS_PER_ROW;
    double alpha = value(take(&in));
    int64_t n = count(&in), rows = 0, cols = 0, ldc = 0, lines = 0, len = 0, nbias = 0;
    const size_t es = t == TG_F64 ? 8 : t == TG_F32 ? 4 : 2;
    size_t arena_n, xo, yo, zo, i, n_in, n_out;
    unsigned char *arena, *before, *first;
    int valid = 1, st, row;
    void *x, *y, *z;

    if (fn == F_BIAS) {
        rows = count(&in) % 40, cols = count(&in) % 40; /* -2 .. 39 */
        row = layout == TG_ROW_MAJOR;
        lines = row ? rows : cols, len = row ? cols : rows;
        ldc = (len > 1 ? len : 1) + (place >> 4 & 3) - ((place & 0xc0) == 0xc0);
        nbias = mode == TG_BIAS_PER_ROW ? rows : cols;
        n_out = lines > 0 && len > 0 ? (size_t)((lines - 1) * ldc + len) : 0; /* C */
        n_in = nbias > 0 ? (size_t)nbias : 0;                                 /* the bias */
    } else {
        n_out = n_in = n > 0 ? (size_t)n : 0;
    }
    /* the arena: output and inputs placed apart, in place, or overlapping by a few elements */
    arena_n = 3 * (n_out > n_in ? n_out : n_in) + 8;
    zo = 0;
    switch (place & 3) {
    case 0: xo = n_out + 4, yo = xo + n_in + 2; break;                   /* apart */
    case 1: xo = zo, yo = n_out + 4; break;                              /* x (bias) is z */
    case 2: xo = n_out + 4, yo = zo; break;                              /* y is z */
    default: xo = zo + 1 + (place >> 2) % 3, yo = n_out + 4; break;      /* x overlaps z partly */
    }
    if (fn == F_BIAS && (place & 3) == 1) xo = (n_out ? n_out - 1 : 0); /* a bias ending inside C */
    arena = (unsigned char *)malloc(arena_n * es);
    before = (unsigned char *)malloc(arena_n * es);
    first = (unsigned char *)malloc(arena_n * es);
    for (i = 0; i < arena_n; i++) {
        unsigned v = take(&in);
        if (es == 2) { uint16_t h = (uint16_t)(v * 257u); memcpy(arena + 2 * i, &h, 2); } /* any pattern */
        else put((tg_dtype)t, arena, (int64_t)i, value(v));
    }
    memcpy(before, arena, arena_n * es);
    x = nulls % 8 == 1 ? NULL : arena + xo * es;
    y = nulls % 8 == 2 ? NULL : arena + yo * es;
    z = nulls % 8 == 3 ? NULL : arena + zo * es;
    snprintf(call, sizeof call, "%s t %d act %d n %lld rows %lld cols %lld ldc %lld layout %d mode %d alpha %g "
             "x+%zu y+%zu z+%zu NULL %u threads %d", fn_names[fn], t, act, (long long)n, (long long)rows,
             (long long)cols, (long long)ldc, layout, mode, alpha, xo, yo, zo, nulls % 8, misc & 0x40 ? 2 : 1);

    /* validity by the API's rules */
    if (t < 0 || t > TG_BF16) valid = 0;
    if (fn == F_BIAS) {
        if (layout != TG_ROW_MAJOR && layout != TG_COL_MAJOR) valid = 0;
        if (rows < 0 || cols < 0 || (mode != TG_BIAS_PER_ROW && mode != TG_BIAS_PER_COL)) valid = 0;
        if (act < TG_ACT_NONE || act > TG_ACT_SILU) valid = 0;
        if (rows > 0 && cols > 0 && (!x || !z)) valid = 0;
        if (ldc < (len > 1 ? len : 1)) valid = 0;
        if (valid && x && z && overlap(xo * es, n_in * es, zo * es, n_out * es)) valid = 0;
    } else {
        int reads_y = fn <= F_MUL || fn == F_AXPY, out_is_y = fn == F_AXPY || fn == F_ACT;
        if (fn == F_ACT && (act < TG_ACT_NONE || act > TG_ACT_SILU)) valid = 0;
        if (n < 0) valid = 0;
        if (n > 0 && (!x || (reads_y && !y) || (fn <= F_MUL && !z) || (fn == F_ACT && !y))) valid = 0;
        if (valid && n > 0) {
            size_t out = out_is_y ? yo : fn == F_SCALE ? xo : zo, bytes = (size_t)n * es;
            if (fn != F_SCALE && xo != out && overlap(xo * es, bytes, out * es, bytes)) valid = 0;
            if (fn <= F_MUL && yo != out && overlap(yo * es, bytes, out * es, bytes)) valid = 0;
        }
    }

    tg_set_num_threads(misc & 0x40 ? 2 : 1);
    for (int pass = 0; pass < 2; pass++) {
        switch (fn) {
        case F_ADD: st = tg_add((tg_dtype)t, n, x, y, z); break;
        case F_SUB: st = tg_sub((tg_dtype)t, n, x, y, z); break;
        case F_MUL: st = tg_mul((tg_dtype)t, n, x, y, z); break;
        case F_SCALE: st = tg_scale((tg_dtype)t, n, alpha, x); break;
        case F_AXPY: st = tg_axpy((tg_dtype)t, n, alpha, x, y); break;
        case F_ACT: st = tg_activate((tg_dtype)t, (tg_act)act, n, x, y); break;
        default:
            st = tg_bias_act((tg_dtype)t, (tg_layout)layout, rows, cols, x, (tg_bias_mode)mode, (tg_act)act, z, ldc);
            break;
        }
        if (!valid || t == TG_F16 || t == TG_BF16) {
            if (st != (valid ? TG_ERR_UNSUPPORTED : TG_ERR_ARG)) fail("wrong status for a call it must refuse");
            if (memcmp(arena, before, arena_n * es)) fail("a refused call changed memory");
            break;
        }
        if (st != TG_OK) fail("a valid call did not return TG_OK");
        if (pass == 1) {
            if (memcmp(arena, first, arena_n * es)) fail("1 and 2 threads gave different bits");
            break;
        }
        /* every element against the reference, on the values before the call */
        {
            tg_dtype ty = (tg_dtype)t;
            size_t out = fn == F_BIAS ? zo : fn == F_AXPY || fn == F_ACT ? yo : fn == F_SCALE ? xo : zo;
            size_t written = fn == F_BIAS ? n_out : n_in;
            float af = (float)alpha;
            for (i = 0; i < arena_n; i++) {
                int in_out = i >= out && i < out + written;
                double got = get(ty, arena, (int64_t)i), want;
                int64_t e = (int64_t)(i - out);
                if (fn == F_BIAS && in_out && (e % ldc) >= len) in_out = 0; /* C's padding */
                if (!in_out) {
                    if (memcmp(arena + i * es, before + i * es, es)) fail("a byte outside the output changed");
                    continue;
                }
                if (fn == F_BIAS) {
                    int64_t line = e / ldc, pos = e % ldc, r = row ? line : pos, cc = row ? pos : line;
                    double b = get(ty, before, (int64_t)xo + (mode == TG_BIAS_PER_ROW ? r : cc));
                    double cv = get(ty, before, (int64_t)i);
                    double sum = ty == TG_F32 ? (double)((float)cv + (float)b) : cv + b;
                    if (act <= TG_ACT_RELU) {
                        want = act == TG_ACT_RELU && 0 > sum ? 0 : sum;
                        if (!same(got, want)) fail("bias_act: an element differs from the exact result");
                    } else if (!(ulps(ty, got, act_ref((tg_act)act, sum)) <= 16)) {
                        fail("bias_act: an element beyond 16 ulps");
                    }
                    continue;
                }
                {
                    double xv = get(ty, before, (int64_t)(xo + (size_t)e)), yv = get(ty, before, (int64_t)(yo + (size_t)e));
                    if (fn == F_ACT && act > TG_ACT_RELU) {
                        if (!(ulps(ty, got, act_ref((tg_act)act, xv)) <= 16)) fail("activate: an element beyond 16 ulps");
                        continue;
                    }
                    if (ty == TG_F32) {
                        float fx = (float)xv, fy = (float)yv;
                        want = fn == F_ADD ? fx + fy : fn == F_SUB ? fx - fy : fn == F_MUL ? fx * fy
                             : fn == F_SCALE ? af * fx : fn == F_AXPY ? fmaf(af, fx, fy)
                             : act == TG_ACT_RELU && 0 > fx ? 0 : fx;
                    } else {
                        want = fn == F_ADD ? xv + yv : fn == F_SUB ? xv - yv : fn == F_MUL ? xv * yv
                             : fn == F_SCALE ? alpha * xv : fn == F_AXPY ? fma(alpha, xv, yv)
                             : act == TG_ACT_RELU && 0 > xv ? 0 : xv;
                    }
                    if (!same(got, want)) fail("an element differs from the exact result");
                }
            }
        }
        memcpy(first, arena, arena_n * es);
        memcpy(arena, before, arena_n * es);
        tg_set_num_threads(misc & 0x40 ? 1 : 2);
    }
    free(arena), free(before), free(first);
    return 0;
}
