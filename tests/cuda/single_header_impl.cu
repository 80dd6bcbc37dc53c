/* The single header used as its documentation says, part 1: the file that defines
 * TGEMM_CUDA_IMPLEMENTATION (and so also gets tgemm.h's implementation). Part 2,
 * single_header_use.cu, only includes the header. Built by `make test-cuda-build` from the committed
 * tgemm_cuda.cuh and tgemm.h; runs the GPU check only where there is a GPU.
 * Ends with "N passed, N failed[, N skipped]".
 */
#define TGEMM_CUDA_IMPLEMENTATION
#include "tgemm_cuda.cuh"

#include <math.h>
#include <stdio.h>

int tg_test_other_file(void); /* single_header_use.cu: 1 when its checks pass */

static int passed, failed, skipped;

static void check(int ok, const char *what)
{
    if (ok) passed++;
    else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

/* A 33 x 7 x 100 product on the GPU against the CPU tg_sgemm of the same header. */
static int gpu_matches_cpu(void)
{
    enum { M = 33, N = 7, K = 100 };
    static float a[M * K], b[K * N], c[M * N], g[M * N];
    float *da, *db, *dc;
    unsigned x = 12345;
    for (int i = 0; i < M * K; ++i) a[i] = (float)((x = x * 1103515245u + 12345u) >> 8) / 16777216.f - 0.5f;
    for (int i = 0; i < K * N; ++i) b[i] = (float)((x = x * 1103515245u + 12345u) >> 8) / 16777216.f - 0.5f;
    if (tg_sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, M, N, K, 1.f, a, K, b, N, 0.f, c, N)) return 0;
    if (cudaMalloc((void **)&da, sizeof a) || cudaMalloc((void **)&db, sizeof b) ||
        cudaMalloc((void **)&dc, sizeof g))
        return 0;
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    int st = tg_cuda_sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, M, N, K, 1.f, da, K, db, N, 0.f, dc, N, 0);
    if (st || cudaMemcpy(g, dc, sizeof g, cudaMemcpyDeviceToHost)) return 0;
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    for (int i = 0; i < M * N; ++i) /* |a|, |b| < 0.5 and K = 100: each sum is below 25 */
        if (!(fabsf(g[i] - c[i]) < 1e-4f)) return 0;
    return 1;
}

int main(void)
{
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4];
    int devices = 0;
    check(tg_sgemm(TG_ROW_MAJOR, TG_NO_TRANS, TG_NO_TRANS, 2, 2, 3, 1.f, a, 3, b, 2, 0.f, c, 2) == TG_OK &&
              c[0] == 4 && c[1] == 5 && c[2] == 10 && c[3] == 11,
          "the CPU tg_sgemm comes with the CUDA implementation");
    check(tg_cuda_sgemm_step_count() == 9 && tg_cuda_sgemm_step_name(9) != NULL, "the ladder is there");
    check(tg_test_other_file(), "a second file sees the API and the shared error message");
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: the GPU check is skipped\n");
        skipped++;
    } else {
        check(gpu_matches_cpu(), "tg_cuda_sgemm from the single header matches tg_sgemm");
    }
    if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
