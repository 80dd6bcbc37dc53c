/* The AVX-512 elementwise runs for float (16 lanes) and double (8 lanes): elementwise_simd.inc over
 * the AVX-512F operations below (AVX-512F alone, the one extension the library detects: signs
 * become masks through integer compares, bitwise ors go through the integer unit, halves are
 * moved as 256-bit double pieces).
 *
 * The same arithmetic as AVX2 (but for double exp's table: TG__DEXP_SPLIT), on twice the elements
 * per instruction. Zen 4 executes a 512-bit
 * operation as two 256-bit halves, so the FMA units gain nothing; but the transcendental loops are
 * not FMA bound there (fp64 sigmoid: 4.1 cycles per element in AVX2, ~19 FMAs per 4 elements), they
 * are bound by the operations the core can hold while the long dependency chains of exp and the
 * division resolve, and half the instructions per element is what relieves that. Cycles per
 * element, AVX2 -> AVX-512, one thread, 32768 elements (L2), Zen 4, side by side in one process
 * (build/elementwise/act_speed, the library before and after this file):
 *                 GELU tanh       GELU erf        sigmoid         SiLU
 *      float      3.13 -> 2.13    4.20 -> 2.67    1.42 -> 0.95    1.55 -> 0.99
 *      double     8.89 -> 4.70   10.83 -> 7.37    5.51 -> 3.21    5.83 -> 3.35
 * (double before its exp took the table and its degree-7 polynomial, which then gave 0.83-0.86,
 * 0.88-0.89, 0.73-0.75 and 0.75-0.77 the time: elementwise_act_simd.inc).
 * The memory-bound operations neither gain nor lose: they run at a copy's bandwidth in either
 * width.
 *
 * Built without -mavx512f, like the GEMM kernels; elementwise.c calls these runs only when
 * tg__arch_selected() says AVX-512. */
#include "elementwise.h"

#ifdef TG__X86
#include <immintrin.h>

#define TG__ISA(x) x##_avx512
#define TG__TARGET "avx512f,avx2,fma"
#define TG__DEXP_SPLIT 8 /* double exp's form (elementwise_act_simd.inc) */
#define TG__FU_TANH 2 /* float GELU tanh's vectors a turn (elementwise_simd_run.inc) */
#define TG__FU_ERF 1 /* float GELU erf's */
#define TG__DU_TANH 6 /* double GELU tanh's */
#define TG__DU_SIGMOID 2 /* double sigmoid's and SiLU's */
#define TG__VBYTES 64
#define TG__FV __m512
#define TG__DV __m512d
#define TG__IV __m512i
#define TG__FW 16
#define TG__DW 8

#define TG__F1 _mm512_set1_ps
#define TG__FZERO _mm512_setzero_ps
#define TG__FLOADU _mm512_loadu_ps
#define TG__FSTOREU _mm512_storeu_ps
#define TG__FSTREAM _mm512_stream_ps
#define TG__FADD _mm512_add_ps
#define TG__FSUB _mm512_sub_ps
#define TG__FMUL _mm512_mul_ps
#define TG__FDIV _mm512_div_ps
#define TG__FFMA _mm512_fmadd_ps
#define TG__FFNMA _mm512_fnmadd_ps
#define TG__FFMS _mm512_fmsub_ps
#define TG__FFNMS _mm512_fnmsub_ps
/* x / 2 by the scaling instruction, which runs beside the FMAs (Zen 5): a product takes theirs */
#define TG__FHALF(a) _mm512_scalef_ps(a, _mm512_set1_ps(-1.0f))
#define TG__FMAX _mm512_max_ps
#define TG__FMIN _mm512_min_ps
#define TG__FASI _mm512_castps_si512
#define TG__IASF _mm512_castsi512_ps
#define TG__FOR(a, b) TG__IASF(_mm512_or_si512(TG__FASI(a), TG__FASI(b)))
#define TG__FBLENDV(a, b, x) _mm512_mask_blend_ps(_mm512_cmplt_epi32_mask(TG__FASI(x), _mm512_setzero_si512()), a, b)
/* one max where the blend takes a compare into a mask too: the max keeps its second operand when
 * both are zeros or one is NaN, so it gives the blend's bits (a NaN x: a NaN either way) */
#define TG__FSIGNZ(x) _mm512_max_ps(_mm512_set1_ps(-0.0f), x)
/* the table of 8 in both halves of the register: the permute reads i's low four bits */
#define TG__FTAB8(t, i)                                                                            \
    _mm512_permutexvar_ps(i, _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_castps_pd(_mm256_loadu_ps(t)))))

#define TG__D1 _mm512_set1_pd
#define TG__DZERO _mm512_setzero_pd
#define TG__DLOADU _mm512_loadu_pd
#define TG__DSTOREU _mm512_storeu_pd
#define TG__DSTREAM _mm512_stream_pd
#define TG__DADD _mm512_add_pd
#define TG__DSUB _mm512_sub_pd
#define TG__DMUL _mm512_mul_pd
#define TG__DDIV _mm512_div_pd
#define TG__DFMA _mm512_fmadd_pd
#define TG__DFNMA _mm512_fnmadd_pd
#define TG__DFMS _mm512_fmsub_pd
#define TG__DFNMS _mm512_fnmsub_pd
#define TG__DSCALEF _mm512_scalef_pd
#define TG__DMAX _mm512_max_pd
#define TG__DMIN _mm512_min_pd
#define TG__DASI _mm512_castpd_si512
#define TG__IASD _mm512_castsi512_pd
#define TG__DOR(a, b) TG__IASD(_mm512_or_si512(TG__DASI(a), TG__DASI(b)))
#define TG__DBLENDV(a, b, x) _mm512_mask_blend_pd(_mm512_cmplt_epi64_mask(TG__DASI(x), _mm512_setzero_si512()), a, b)
#define TG__DSIGNZ(x) _mm512_max_pd(_mm512_set1_pd(-0.0), x)

#define TG__I32ADD _mm512_add_epi32
#define TG__I32SLL _mm512_slli_epi32
/* the table of 8 in one register: the permute reads k's low three bits */
#define TG__DTAB8(t, k) _mm512_permutexvar_pd(_mm512_castpd_si512(k), _mm512_loadu_pd(t))

/* g++ 12 warns, as C++ only, that the _mm512_undefined_* pass-through operand inside avx512fintrin.h's
 * max, cvtps_pd and extract may be used uninitialized: it is masked off in full, and the warning
 * would stop a -Werror C++ build of the single header. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "elementwise_simd.inc"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* TG__X86 */
