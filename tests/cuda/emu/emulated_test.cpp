/* The SGEMM ladder's own kernel source, run on the CPU under tests/cuda/emu/ (no GPU needed).
 *
 * Every step and the launcher on small odd sizes (1, 7, 33, 100, 129, ...), all transposes, both
 * layouts, padded leading dimensions, pointers 1 float past a 16-byte boundary, beta 0 (C full of
 * NaN) / 1 / other, alpha 0 with A and B NULL: the ratio test (< 16) against the fp64 reference,
 * and C's padding bitwise untouched. This checks the indexing, edges and both load paths on any
 * machine; the real run is build/cuda/test_cuda on a GPU, which this does not replace (no memory
 * model, no timing, no large sizes). Ends with "N passed, N failed".
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "reference.h"
#include "tgemm_cuda.h"

static int passed, failed;
static uint64_t rng = 0x243F6A8885A308D3ULL;

static float urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (float)((double)((rng * 0x2545F4914F6CDD1DULL) >> 11) / 4503599627370496.0 - 1.0);
}

/* A stored operand of `vectors` runs of `len`, ld apart, starting `misalign` floats past a 16-byte
 * boundary (malloc gives 16). pad < 0: ld is len rounded up to a multiple of 4 (the 128-bit paths,
 * with matrix edges that end inside a vector). */
static float *make(int64_t vectors, int64_t len, int pad, int misalign, bool nan_fill, int64_t *ld,
                   int64_t *elems)
{
    *ld = pad < 0 ? (len + 3) / 4 * 4 + 4 : (len > 1 ? len : 1) + pad;
    *elems = vectors * *ld + misalign + 1;
    float *p = (float *)malloc(*elems * sizeof(float));
    if (!p) abort();
    for (int64_t i = 0; i < *elems; ++i) p[i] = nan_fill ? NAN : urand();
    return p;
}

static void one(int which, int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, int pad,
                int misalign, float alpha, float beta, bool null_ab)
{
    bool row = layout == TG_ROW_MAJOR, tA = ta == TG_TRANS, tB = tb == TG_TRANS;
    int64_t lda, ldb, ldc, ea, eb, ec;
    float *a = make(row != tA ? m : k, row != tA ? k : m, pad, misalign, false, &lda, &ea);
    float *b = make(row != tB ? k : n, row != tB ? n : k, pad, misalign, false, &ldb, &eb);
    float *c = make(row ? m : n, row ? n : m, pad, misalign, beta == 0.f, &ldc, &ec);
    float *c0 = (float *)malloc(ec * sizeof(float));
    double *out = (double *)malloc((m * n + 1) * sizeof(double)), *bound = (double *)malloc((m * n + 1) * sizeof(double));
    if (!c0 || !out || !bound) abort();
    memcpy(c0, c, ec * sizeof(float));
    const float *pa = null_ab ? nullptr : a + misalign, *pb = null_ab ? nullptr : b + misalign;
    int st = which ? tg_cuda_sgemm_step((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, pa,
                                        lda, pb, ldb, beta, c + misalign, ldc, 0, which)
                   : tg_cuda_sgemm((tg_layout)layout, (tg_trans)ta, (tg_trans)tb, m, n, k, alpha, pa, lda,
                                   pb, ldb, beta, c + misalign, ldc, 0);
    char d[300] = "";
    bool ok = st == TG_OK;
    if (!ok) snprintf(d, sizeof d, "status %d: %s", st, tg_last_error());
    for (int64_t x = 0; ok && x < ec; ++x) {
        int64_t lin = x - misalign;
        bool inside = lin >= 0 && lin / ldc < (row ? m : n) && lin % ldc < (row ? n : m);
        if (!inside && memcmp(&c[x], &c0[x], sizeof(float))) {
            snprintf(d, sizeof d, "padding element %lld written", (long long)x);
            ok = false;
        }
    }
    if (ok && m > 0 && n > 0) {
        tg_ref_gemm(4, layout, ta, tb, m, n, k, alpha, pa ? a + misalign : nullptr, lda,
                    pb ? b + misalign : nullptr, ldb, beta, beta == 0.f ? nullptr : c0 + misalign, ldc,
                    out, bound);
        int64_t wi, wj;
        double r = tg_ref_ratio(4, layout, m, n, c + misalign, ldc, out, bound, &wi, &wj);
        if (!(r < 16)) {
            snprintf(d, sizeof d, "ratio %g at (%lld, %lld): got %g want %g", r, (long long)wi,
                     (long long)wj, tg_ref_at(4, c + misalign, layout, TG_NO_TRANS, ldc, wi, wj),
                     out[wi * n + wj]);
            ok = false;
        }
    }
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s %s%s%s m=%lld n=%lld k=%lld pad=%d misalign=%d alpha=%g beta=%g: %s\n",
               which ? tg_cuda_sgemm_step_name(which) : "tg_cuda_sgemm", row ? "row" : "col",
               tA ? "T" : "N", tB ? "T" : "N", (long long)m, (long long)n, (long long)k, pad, misalign,
               alpha, beta, d);
    }
    free(a);
    free(b);
    free(c);
    free(c0);
    free(out);
    free(bound);
}

int main(int argc, char **argv)
{
    static const int64_t shapes[][3] = {{1, 1, 1},   {7, 33, 100}, {129, 100, 33},
                                        {33, 129, 7}, {64, 128, 48}, {132, 68, 20},
                                        {130, 67, 21}, {5, 131, 66}};
    int only = argc > 1 ? atoi(argv[1]) : -1; /* one step, for debugging */
    int v = 0;
    for (int which = 0; which <= tg_cuda_sgemm_step_count(); ++which) {
        if (only >= 0 && which != only) continue;
        for (int combo = 0; combo < 8; ++combo)
            for (const auto &s : shapes) {
                /* the last two shapes: odd sizes on the 128-bit paths */
                bool vec = &s - shapes >= 6, aligned = vec || (s[0] % 4 == 0 && s[1] % 4 == 0 && s[2] % 4 == 0);
                int pad = vec ? -1 : aligned ? (v % 2) * 8 : v % 3 == 0 ? 0 : v % 3 == 1 ? 3 : 8;
                int beta_kind = v % 3;
                float alpha = beta_kind == 1 ? 1.f : urand();
                one(which, combo / 4 ? TG_COL_MAJOR : TG_ROW_MAJOR, combo / 2 % 2 ? TG_TRANS : TG_NO_TRANS,
                    combo % 2 ? TG_TRANS : TG_NO_TRANS, s[0], s[1], s[2], pad, aligned ? 0 : v / 3 % 2,
                    alpha, beta_kind == 0 ? 0.f : beta_kind == 1 ? 1.f : urand(), false);
                ++v;
            }
        one(which, TG_COL_MAJOR, TG_NO_TRANS, TG_TRANS, 33, 7, 100, 1, 1, 0.f, 0.f, true);
        one(which, TG_ROW_MAJOR, TG_TRANS, TG_NO_TRANS, 7, 33, 100, 2, 0, 0.f, -0.5f, true);
        one(which, TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 33, 7, 0, 0, 1, 0.7f, 0.3f, false);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
