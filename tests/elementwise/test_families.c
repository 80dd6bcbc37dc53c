/* The AVX2 and AVX-512 elementwise families give the same bits wherever they do the same
 * operations: both are one template (cpu/elementwise_simd.inc), on 8 or 16 lanes, which differs only
 * in double exp (a table in AVX-512, elementwise_act_simd.inc). This test keeps that true: it calls
 * both families' runs directly (the library's private entry points, cpu/elementwise.h) on the same
 * inputs, every operation that takes an activation with every activation, at several lengths and
 * offsets, and compares every result's bits: in float all of them, in double those without a
 * transcendental activation (the double ones are held to their error bound by test_elementwise.c
 * in each family). Inputs are uniform in [-10, 10] with the specials of test_elementwise.c mixed in.
 * Where the CPU lacks AVX-512F it reports itself skipped.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elementwise.h"

static int passed, failed;
static uint64_t rng = 0x2545F4914F6CDD1Du;

static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1p-53;
}

#if defined(__x86_64__) || defined(__i386__)
int main(void)
{
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e30, -1e30, 1e-310};
    static const tg__ew_op ops[] = {TG__EW_COPY, TG__EW_ADD, TG__EW_ADDS};
    static const char *op_names[] = {"copy", "add", "adds"};
    static const int64_t lens[] = {1, 7, 15, 16, 17, 100, 1001};
    enum { MAXN = 1001 + 8 };
    static double xd[MAXN], yd[MAXN], zd[2][MAXN];
    static float xs[MAXN], ys[MAXN], zs[2][MAXN];
    int64_t i;
    int o, a, l, ti, k;
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx2")) {
        printf("the CPU lacks AVX-512F: nothing to compare the AVX2 family with\n0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    for (i = 0; i < MAXN; i++) {
        xd[i] = i % 11 == 5 ? specials[(i / 11) % 8] : uniform(-10, 10);
        yd[i] = uniform(-1, 1);
        xs[i] = (float)xd[i], ys[i] = (float)yd[i];
    }
    for (ti = 0; ti < 2; ti++)
        for (k = 0; k < 3; k++)
            for (a = TG_ACT_NONE; a <= (ti ? TG_ACT_RELU : TG_ACT_SILU); a++) {
                int bad = 0;
                char what[96];
                tg__ew e;
                memset(&e, 0, sizeof e);
                e.op = ops[k], e.act = (tg_act)a, e.sf = 0.375f, e.sd = 0.375;
                for (l = 0; l < (int)(sizeof lens / sizeof lens[0]); l++)
                    for (o = 0; o < 4; o++) {
                        int64_t n = lens[l];
                        if (ti == 0) {
                            const float *y = e.op == TG__EW_ADD ? ys + o : NULL;
                            tg__ew_run_avx2_s(&e, n, xs + o, y, zs[0] + o);
                            tg__ew_run_avx512_s(&e, n, xs + o, y, zs[1] + o);
                            bad += memcmp(zs[0] + o, zs[1] + o, (size_t)n * sizeof(float)) != 0;
                        } else {
                            const double *y = e.op == TG__EW_ADD ? yd + o : NULL;
                            tg__ew_run_avx2_d(&e, n, xd + o, y, zd[0] + o);
                            tg__ew_run_avx512_d(&e, n, xd + o, y, zd[1] + o);
                            bad += memcmp(zd[0] + o, zd[1] + o, (size_t)n * sizeof(double)) != 0;
                        }
                    }
                snprintf(what, sizeof what, "%s %s act %d: AVX2 and AVX-512 give the same bits",
                         ti ? "f64" : "f32", op_names[k], a);
                if (bad) printf("FAIL %s (%d of the runs differ)\n", what, bad), failed++;
                else passed++;
            }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
#else
int main(void)
{
    printf("not an x86 CPU: no AVX2 or AVX-512 family\n0 passed, 0 failed, 1 skipped\n");
    return 0;
}
#endif
