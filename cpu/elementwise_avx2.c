/* The AVX2 elementwise runs for float (8 lanes) and double (4 lanes): elementwise_simd.inc over the
 * AVX2 operations below.
 *
 * Built without -mavx2, like the GEMM kernels: the vector functions carry target("avx2,fma") and
 * elementwise.c calls them only when tg__arch_selected() says AVX2. On other architectures this file
 * is empty and the portable runs serve. */
#include "elementwise.h"

#ifdef TG__X86
#include <immintrin.h>

#define TG__ISA(x) x##_avx2
#define TG__TARGET "avx2,fma"
#define TG__DEXP_SPLIT 2 /* double exp's form (elementwise_act_simd.inc) */
#define TG__FU_TANH 3 /* float GELU tanh's vectors a turn (elementwise_simd_run.inc) */
#define TG__FU_ERF 2 /* float GELU erf's */
#define TG__DU_TANH 4 /* double GELU tanh's: 8 spill 16 registers (1.15 the time) */
#define TG__DU_SIGMOID 4 /* and double sigmoid's and SiLU's (elementwise_simd_run.inc) */
#define TG__VBYTES 32
#define TG__FV __m256
#define TG__DV __m256d
#define TG__IV __m256i
#define TG__FW 8
#define TG__DW 4

#define TG__F1 _mm256_set1_ps
#define TG__FZERO _mm256_setzero_ps
#define TG__FLOADU _mm256_loadu_ps
#define TG__FSTOREU _mm256_storeu_ps
#define TG__FSTREAM _mm256_stream_ps
#define TG__FADD _mm256_add_ps
#define TG__FSUB _mm256_sub_ps
#define TG__FMUL _mm256_mul_ps
#define TG__FDIV _mm256_div_ps
#define TG__FFMA _mm256_fmadd_ps
#define TG__FFNMA _mm256_fnmadd_ps
#define TG__FFMS _mm256_fmsub_ps
#define TG__FFNMS _mm256_fnmsub_ps
#define TG__FHALF(a) _mm256_mul_ps(a, _mm256_set1_ps(0.5f))
#define TG__FMAX _mm256_max_ps
#define TG__FMIN _mm256_min_ps
#define TG__FOR _mm256_or_ps
#define TG__FBLENDV _mm256_blendv_ps
/* the blend, not AVX-512's max: the max needs -0 in a register of the 16 (fp32 GELU erf, Emerald
 * Rapids, L2, one thread, act_speed side by side: 1.02-1.08 the time) */
#define TG__FSIGNZ(x) _mm256_blendv_ps(x, _mm256_set1_ps(-0.0f), x)
#define TG__FTAB8(t, i) _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), i)
#define TG__FASI _mm256_castps_si256
#define TG__IASF _mm256_castsi256_ps

#define TG__D1 _mm256_set1_pd
#define TG__DZERO _mm256_setzero_pd
#define TG__DLOADU _mm256_loadu_pd
#define TG__DSTOREU _mm256_storeu_pd
#define TG__DSTREAM _mm256_stream_pd
#define TG__DADD _mm256_add_pd
#define TG__DSUB _mm256_sub_pd
#define TG__DMUL _mm256_mul_pd
#define TG__DDIV _mm256_div_pd
#define TG__DFMA _mm256_fmadd_pd
#define TG__DFNMA _mm256_fnmadd_pd
#define TG__DFMS _mm256_fmsub_pd
#define TG__DFNMS _mm256_fnmsub_pd
#define TG__DMAX _mm256_max_pd
#define TG__DMIN _mm256_min_pd
#define TG__DOR _mm256_or_pd
#define TG__DBLENDV _mm256_blendv_pd
#define TG__DSIGNZ(x) _mm256_blendv_pd(x, _mm256_set1_pd(-0.0), x)
#define TG__DASI _mm256_castpd_si256
#define TG__IASD _mm256_castsi256_pd

#define TG__I32ADD _mm256_add_epi32
#define TG__I32SLL _mm256_slli_epi32
#define TG__I64ADD _mm256_add_epi64
#define TG__I64SLL _mm256_slli_epi64

#include "elementwise_simd.inc"

#endif /* TG__X86 */
