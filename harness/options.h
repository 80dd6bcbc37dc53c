/* The sweep's command line: everything is parsed and checked before any work starts, so bad input
 * costs one clear message and exit status 2, never a half-finished sweep.
 */
#ifndef TGEMM_HARNESS_OPTIONS_H
#define TGEMM_HARNESS_OPTIONS_H

#include <stdio.h>

#include "bench.h"
#include "gpu.h"

typedef struct {
    int device;                       /* TG__DEVICE_CPU or TG__DEVICE_CUDA (gpu.h) */
    int impls[TG__ANY_IMPL_MAX], nimpls; /* ids: bench.h's, or gpu.h's for --device cuda */
    char dtypes[4];                   /* s, d; h, b (fp16, bf16) for --device cuda --op */
    int ndtypes;
    tg__shape *shapes;
    int nshapes;
    int trans[4][2], ntrans;          /* (transa, transb) pairs */
    int layouts[2], nlayouts;
    int *threads, nthreads;
    int rounds, reps, batch;
    double min_time, warmup, alpha, beta;
    const char *out;                  /* NULL: JSON to standard output */
    const char *ceilings;             /* NULL: results/<slug>/ceilings.json when it exists */
    int list;                         /* print the planned cases and stop */
    int crossover;                    /* --crossover (--device cuda): the GPU kernel alone, with
                                         pinned and pageable transfers, and the host CPU (gpu.h) */
    int ops[32][2], nops;             /* --op: elementwise (op, act) pairs (ew_bench.h); then
                                         shapes hold element counts (m); none: a GEMM sweep */
} tg__options;

/* 0: parsed; 1: --help printed (exit 0); -1: bad input, message (one line) in err (exit 2). */
int tg__options_parse(int argc, char **argv, tg__options *o, char *err, size_t errlen);
void tg__options_free(tg__options *o);
void tg__options_help(FILE *out);

#endif /* TGEMM_HARNESS_OPTIONS_H */
