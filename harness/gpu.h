/* tgemm-bench's GPU side, as the rest of the harness sees it (plain C: no CUDA header here).
 *
 * `--device cuda` commands are served by build/tgemm-bench-cuda, a second build of the same harness
 * linked by nvcc with the CUDA ladder, cuBLAS and a GPU worker (harness/cuda/, built by
 * harness/gpu.mk), so that build/tgemm-bench itself never needs CUDA or a GPU. In build/tgemm-bench
 * these functions come from harness/gpu_handover.c: tg__gpu_main hands the whole command over to
 * tgemm-bench-cuda beside it (exec, same arguments), and the GPU implementations are unknown. In
 * tgemm-bench-cuda they come from the files in harness/cuda/.
 *
 * GPU implementations share the id space of bench.h's tg__impl_id: GPU implementation g (0-based)
 * is id TG__IMPL_COUNT + g, so options.c and sweep.c keep one list of ints for both devices.
 */
#ifndef TGEMM_HARNESS_GPU_H
#define TGEMM_HARNESS_GPU_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TG__DEVICE_CPU = 0, TG__DEVICE_CUDA = 1 };
#define TG__GPU_IMPL_MAX 24 /* GPU implementations a build may have (it has 15) */
#define TG__ANY_IMPL_MAX (TG__IMPL_COUNT + TG__GPU_IMPL_MAX)

/* (options.c) The device a command line asks for with --device X or --device=X: TG__DEVICE_CUDA
 * for "cuda", else TG__DEVICE_CPU (a bad value is options.c's to reject). */
int tg__device_arg(int argc, char **argv);

/* Runs a `--device cuda` command: the sweep, `machine --device cuda` or `ceilings --device cuda`.
 * In build/tgemm-bench it execs tgemm-bench-cuda beside it, or says in one line that it is missing
 * (exit status 2). */
int tg__gpu_main(int argc, char **argv);

/* How many GPU implementations this build has (0 in build/tgemm-bench). */
int tg__gpu_impl_count(void);
/* "cuda-01-naive", ..., "tgemm-cuda", "cublas", "cublas-tf32"; g is 0-based. */
const char *tg__gpu_impl_name(int g);
/* g for a name, or -1. */
int tg__gpu_impl_parse(const char *name);

/* How implementation g is timed. On the device: operands already there, CUDA events around the
 * calls (the ladder steps, tgemm-cuda, cuBLAS). With transfers: the launcher (tg_cuda_sgemm,
 * tg_cuda_add, ...) with its inputs copied from pinned or pageable host memory and its output back
 * on every call, synchronised, by the host's clock (tgemm-cuda+pinned, tgemm-cuda+pageable). On the
 * host: the CPU library (tg_sgemm, tg_add, ...) on all the host's cores (tgemm-host). The last three
 * are the crossover mode's (--crossover) and run only there. */
enum { TG__GPU_ON_DEVICE, TG__GPU_PINNED, TG__GPU_PAGEABLE, TG__GPU_ON_HOST };
int tg__gpu_impl_mode(int g);

/* NULL when a CUDA device can run the sweep, else why not (one line, e.g. "no CUDA device ..."). */
const char *tg__gpu_unavailable(void);
/* The device as one JSON object {slug, name, sms, ...}; see harness/cuda/device.cu. */
void tg__gpu_device_json(FILE *out);
/* The GPU's slug for results/<slug>/, e.g. "nvidia-h100-80gb-hbm3". */
const char *tg__gpu_slug(void);

/* Any implementation's name, CPU (bench.h) or GPU. */
static inline const char *tg__any_impl_name(int id)
{
    return id < TG__IMPL_COUNT ? tg__impl_name((tg__impl_id)id)
                               : tg__gpu_impl_name(id - TG__IMPL_COUNT);
}

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_GPU_H */
