/* C = beta * C: what a GEMM call does when alpha or k is zero (the BLAS quick return), without
 * reading A or B, and without reading C when beta is zero (it may hold NaN: the result is zeros).
 * A grid-stride loop over the columns, a thread per row, so any m x n and ldc work with one launch.
 */
#include "common.cuh"

static __global__ void __launch_bounds__(256) tg__sgemm_scale_kernel(tg__sgemm_problem g)
{
    for (int64_t j = blockIdx.y; j < g.n; j += gridDim.y)
        for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.m;
             i += (int64_t)gridDim.x * blockDim.x) {
            float *c = g.c + i + j * g.ldc;
            *c = g.beta == 0.f ? 0.f : g.beta * *c;
        }
}

TG__PRIVATE int tg__sgemm_scale_c(tg__sgemm_problem g, cudaStream_t stream)
{
    int64_t bx = (g.m + 255) / 256;
    dim3 grid((unsigned)(bx < 65535 ? bx : 65535), (unsigned)(g.n < 65535 ? g.n : 65535), 1);
    tg__sgemm_scale_kernel<<<grid, 256, 0, stream>>>(g);
    return TG_OK;
}
