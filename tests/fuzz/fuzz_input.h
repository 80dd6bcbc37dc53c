/* What the fuzzers (fuzz_gemm.c, fuzz_elementwise.c) share: the fuzzer's bytes read one at a time (0
 * once they run out, so that every input decodes to a whole call), sizes decoded from them, and the
 * abort that reports the decoded call. Header-only: each fuzzer is one translation unit. */
#ifndef TG_FUZZ_INPUT_H
#define TG_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const uint8_t *p;
    size_t n;
} bytes_in;

static unsigned take(bytes_in *in)
{
    unsigned v = in->n ? *in->p : 0;
    if (in->n) in->p++, in->n--;
    return v;
}

/* A size: one of big[0..7] for the top sixteen byte values, else in [-2, span - 3] (negative sizes
 * are part of what is tried). */
static int64_t size_from(bytes_in *in, unsigned span, const int64_t big[8])
{
    unsigned v = take(in);
    return v >= 240 ? big[v % 8] : (int64_t)(v % span) - 2;
}

/* The decoded call, printed by fail() with the check that failed. */
static char call[256];
static void fail(const char *why)
{
    fprintf(stderr, "fuzz: %s: %s\n", why, call);
    abort();
}

#endif
