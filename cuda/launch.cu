/* The host side of the CUDA SGEMM: tg_cuda_sgemm, tg_cuda_sgemm_step and the ladder's names.
 *
 * One path for every entry point: the shared argument checks (common/gemm_args.h, element size 4,
 * so messages match tg_sgemm's), the BLAS quick returns, then the shared views turned into the
 * column-major problem of cuda/sgemm/problem.h (a row-major call swaps the operands: Cᵀ = BᵀAᵀ),
 * then one kernel launch on the caller's stream. Nothing synchronizes: cudaGetLastError after the
 * launch catches launch failures (bad configuration, no device, a sticky earlier fault), and faults
 * inside the kernel surface at the caller's next synchronization, as with any CUDA library.
 */
#include <stdint.h>
#include <stdio.h>

#include "sgemm/problem.h"

static const struct {
    const char *name;
    tg__sgemm_launcher run;
} tg__ladder[] = {
    {"naive", tg__sgemm_01_naive},
    {"coalesce", tg__sgemm_02_coalesce},
    {"smem_tile", tg__sgemm_03_smem_tile},
    {"blocktile_1d", tg__sgemm_04_blocktile_1d},
    {"blocktile_2d", tg__sgemm_05_blocktile_2d},
    {"vectorize", tg__sgemm_06_vectorize},
    {"bank_conflicts", tg__sgemm_07_bank_conflicts},
    {"warptile", tg__sgemm_08_warptile},
    {"double_buffer", tg__sgemm_09_double_buffer},
};
#define TG__LADDER_STEPS ((int)(sizeof tg__ladder / sizeof tg__ladder[0]))

TGEMM_DEF int tg_cuda_sgemm_step_count(void) { return TG__LADDER_STEPS; }

TGEMM_DEF const char *tg_cuda_sgemm_step_name(int step)
{
    return step >= 1 && step <= TG__LADDER_STEPS ? tg__ladder[step - 1].name : NULL;
}

static int tg__aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* One operand from its view (element (r, q) at p + r*rs + q*cs). A unit stride on both sides only
 * happens when one extent is 1, where either reading is right. */
static tg__sgemm_operand tg__operand(tg__view v, int64_t rows)
{
    tg__sgemm_operand x;
    x.p = (const float *)v.p;
    x.rows = rows;
    x.kcontig = v.rs != 1;
    x.ld = x.kcontig ? v.rs : v.cs;
    x.vec = tg__aligned16(x.p) && x.ld % 4 == 0;
    return x;
}

/* The launcher's choice for the shape (step 0 = automatic): step 8's kernel (128 x 128 tiles) when
 * its tiles give every multiprocessor a block, else step 9's with 64 x 64 tiles (4x as many blocks).
 * H100 (results/nvidia-h100-80gb-hbm3/427e1936a41f/step8): at 2048^3 and 4096^3 step 8 ran 37.8 and
 * 39.9 TFLOP/s, step 9 with 128 x 128 tiles 32.1 and 32.7 (cuBLAS 50.3, 52.0); at 1024^3, 64 tiles
 * for 132 SMs, the 64 x 64 instance 18.1 against step 8's 13.5. Between the two (65 to 255 tiles)
 * nothing was measured: step 8 runs two blocks per SM, so there it leaves SMs with one block or
 * idle, and the 64 x 64 instance may well win up to 2 x SMs tiles. */
static tg__sgemm_launcher tg__pick(const tg__sgemm_problem *g)
{
    int dev = 0, sms = 0;
    int64_t tiles = ((g->m + 127) / 128) * ((g->n + 127) / 128);
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
        sms = 1; /* the launch below reports the error */
    return tiles >= sms ? tg__sgemm_08_warptile : tg__sgemm_09_double_buffer_small;
}

/* step: the ladder step to run, 0 = pick by shape; by_step: the caller named one, checked after the GEMM
 * arguments since it comes after them in the call. */
static int tg__cuda_sgemm(const char *fn, int by_step, int step, tg_layout layout, tg_trans transa,
                          tg_trans transb, int64_t m, int64_t n, int64_t k, float alpha,
                          const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                          float *c, int64_t ldc, cudaStream_t stream)
{
    char what[200];
    int st = tg__gemm_check(fn, layout, transa, transb, m, n, k, alpha == 0.f, a, lda, b, ldb, c,
                            ldc, sizeof(float));
    if (st) return st;
    if (by_step && (step < 1 || step > TG__LADDER_STEPS)) {
        snprintf(what, sizeof what, "must be 1..%d (tg_cuda_sgemm_step_count())", TG__LADDER_STEPS);
        return tg__arg_error(fn, 16, "step", step, what);
    }
    if (m == 0 || n == 0) return TG_OK;
    if ((alpha == 0.f || k == 0) && beta == 1.f) return TG_OK;

    tg__gemm v = tg__gemm_views(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
    int row = v.rs_c != 1; /* C is stored by rows: solve Cᵀ = op(B)ᵀ op(A)ᵀ instead */
    /* op(B) as n x k: element (j, q) is view element (q, j), so its strides swap. */
    tg__view bt = v.b;
    bt.rs = v.b.cs;
    bt.cs = v.b.rs;
    tg__sgemm_problem g;
    g.m = row ? n : m;
    g.n = row ? m : n;
    g.k = k;
    g.a = tg__operand(row ? bt : v.a, g.m);
    g.b = tg__operand(row ? v.a : bt, g.n);
    g.c = (float *)v.c;
    g.ldc = row ? v.rs_c : v.cs_c;
    g.c_vec = tg__aligned16(g.c) && g.ldc % 4 == 0;
    g.alpha = alpha;
    g.beta = beta;
    g.swap_grid = 0;

    tg__sgemm_launcher run = alpha == 0.f || k == 0 ? tg__sgemm_scale_c
                             : step ? tg__ladder[step - 1].run
                                    : tg__pick(&g);
    if (run(g, stream) != TG_OK) {
        snprintf(what, sizeof what, "a %lld x %lld C needs more thread blocks than a grid holds",
                 (long long)m, (long long)n);
        return tg__fail(TG_ERR_UNSUPPORTED, fn, what);
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        snprintf(what, sizeof what, "kernel launch: %s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
        return tg__fail(TG_ERR_DEVICE, fn, what);
    }
    return TG_OK;
}

TGEMM_DEF int tg_cuda_sgemm(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m, int64_t n,
                            int64_t k, float alpha, const float *dA, int64_t lda, const float *dB,
                            int64_t ldb, float beta, float *dC, int64_t ldc, cudaStream_t stream)
{
    return tg__cuda_sgemm("tg_cuda_sgemm", 0, 0, layout, transa, transb, m, n, k, alpha, dA, lda, dB,
                          ldb, beta, dC, ldc, stream);
}

TGEMM_DEF int tg_cuda_sgemm_step(tg_layout layout, tg_trans transa, tg_trans transb, int64_t m,
                                 int64_t n, int64_t k, float alpha, const float *dA, int64_t lda,
                                 const float *dB, int64_t ldb, float beta, float *dC, int64_t ldc,
                                 cudaStream_t stream, int step)
{
    return tg__cuda_sgemm("tg_cuda_sgemm_step", 1, step, layout, transa, transb, m, n, k, alpha, dA,
                          lda, dB, ldb, beta, dC, ldc, stream);
}
