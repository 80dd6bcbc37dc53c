/* The roofline ceilings of this machine: `tgemm-bench ceilings` (harness/ceilings.c, the probes in
 * harness/ceilings_probes.c).
 *
 * For each thread count it measures the sustained clock, the peak FLOP/s per instruction set (scalar
 * FMA, AVX2 FMA, AVX-512 FMA where present) for fp32 and fp64, and bandwidth per memory level from a
 * working-set sweep, and writes results/<slug>/ceilings.json, which the sweep (peak_pct) and
 * harness/report.py read. The probes are kept apart from the library: they say what the machine can
 * do, not what tgemm does.
 */
#ifndef TGEMM_HARNESS_CEILINGS_H
#define TGEMM_HARNESS_CEILINGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `tgemm-bench ceilings [options]`; argv[0] is "ceilings". Returns 0, 1 (a probe or the output
 * failed) or 2 (bad options). */
int tg_bench_ceilings_main(int argc, char **argv);

/* ---- probes (ceilings_probes.c): each runs on the calling thread only ---- */
typedef enum { TG__ISA_SCALAR, TG__ISA_AVX2, TG__ISA_AVX512, TG__ISA_COUNT } tg__isa;

/* "scalar", "avx2", "avx512". */
const char *tg__isa_name(tg__isa isa);
/* Whether this CPU runs the FMA probes of that instruction set. */
int tg__isa_present(tg__isa isa);
/* Runs `iters` rounds of the FMA chains for dtype 's' or 'd' and returns the FLOPs done. */
double tg__probe_fma(tg__isa isa, char dtype, long iters);
/* Runs `iters` rounds of a dependent chain of integer adds and returns the cycles it must take
 * (one per add: an add's latency is one cycle on every x86 core). */
double tg__probe_add_chain(long iters);
/* Reads `bytes` of buf (64-byte aligned, a multiple of 512 bytes) `passes` times. The result only
 * keeps the compiler from dropping the loads. */
double tg__probe_read(const double *buf, size_t bytes, long passes);
/* a = b + s*c over three 64-byte aligned arrays of n doubles (n a multiple of 8), `passes` times
 * (bytes moved per pass: 24 n, not counting the line reads that writes to a may cause). */
void tg__probe_triad(double *a, const double *b, const double *c, size_t n, long passes);

/* The STREAM kernels of the elementwise patterns, over 64-byte aligned arrays of n doubles (any n;
 * the elements after the last whole vector take plain scalar stores), `passes` times: copy a = b,
 * add a = b + c (2 reads + 1 write), and in place a = s*a (scale_inplace) and a = s*b + a
 * (axpy_inplace), s = TG__STREAM_S_F64. nt: non-temporal stores (copy and add only; ignored for the
 * in-place ones, whose lines are read anyway). An array the pattern does not read may be NULL. */
typedef enum {
    TG__STREAM_COPY,
    TG__STREAM_ADD,
    TG__STREAM_SCALE_INPLACE,
    TG__STREAM_AXPY_INPLACE,
    TG__STREAM_COUNT
} tg__stream;
/* The in-place kernels' s: not 1, so that no compiler can drop the multiply (a = 1*a is a = a, a
 * store it may remove), and so close to 1 that millions of passes keep the values in range. */
#define TG__STREAM_S_F64 (1.0 + 1e-9)
#define TG__STREAM_S_F32 (1.0f + 0x1p-23f)
/* "copy", "add", "scale_inplace", "axpy_inplace": the keys of "stream_gbs" in ceilings.json. */
const char *tg__stream_name(tg__stream kind);
void tg__probe_stream(tg__stream kind, int nt, double *a, const double *b, const double *c,
                      size_t n, long passes);
/* The same kernels over arrays of n floats, in fp32 (s = TG__STREAM_S_F32). */
void tg__probe_stream_f32(tg__stream kind, int nt, float *a, const float *b, const float *c,
                          size_t n, long passes);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_HARNESS_CEILINGS_H */
