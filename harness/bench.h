/* tgemm-bench: declarations shared by the harness's C files (never part of libtgemm).
 *
 * The harness is one binary, build/tgemm-bench, that plays two roles:
 *   parent  (sweep.c)  parses the options, plans the cases, runs one worker process per
 *                      (implementation, batch of cases, round), merges what they report and writes
 *                      Google Benchmark's JSON;
 *   worker  (worker.cc) `tgemm-bench worker ...`: loads exactly one implementation, checks every case
 *                      against the fp64 reference, then times it through Google Benchmark.
 * Keeping each library in its own process is the point: OpenBLAS's spinning threads and the OpenMP
 * runtimes of MKL and tgemm never share a process, so one cannot steal another's cores.
 *
 * Contract with the ceilings/report side (harness/ceilings.[ch], harness/report.py), kept exactly:
 *   - `tgemm-bench ceilings ARGS` calls tg_bench_ceilings_main(argc, argv) from harness/ceilings.h;
 *   - `tgemm-bench machine` prints one JSON object {slug, cpu_model, cores, caches, compiler, cflags,
 *     commit, date}; results for a machine live in results/<slug>/;
 *   - the sweep's --out file is Google Benchmark JSON whose context carries "tgemm": {machine...,
 *     "command", "libraries", "failures"} and whose entries (one per case and aggregate: median,
 *     mean, stddev, cv) carry impl, dtype, m, n, k, trans, layout, threads, family, GFLOPS, peak_pct
 *     (only with a ceilings file), correct, max_ratio, check; they are named
 *     gemm/<impl>/<dtype>/<layout>/<trans>/<m>x<n>x<k>/threads:<t>;
 *   - peak_pct reads results/<slug>/ceilings.json: {"threads": [{"threads": t, "peak_gflops":
 *     {"s": {isa: GFLOP/s...}, "d": {...}}}]} and takes the highest ISA for the dtype and thread count.
 */
#ifndef TGEMM_HARNESS_BENCH_H
#define TGEMM_HARNESS_BENCH_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- implementations (vendors.c) ---- */
typedef enum {
    TG__IMPL_TGEMM,
    TG__IMPL_OPENBLAS,
    TG__IMPL_BLIS,
    TG__IMPL_MKL,
    TG__IMPL_LIBXSMM,
    TG__IMPL_STREAM,    /* references for elementwise cases: the ceilings' STREAM kernel of the */
    TG__IMPL_STREAM_NT, /* case's pattern over its arrays, plain or non-temporal stores (ew_bench.h) */
    TG__IMPL_PEAK,      /* reference for GEMM cases: the ceilings' FMA probe of tgemm's instruction
                           set doing the case's 2mnk FLOPs on its threads (vendors.c) */
    TG__IMPL_PLANTED, /* test-only: tgemm with one wrong element; needs TGEMM_BENCH_PLANTED=1
                         (or =crash: the process aborts on that element's case instead) */
    TG__IMPL_COUNT
} tg__impl_id;

/* "tgemm", "openblas", ... */
const char *tg__impl_name(tg__impl_id id);
/* The id for a name, or -1 (also for "planted" unless TGEMM_BENCH_PLANTED is 1 or crash). */
int tg__impl_parse(const char *name);

/* ---- one GEMM problem of a sweep ---- */
typedef struct {
    char dtype;          /* 's' or 'd' */
    int layout;          /* TG_ROW_MAJOR / TG_COL_MAJOR */
    int transa, transb;  /* TG_NO_TRANS / TG_TRANS */
    int64_t m, n, k;
    int threads;
    const char *family;  /* square, tall-skinny, ..., custom (static strings) */
    int op, act;         /* 0 (a GEMM), or an elementwise operation and its activation: then the
                            fields above mean what ew_bench.h says, and the functions below hand
                            the case to ew_cases.c */
} tg__case;

/* "s/row/NN/64x64x64/1": how a case travels on a worker's command line. Returns 0 or -1. */
int tg__case_format(const tg__case *c, char *buf, size_t len);
int tg__case_parse(const char *s, tg__case *c);
/* The Google Benchmark name: gemm/<impl>/<dtype>/<layout>/<trans>/<m>x<n>x<k>/threads:<t>. */
void tg__case_name(const tg__case *c, const char *impl, char *buf, size_t len);

/* ---- sizes (families.c) ---- */
typedef struct {
    int64_t m, n, k;
    const char *family;
} tg__shape;

/* Expands one --sizes item (a number, lo:hi:step, lo:hi:xF, MxNxK, or a family name) by appending
 * to *shapes (realloc'd). Returns 0, or -1 with a message in err. */
int tg__sizes_expand(const char *item, tg__shape **shapes, int *count, char *err, size_t errlen);
/* Prints the family names and what each holds, for --help. */
void tg__families_help(FILE *out);

/* ---- the machine (machine.c) ---- */
/* Writes the machine JSON object (no trailing newline); fields per the contract above. */
void tg__machine_json(FILE *out);
/* The slug, e.g. "amd-epyc-zen3-2c". */
const char *tg__machine_slug(void);

/* ---- small JSON helpers (json.c) ---- */
void tg__json_str(FILE *out, const char *s);
/* The command that wrote a file: "tgemm-bench" and argv[0..argc), as one JSON string. */
void tg__json_command(FILE *out, int argc, char **argv);
/* The highest peak GFLOP/s among the ISAs for dtype at threads in a ceilings file; 0 if absent. */
double tg__ceilings_peak(const char *path, char dtype, int threads);
/* The number at threads[t].key.sub (threads[t].key when sub is NULL) of a ceilings file, for the
 * entry of that thread count; 0 if absent, not a number or not positive. */
double tg__ceilings_value(const char *path, int threads, const char *key, const char *sub);

/* Google Benchmark's context object as its JSON reporter writes it (worker.cc). */
void tg__gbench_context_json(FILE *out, const char *argv0);

/* ---- parent and worker entry points ---- */
int tg__sweep_main(int argc, char **argv);
int tg__worker_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_BENCH_H */
