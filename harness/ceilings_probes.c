/* The roofline probes: tiny kernels whose work is known exactly, one per thing a ceiling measures.
 *
 *   FMA peak      12 independent chains of acc = acc*m + a per instruction set and dtype. A chain
 *                 waits for its own previous FMA, so the probe reaches the peak only when the chains
 *                 cover latency x pipes (Zen 3 and recent Intel: 4 cycles x 2 pipes = 8); 12 leaves
 *                 headroom and still fits the 16 vector registers of AVX2 with m and a.
 *                 m < 1 and a > 0 keep every value near 1: no overflow, no subnormals.
 *   clock         a chain of dependent integer adds, one cycle each on every x86 core, so
 *                 adds / seconds is the clock the core sustains while the other threads run.
 *   bandwidth     a read-only sum over a working set (in the manner of the Empirical Roofline
 *                 Toolkit: sweep the set's size, each plateau is a memory level) and a triad
 *                 a = b + s*c, which also writes; both with the widest vectors the CPU has.
 *   STREAM        one kernel per pattern of reads and writes that the elementwise operations
 *                 have, as the STREAM benchmark writes them: copy a = b and add a = b + c (to
 *                 another array: a plain store first reads the line it fills, so each also comes
 *                 with non-temporal stores, which skip that read), and the in-place updates
 *                 a = s*a and a = s*b + a (the line is read anyway: plain stores only). In
 *                 fp64 for the ceilings; in fp32 too, and over any length, for the sweep's
 *                 reference lines (stream, stream_nt), which run them over a case's own arrays.
 *
 * Every kernel is compiled for its instruction set with a target attribute and picked at run time,
 * so the binary runs on any x86-64. The accumulators are named variables, not an array, so that the
 * compiler keeps them in registers at -O2 (an array spilled to memory would put store-forwarding
 * latency into the chains).
 */
#include <immintrin.h>
#include <stdint.h>

#include "ceilings.h"

#if !defined(__x86_64__)
#error "the ceilings probes are written for x86-64"
#endif

#define TG__FMA_CHAINS 12
/* OP(j, ...) once per chain; the extra arguments pass the probe's vector type and operations on. */
#define TG__EACH_CHAIN(OP, ...)                                                                  \
    OP(0, __VA_ARGS__) OP(1, __VA_ARGS__) OP(2, __VA_ARGS__) OP(3, __VA_ARGS__)                   \
    OP(4, __VA_ARGS__) OP(5, __VA_ARGS__) OP(6, __VA_ARGS__) OP(7, __VA_ARGS__)                   \
    OP(8, __VA_ARGS__) OP(9, __VA_ARGS__) OP(10, __VA_ARGS__) OP(11, __VA_ARGS__)
#define TG__FMA_INIT(j, VEC, SET1) VEC acc##j = SET1(1.0 + 0.01 * (j));
#define TG__FMA_STEP(j, FMA) acc##j = FMA(acc##j, mul, add);
#define TG__FMA_KEEP(j, unused) __asm__ volatile("" : "+v"(acc##j));

/* One FMA probe: VEC registers, SET1 broadcasts, FMA(a, b, c) = a*b + c, LANES elements per VEC.
 * The empty asm after the loop makes every accumulator an input of something the compiler cannot
 * see through, so no chain is dead code. */
#define TG__FMA_PROBE(NAME, TARGET, VEC, SET1, FMA, LANES)                                      \
    __attribute__((target(TARGET), noinline)) static double NAME(long iters)                   \
    {                                                                                           \
        const VEC mul = SET1(0.999999), add = SET1(1e-6);                                       \
        TG__EACH_CHAIN(TG__FMA_INIT, VEC, SET1)                                                 \
        for (long i = 0; i < iters; i++) {                                                      \
            TG__EACH_CHAIN(TG__FMA_STEP, FMA)                                                   \
        }                                                                                       \
        TG__EACH_CHAIN(TG__FMA_KEEP, 0)                                                         \
        return 2.0 * (LANES) * TG__FMA_CHAINS * (double)iters;                                  \
    }

TG__FMA_PROBE(fma_scalar_s, "fma", __m128, _mm_set1_ps, _mm_fmadd_ss, 1)
TG__FMA_PROBE(fma_scalar_d, "fma", __m128d, _mm_set1_pd, _mm_fmadd_sd, 1)
TG__FMA_PROBE(fma_avx2_s, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, 8)
TG__FMA_PROBE(fma_avx2_d, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd, 4)
TG__FMA_PROBE(fma_avx512_s, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, 16)
TG__FMA_PROBE(fma_avx512_d, "avx512f", __m512d, _mm512_set1_pd, _mm512_fmadd_pd, 8)

const char *tg__isa_name(tg__isa isa)
{
    static const char *const names[TG__ISA_COUNT] = {"scalar", "avx2", "avx512"};
    return names[isa];
}

/* The scalar probe uses scalar FMA instructions too, so that its ceiling and the vector ones
 * differ only in width; a CPU without FMA gets no compute ceilings at all. */
int tg__isa_present(tg__isa isa)
{
    __builtin_cpu_init();
    switch (isa) {
    case TG__ISA_SCALAR: return __builtin_cpu_supports("fma");
    case TG__ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case TG__ISA_AVX512: return __builtin_cpu_supports("avx512f");
    default: return 0;
    }
}

double tg__probe_fma(tg__isa isa, char dtype, long iters)
{
    static double (*const probes[TG__ISA_COUNT][2])(long) = {
        {fma_scalar_s, fma_scalar_d}, {fma_avx2_s, fma_avx2_d}, {fma_avx512_s, fma_avx512_d}};
    return probes[isa][dtype == 'd'](iters);
}

/* 16 adds per round: the loop's own counter and branch run beside the chain, off its path. The
 * addend is a register, not an immediate: Intel's cores from Golden Cove on fold chains of
 * add-immediate in the renamer and run several a cycle, which read as a 15-21 GHz clock there. */
double tg__probe_add_chain(long iters)
{
    uint64_t x = 0, one = 1;
    for (long i = 0; i < iters; i++)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(one));
    return 16.0 * (double)iters;
}

/* Bandwidth kernels in GCC's vector types, so one body serves every width; 8 accumulators keep
 * two loads a cycle in flight from L1 without a dependency on the adds. */
typedef double tg__v2d __attribute__((vector_size(16)));
typedef double tg__v4d __attribute__((vector_size(32)));
typedef double tg__v8d __attribute__((vector_size(64)));
typedef float tg__v4f __attribute__((vector_size(16)));
typedef float tg__v8f __attribute__((vector_size(32)));
typedef float tg__v16f __attribute__((vector_size(64)));

#define TG__READ_PROBE(NAME, TARGET, VEC)                                                       \
    __attribute__((target(TARGET), noinline)) static double NAME(const double *buf,           \
                                                                 size_t bytes, long passes)    \
    {                                                                                           \
        const VEC *v = (const VEC *)buf;                                                        \
        size_t n = bytes / sizeof(VEC);                                                         \
        VEC s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0}, s5 = {0}, s6 = {0}, s7 = {0};     \
        for (long p = 0; p < passes; p++) {                                                     \
            for (size_t i = 0; i < n; i += 8) {                                                 \
                s0 += v[i], s1 += v[i + 1], s2 += v[i + 2], s3 += v[i + 3];                     \
                s4 += v[i + 4], s5 += v[i + 5], s6 += v[i + 6], s7 += v[i + 7];                 \
            }                                                                                   \
            __asm__ volatile("" ::: "memory"); /* every pass reads memory again */            \
        }                                                                                       \
        VEC s = (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7);                                  \
        double total = 0;                                                                       \
        for (size_t j = 0; j < sizeof(VEC) / sizeof(double); j++) total += s[j];                \
        return total;                                                                           \
    }

#define TG__TRIAD_PROBE(NAME, TARGET, VEC)                                                      \
    __attribute__((target(TARGET), noinline)) static void NAME(                                \
        double *a, const double *b, const double *c, size_t n, long passes)                     \
    {                                                                                           \
        VEC *va = (VEC *)a;                                                                     \
        const VEC *vb = (const VEC *)b, *vc = (const VEC *)c;                                   \
        const size_t nv = n * sizeof(double) / sizeof(VEC);                                     \
        const double s = 1.0 + 1e-9;                                                            \
        for (long p = 0; p < passes; p++) {                                                     \
            for (size_t i = 0; i < nv; i++) va[i] = vb[i] + s * vc[i];                          \
            __asm__ volatile("" ::: "memory");                                                  \
        }                                                                                       \
    }

/* The STREAM kernels. GCC would turn the plain copy loop into a call of memcpy, whose large
 * copies use other instructions: the copy must stay this loop, so that pattern is disabled here. */
#if defined(__GNUC__) && !defined(__clang__)
#define TG__NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define TG__NO_MEMCPY
#endif
/* LOOP(EXPR, ...) with the expression of the pattern over arrays A, B, C at index i. */
#define TG__STREAM_KINDS(LOOP, A, B, C, ...)                                                    \
    switch (kind) {                                                                             \
    case TG__STREAM_COPY: LOOP(B[i], __VA_ARGS__); break;                                       \
    case TG__STREAM_ADD: LOOP(B[i] + C[i], __VA_ARGS__); break;                                 \
    case TG__STREAM_SCALE_INPLACE: LOOP(s * A[i], __VA_ARGS__); break;                          \
    case TG__STREAM_AXPY_INPLACE: LOOP(s * B[i] + A[i], __VA_ARGS__); break;                    \
    default: break;                                                                             \
    }
/* va[i] = EXPR for every whole vector, with plain stores or (nt) non-temporal ones, then a fence
 * so the streamed lines are written out before the pass counts as done. */
#define TG__STREAM_VECTORS(EXPR, ELEM, NTSTORE)                                                 \
    do {                                                                                        \
        if (nt) {                                                                               \
            for (size_t i = 0; i < nv; i++) NTSTORE((ELEM *)(va + i), EXPR);                    \
            _mm_sfence();                                                                       \
        } else {                                                                                \
            for (size_t i = 0; i < nv; i++) va[i] = EXPR;                                       \
        }                                                                                       \
    } while (0)
/* a[i] = EXPR for the elements after the last whole vector (an array of any length), with plain
 * stores: fewer than one vector, they are no part of what a ceiling measures. */
#define TG__STREAM_TAIL(EXPR, unused)                                                           \
    for (size_t i = tail; i < n; i++) a[i] = EXPR
#define TG__STREAM_PROBE(NAME, TARGET, ELEM, VEC, NTSTORE, S)                                   \
    __attribute__((target(TARGET), noinline)) TG__NO_MEMCPY static void NAME(                  \
        tg__stream kind, int nt, ELEM *a, const ELEM *b, const ELEM *c, size_t n, long passes)  \
    {                                                                                           \
        VEC *va = (VEC *)a;                                                                     \
        const VEC *vb = (const VEC *)b, *vc = (const VEC *)c;                                   \
        const size_t nv = n * sizeof(ELEM) / sizeof(VEC);                                       \
        const size_t tail = nv * sizeof(VEC) / sizeof(ELEM);                                   \
        const ELEM s = (S);                                                                     \
        for (long p = 0; p < passes; p++) {                                                     \
            TG__STREAM_KINDS(TG__STREAM_VECTORS, va, vb, vc, ELEM, NTSTORE)                     \
            TG__STREAM_KINDS(TG__STREAM_TAIL, a, b, c, 0)                                       \
            __asm__ volatile("" ::: "memory");                                                  \
        }                                                                                       \
    }

TG__READ_PROBE(read_sse2, "sse2", tg__v2d)
TG__READ_PROBE(read_avx2, "avx2", tg__v4d)
TG__READ_PROBE(read_avx512, "avx512f", tg__v8d)
TG__TRIAD_PROBE(triad_sse2, "sse2", tg__v2d)
TG__TRIAD_PROBE(triad_avx2, "avx2", tg__v4d)
TG__TRIAD_PROBE(triad_avx512, "avx512f", tg__v8d)
TG__STREAM_PROBE(stream_sse2, "sse2", double, tg__v2d, _mm_stream_pd, TG__STREAM_S_F64)
TG__STREAM_PROBE(stream_avx2, "avx2", double, tg__v4d, _mm256_stream_pd, TG__STREAM_S_F64)
TG__STREAM_PROBE(stream_avx512, "avx512f", double, tg__v8d, _mm512_stream_pd, TG__STREAM_S_F64)
TG__STREAM_PROBE(stream_sse2_f32, "sse2", float, tg__v4f, _mm_stream_ps, TG__STREAM_S_F32)
TG__STREAM_PROBE(stream_avx2_f32, "avx2", float, tg__v8f, _mm256_stream_ps, TG__STREAM_S_F32)
TG__STREAM_PROBE(stream_avx512_f32, "avx512f", float, tg__v16f, _mm512_stream_ps,
                 TG__STREAM_S_F32)

/* The widest vectors this CPU has: 2 = AVX-512, 1 = AVX2, 0 = SSE2. */
static int widest(void)
{
    return tg__isa_present(TG__ISA_AVX512) ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
}

double tg__probe_read(const double *buf, size_t bytes, long passes)
{
    static double (*const probes[3])(const double *, size_t, long) = {read_sse2, read_avx2,
                                                                      read_avx512};
    return probes[widest()](buf, bytes, passes);
}

void tg__probe_triad(double *a, const double *b, const double *c, size_t n, long passes)
{
    static void (*const probes[3])(double *, const double *, const double *, size_t, long) = {
        triad_sse2, triad_avx2, triad_avx512};
    probes[widest()](a, b, c, n, passes);
}

const char *tg__stream_name(tg__stream kind)
{
    static const char *const names[TG__STREAM_COUNT] = {"copy", "add", "scale_inplace",
                                                        "axpy_inplace"};
    return names[kind];
}

void tg__probe_stream(tg__stream kind, int nt, double *a, const double *b, const double *c,
                      size_t n, long passes)
{
    static void (*const probes[3])(tg__stream, int, double *, const double *, const double *,
                                   size_t, long) = {stream_sse2, stream_avx2, stream_avx512};
    probes[widest()](kind, nt && kind <= TG__STREAM_ADD, a, b, c, n, passes);
}

void tg__probe_stream_f32(tg__stream kind, int nt, float *a, const float *b, const float *c,
                          size_t n, long passes)
{
    static void (*const probes[3])(tg__stream, int, float *, const float *, const float *, size_t,
                                   long) = {stream_sse2_f32, stream_avx2_f32, stream_avx512_f32};
    probes[widest()](kind, nt && kind <= TG__STREAM_ADD, a, b, c, n, passes);
}
