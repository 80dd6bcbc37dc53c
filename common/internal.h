/* Private declarations shared across tgemm's source files (never installed, never included by users).
 *
 * Private names start with tg__. In the split library they have external linkage with hidden
 * visibility; in the single header (tgemm.h) everything lives in one translation unit and they are
 * static, so a user's program sees only the tg_ API.
 */
#ifndef TGEMM_INTERNAL_H
#define TGEMM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef TGEMM__AMALGAMATED
#define TG__PRIVATE static
#elif defined(__GNUC__)
#define TG__PRIVATE __attribute__((visibility("hidden")))
#else
#define TG__PRIVATE
#endif

#if defined(__cplusplus)
#define TG__THREAD_LOCAL thread_local
#elif defined(_MSC_VER)
#define TG__THREAD_LOCAL __declspec(thread)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_THREADS__)
#define TG__THREAD_LOCAL _Thread_local
#else
#define TG__THREAD_LOCAL __thread
#endif

/* For error paths kept out of line, so the common path stays small. */
#if defined(__GNUC__)
#define TG__NOINLINE __attribute__((noinline))
#else
#define TG__NOINLINE
#endif

/* For the few small functions every call runs (the argument checks), which must not stay calls. */
#if defined(__GNUC__)
#define TG__ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define TG__ALWAYS_INLINE static inline
#endif

/* A buffer on the stack on a cache line, where the compiler can say so (C11's _Alignas is neither
 * C99 nor C++, and the header builds as both). */
#if defined(__GNUC__)
#define TG__LINE_ALIGNED __attribute__((aligned(64)))
#else
#define TG__LINE_ALIGNED
#endif

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#define TG__X86 1
#endif

/* OpenMP pragmas that vanish, warning-free, when the compiler is not asked for OpenMP. */
#ifdef _OPENMP
#define TG__OMP(directive) _Pragma(#directive)
#else
#define TG__OMP(directive)
#endif
/* The calling thread's number in its team, and the team's size: 0 and 1 without OpenMP (the
 * caller includes omp.h where _OPENMP is defined). */
#ifdef _OPENMP
#define TG__THREAD_NUM() omp_get_thread_num()
#define TG__TEAM_SIZE() omp_get_num_threads()
#else
#define TG__THREAD_NUM() 0
#define TG__TEAM_SIZE() 1
#endif

/* Publishing a value computed once per process (CPU facts, environment): the flag is stored with
 * release and read with acquire ordering, so a thread that sees it set also sees what it guards.
 * Two first callers may both compute; they compute the same thing. */
#if defined(__GNUC__) || defined(__clang__)
#define TG__LOAD_ACQUIRE(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define TG__STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else
#define TG__LOAD_ACQUIRE(p) (*(volatile int *)(p))
#define TG__STORE_RELEASE(p, v) (*(volatile int *)(p) = (v))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors (common/status.c) ---- */
/* Records "fn: parameter pos (name) = value: expectation" as this thread's last error; returns
 * TG_ERR_ARG so that checks read `return tg__arg_error(...)`. */
TG__PRIVATE int tg__arg_error(const char *fn, int pos, const char *name, int64_t value,
                              const char *expected);
/* Records a free-form message for a non-argument failure (memory, device); returns status. */
TG__PRIVATE int tg__fail(int status, const char *fn, const char *what);

/* ---- GEMM arguments: checks and strided views (common/gemm_args.h, inline) ---- */
#include "gemm_args.h"

/* ---- the machine (common/cpuinfo.c) ---- */
typedef struct {
    int avx2_fma;              /* AVX2 and FMA3 both present (and the OS saves ymm state) */
    int avx512f;
    int zmm_split;             /* AVX-512 runs each zmm operation as two 256-bit halves (AMD Zen 4),
                                * so a ymm one costs half as much; not so on Zen 5 or Intel */
    int intel;                 /* GenuineIntel: where a software prefetch into L2 only pays
                                * (elementwise_simd_run.inc) */
    int64_t l1d, l2, l3;       /* data cache bytes per core (L3: whole, shared); fallbacks if unknown */
    int64_t l3_plan;           /* the L3 the library plans with: l3, at most 32 MiB (cpuinfo.c) */
} tg__cpuinfo;
TG__PRIVATE const tg__cpuinfo *tg__cpu(void);

/* ---- which CPU kernel family runs (cpu/arch.c) ---- */
typedef enum {
    TG__ARCH_INVALID = -1, TG__ARCH_GENERIC = 0, TG__ARCH_AVX2 = 1, TG__ARCH_AVX512 = 2
} tg__arch;
/* TGEMM_ARCH (generic|avx2|avx512, read once per process) or else the best family this CPU runs.
 * TG__ARCH_INVALID when TGEMM_ARCH names an unknown family or one this CPU lacks; callers then
 * return TG_ERR_UNSUPPORTED rather than fault on an illegal instruction. */
TG__PRIVATE tg__arch tg__arch_selected(void);

/* A positive size from the environment variable name, or 0 when it is unset or not one
 * (cpu/blocking.c): the tuning knobs the tests turn, TGEMM_MC/KC/NC and TGEMM_EW_STREAM_BYTES. */
TG__PRIVATE int64_t tg__env_size(const char *name);

/* ---- aligned working memory (common/memory.c) ---- */
/* 64-byte aligned; NULL on failure or when TGEMM_TESTING's tg__test_fail_alloc is set. The block
 * freed last is kept for the next tg__alloc (memory.c): a call should hold one block at a time. */
TG__PRIVATE void *tg__alloc(size_t bytes);
TG__PRIVATE void tg__free(void *p);
#ifdef TGEMM_TESTING
/* Test hook: while non-zero, tg__alloc fails, so tests can see TG_ERR_NOMEM leave C untouched. */
extern int tg__test_fail_alloc;
#endif

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_INTERNAL_H */
