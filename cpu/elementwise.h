/* Private pieces of the CPU elementwise kernels (elementwise*.c): what one pass over a run of
 * contiguous elements does, and the per-family functions that do it.
 *
 * Every public call (tg_add ... tg_bias_act) becomes one operation (tg__ew) applied to runs of
 * contiguous elements: one run for the 1-D calls, one row or column of C for tg_bias_act. The
 * vector families (AVX2, AVX-512: elementwise_simd.inc) compute the operation and its activation
 * in one loop (the transcendental activations as vector functions, elementwise_act_simd.inc, to
 * the accuracy contract of the scalar functions below); the portable family in two passes over
 * blocks small enough to stay in L1: the operation, then the activation in place (the
 * transcendental ones through the scalar functions below).
 */
#ifndef TGEMM_CPU_ELEMENTWISE_H
#define TGEMM_CPU_ELEMENTWISE_H

#include <stddef.h>

#include "../common/internal.h"
#include "elementwise_act_coeffs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* z[i] = ... for i < n; x, y, z are the run's pointers, s the operation's scalar. */
typedef enum {
    TG__EW_COPY,  /* x                  (tg_activate) */
    TG__EW_ADD,   /* x + y */
    TG__EW_SUB,   /* x - y */
    TG__EW_MUL,   /* x * y */
    TG__EW_ADDS,  /* x + s              (a bias shared by the whole run) */
    TG__EW_SCALE, /* s * x */
    TG__EW_AXPY   /* s * x + y, rounded once */
} tg__ew_op;

typedef struct {
    tg__ew_op op;
    tg_act act;    /* applied to the operation's result; a transcendental one only after COPY, ADD
                      or ADDS, the operations the public calls pair it with (and the only ones
                      the vector loops fuse it into) */
    int stream;    /* non-temporal stores allowed (output far larger than the caches, no input) */
    int ahead_l2;  /* the activations' prefetch far ahead goes to L2 only, a near one to L1
                      (elementwise_simd_run.inc): streamed runs on Intel's cores */
    float sf;      /* s in the array's type: alpha, or the run's bias */
    double sd;
} tg__ew;

/* GELU, sigmoid or SiLU (tg_act puts NONE and RELU first): the compute-bound activations, which the
 * vector families fuse into COPY, ADD and ADDS and which go parallel from fewer elements. */
static inline int tg__ew_transcendental(tg_act act) { return act > TG_ACT_RELU; }

/* One run of n elements of float (_s) or double (_d); x, y and z may be the same array. */
typedef void (*tg__ew_run_fn)(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_generic_s(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_generic_d(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_avx2_s(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_avx2_d(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_avx512_s(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);
TG__PRIVATE void tg__ew_run_avx512_d(const tg__ew *e, int64_t n, const void *x, const void *y, void *z);

/* z[i] = act(z[i]) for the transcendental activations (not NONE or RELU), computed in double to a
 * few ulps (elementwise_act.c); float arrays round the double result once. */
TG__PRIVATE void tg__ew_act_s(tg_act act, int64_t n, float *z);
TG__PRIVATE void tg__ew_act_d(tg_act act, int64_t n, double *z);

/* Bytes per element of a tg_dtype (2 for fp16 and bf16). */
TG__PRIVATE size_t tg__ew_size(tg_dtype t);

/* The argument checks of each entry point, in the order of its parameters (1-based positions in
 * the message; the CUDA entry points take the same parameters plus a trailing stream, so they share
 * them): TG_OK or TG_ERR_ARG. fp16 and bf16 pass here; the CPU refuses them afterwards. */
TG__PRIVATE int tg__ew_check_binary(const char *fn, tg_dtype t, int64_t n, const void *x,
                                    const void *y, const void *z);
TG__PRIVATE int tg__ew_check_scale(const char *fn, tg_dtype t, int64_t n, const void *x);
TG__PRIVATE int tg__ew_check_axpy(const char *fn, tg_dtype t, int64_t n, const void *x, const void *y);
TG__PRIVATE int tg__ew_check_activate(const char *fn, tg_dtype t, tg_act act, int64_t n,
                                      const void *x, const void *y);
TG__PRIVATE int tg__ew_check_bias_act(const char *fn, tg_dtype t, tg_layout layout, int64_t rows,
                                      int64_t cols, const void *bias, tg_bias_mode mode, tg_act act,
                                      const void *c, int64_t ldc);

/* Elements per block of the portable two-pass scheme: 3 arrays x 512 doubles = 12 KiB stays in L1. */
#define TG__EW_BLOCK 512

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_CPU_ELEMENTWISE_H */
