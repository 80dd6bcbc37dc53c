/* tgemm-bench's elementwise cases (`--op`): the operations of common/api.h's elementwise API as
 * sweep cases, their text forms, their operands, the correctness check run before timing, and the
 * bytes each one moves, counted as STREAM counts them.
 *
 * An elementwise case is a tg__case (bench.h) whose op is not TG__OP_GEMM: m is the element count
 * (n = k = 1), except for bias_act, whose C is an m x n row-major matrix with one bias value per
 * column (a linear layer's bias over tokens x features). The same workers, rounds and medians as
 * the GEMM cases time them; what differs is here:
 *   ew_cases.c   operation names, case text, element counts of --sizes, bytes, the matching ceiling
 *   ew_check.c   operands, one call of an implementation, the check against long double references
 * Beside the libraries, two references run every case: stream and stream_nt (bench.h), the
 * ceilings' STREAM kernel of the case's pattern (tg__ew_pattern) over the case's own arrays, with
 * plain or non-temporal stores, so that a sweep times the ceiling as it times the operations.
 */
#ifndef TGEMM_HARNESS_EW_BENCH_H
#define TGEMM_HARNESS_EW_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tg__case.op; the GEMM is 0 so that every GEMM path ignores the field. */
typedef enum {
    TG__OP_GEMM = 0,
    TG__OP_ADD,      /* z = x + y          2 reads + 1 write */
    TG__OP_SUB,      /* z = x - y          2 reads + 1 write */
    TG__OP_MUL,      /* z = x * y          2 reads + 1 write */
    TG__OP_SCALE,    /* x = alpha x        1 read + 1 write, in place */
    TG__OP_AXPY,     /* y = alpha x + y    2 reads + 1 write, in place */
    TG__OP_ACTIVATE, /* y = act(x)         1 read + 1 write */
    TG__OP_BIAS_ACT, /* c = act(c + bias)  1 read + 1 write, in place, plus the bias */
    TG__OP_COUNT
} tg__op;

/* bias_act's matrices are this many columns wide (fewer when the count is smaller). */
#define TG__EW_BIAS_COLS 1024

/* Parses one --op item ("add", "activate:gelu_tanh", ...) into op and act (a tg_act). 0, or -1
 * with a message in err. */
int tg__ew_op_parse(const char *item, int *op, int *act, char *err, size_t errlen);
/* "add", "activate:gelu_tanh", ... into buf. */
void tg__ew_op_str(int op, int act, char *buf, size_t len);
/* Prints the operations and activations, for --help. */
void tg__ew_ops_help(FILE *out);

/* Expands one --sizes item of an elementwise sweep (a count N -- digits, AeB or 2^K --, lo:hi:step
 * or lo:hi:xF of counts) by appending (N, 1, 1, "elementwise") to *shapes. 0, or -1 with err. */
int tg__ew_sizes_expand(const char *item, tg__shape **shapes, int *count, char *err,
                        size_t errlen);
/* The case of op on `count` elements: m, n, k (bias_act: rows x TG__EW_BIAS_COLS) and family. */
void tg__ew_case_shape(tg__case *c, int64_t count);

/* Case text, as bench.h's tg__case_format/_parse/_name do for GEMMs (they call these):
 * "<op>/<dtype>/<size>/<threads>", size "N" or "RxC" (bias_act); the benchmark name is
 * "elementwise/<impl>/<op>/<dtype>/<size>/threads:<t>". */
int tg__ew_case_format(const tg__case *c, char *buf, size_t len);
int tg__ew_case_parse(const char *s, tg__case *c); /* -1 when s is no elementwise case */
void tg__ew_case_name(const tg__case *c, const char *impl, char *buf, size_t len);

/* Elements of the case, and the bytes one call moves as STREAM counts them: each array read or
 * written once (add: 2 reads + 1 write; scale: 1 + 1; axpy: 2 + 1; activate: 1 + 1; bias_act:
 * 1 + 1 plus the bias once), never the extra line reads a cache's write-allocate may cost. */
int64_t tg__ew_elements(const tg__case *c);
double tg__ew_bytes(const tg__case *c);
/* The ceilings' STREAM probe with the case's pattern of reads and writes (see ceilings.c):
 * "add" (2 reads + 1 write to a third array), "copy" (1 read + 1 write to another array),
 * "axpy_inplace" (2 reads + 1 write over one of them), "scale_inplace" (1 read + 1 write over it).
 * On the GPU (device TG__DEVICE_CUDA) every case has "device_copy": a GPU's stores allocate no line
 * that must be read first, so its one bandwidth ceiling is the device-to-device copy. */
const char *tg__ew_pattern(const tg__case *c, int device);
/* That probe's DRAM bandwidth in a ceilings file for the case's thread count, GB/s (the better of
 * its plain and non-temporal-store variants where both exist; on the GPU the better of the copy
 * kernel and cudaMemcpyAsync device-to-device, "copy_gbs" and "memcpy_gbs"); 0 when the file lacks
 * it. */
double tg__ew_ceiling(const char *path, const tg__case *c, int device);

/* The case's own members of a sweep entry (each line `      "key": value,`): op, elements,
 * rows, cols, bytes, pattern (the line's: tg__ew_pattern's for the device it ran on, or NULL,
 * written null, for a line no bandwidth pattern bounds), and ceiling_gbps when ceiling > 0. */
void tg__ew_json_fields(FILE *out, const tg__case *c, const char *pattern, double ceiling);

/* ---- operands and checks (ew_check.c) ---- */
typedef struct tg__ew_problem {
    tg__case c;
    int impl;             /* tg__impl_id */
    size_t es;            /* 4 or 8; 2 for fp16 and bf16 (dtype h, b: on the GPU only) */
    int64_t n;            /* elements */
    uint64_t seed;        /* inputs are a hash of (seed, array, index): regenerated when checking */
    void *x, *y, *bias;   /* inputs, 64-byte aligned */
    void *nbias;          /* bias_act: the bias negated, for the timed calls with alpha < 0 */
    void *zbuf, *z;       /* the output (or the array updated in place) between guard elements */
    long calls;           /* timed calls so far: scale and axpy alternate their alpha */
    int planted;          /* the call's last element is spoiled after every call (--plant) */
    void *vendor_fn;      /* the vendor's cblas_?axpy or cblas_?scal */
    int stream;           /* a STREAM reference's kernel (tg__stream, ceilings.h), found once */
    /* Another device's call, or NULL for impl's own: tgemm-bench-cuda's worker runs the case on the
     * GPU through it (operands copied over, guards included, the output copied back), so that the
     * check below is the CPU's, unchanged. 0 or a tgemm status. */
    int (*run)(struct tg__ew_problem *p, double alpha);
} tg__ew_problem;

/* Why impl cannot run the case (no CPU implementation has fp16 or bf16; vendors: only axpy and
 * scale, through CBLAS, with int lengths; stream_nt: only the out-of-place patterns, copy and add),
 * or NULL. */
const char *tg__ew_unsupported(int impl, const tg__case *c);
/* Allocates and fills the operands; plant names the case whose last element every call spoils
 * ("MxNxK", or NULL): the sweep names the planted implementation's largest case, and a test may ask
 * any implementation's worker (--plant) to see its check fail. 0, or -1 when memory is short. */
int tg__ew_problem_init(tg__ew_problem *p, const tg__case *c, int impl, uint64_t seed,
                        const char *plant);
void tg__ew_problem_free(tg__ew_problem *p);
/* One timed call (alpha alternating between 2 and 1/2 for scale, +-alpha for axpy, and the bias's
 * sign for bias_act, so repeated calls in place keep the values in range; the STREAM references
 * take their kernel's fixed s);
 * 0 or the implementation's status. */
int tg__ew_problem_run(tg__ew_problem *p);
/* That alpha for the `visit`-th timed call on the same array (bias_act: +-1, the sign of its bias;
 * 0 for the operations without one). */
double tg__ew_timed_alpha(int op, long visit);
/* Whether the output is also an input (scale: x, axpy: y, bias_act: c): an offload copies it both
 * ways. */
int tg__ew_in_place(int op);

typedef struct {
    int ok;
    double max_ulps;      /* worst error seen, in ulps of the output type */
    const char *method;   /* "all" or "sampled" */
    char msg[256];
} tg__ew_check_result;

/* Refills the operands, poisons the output, makes one call and checks it: add, sub, mul, scale,
 * ReLU and the plain bias are exact; axpy exact to a fused or an unfused multiply-add; sigmoid,
 * SiLU, GELU within 16 ulps (of max(|reference|, 2^-24) in fp32, 2^-53 in fp64) of a long double
 * reference; a STREAM reference exactly what its kernel's loop computes (copy, add, s*a, s*b + a,
 * the last to a fused or an unfused multiply-add); guard elements untouched. Every element when there are at most 2^22, else a sample:
 * both ends, around every 32nd of the array (where threads split it) and random ones drawn from
 * seed. */
void tg__ew_check(tg__ew_problem *p, uint64_t seed, tg__ew_check_result *r);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_EW_BENCH_H */
