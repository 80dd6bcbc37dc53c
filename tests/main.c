/* The foundation test suite's entry point: runs the sections named on the command line (all of
 * those this build has, by default) and ends with the one line `make test` adds up: "N passed, N
 * failed". Exits non-zero if anything failed.
 *
 *   usage: tgemm_tests [--cube N] [--random N] [section...]
 *   sections: arch cube edges scalars special pageend rows gemv random openblas args threads callers
 *             nomem,
 *             and (only when named, with TGEMM_ARCH=none) unsupported
 *
 * The kernel family, path and block sizes come from the environment (TGEMM_ARCH, TGEMM_PATH,
 * TGEMM_MC/KC/NC), which the library reads once per process: tests/run_suite.sh runs this binary
 * once per setting. In the single-header builds (TGT_HEADER) this file is the one translation unit
 * that holds the implementation.
 */
#ifdef TGT_HEADER
#define TGEMM_IMPLEMENTATION
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgt.h"

static long tgt_passed, tgt_failed;

int tgt_check(int ok, const char *fmt, ...)
{
    if (ok) {
        tgt_passed++;
        return 1;
    }
    if (tgt_failed < TGT_MAX_PRINTED) {
        va_list ap;
        va_start(ap, fmt);
        fputs("FAIL ", stdout);
        vprintf(fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    } else if (tgt_failed == TGT_MAX_PRINTED) {
        puts("FAIL (further failures are counted but not printed)");
    }
    tgt_failed++;
    return 0;
}

const char *tgt_config(void)
{
    static char text[160];
    if (!text[0]) {
        const char *path = getenv("TGEMM_PATH"), *mc = getenv("TGEMM_MC"),
                   *kc = getenv("TGEMM_KC"), *nc = getenv("TGEMM_NC");
        snprintf(text, sizeof text, "[path=%s MC=%s KC=%s NC=%s]", path ? path : "auto",
                 mc ? mc : "def", kc ? kc : "def", nc ? nc : "def");
    }
    return text;
}

/* TGEMM_ARCH must really pick the family, or the "generic" suite would quietly test AVX2 again. */
static void tgt_section_arch(void)
{
    const char *want = getenv("TGEMM_ARCH");
    const char *got = tg_cpu_arch();
    if (want && *want)
        tgt_check(strcmp(got, want) == 0, "TGEMM_ARCH=%s but tg_cpu_arch() says %s", want, got);
    else
        tgt_check(strcmp(got, "avx512") == 0 || strcmp(got, "avx2") == 0 ||
                      strcmp(got, "generic") == 0,
                  "tg_cpu_arch() says %s", got);
}

static int tgt_cube_max = 17, tgt_random_count = 120;
static void tgt_cube(void) { tgt_section_cube(tgt_cube_max); }
static void tgt_random(void) { tgt_section_random(tgt_random_count); }
#ifdef TGT_OPENBLAS
static void tgt_openblas(void) { tgt_section_openblas(tgt_random_count); }
#endif

/* The sections this build has, in the order "all" runs them; "unsupported" runs only when named,
 * since it needs TGEMM_ARCH to name no kernel family. */
static const struct {
    const char *name;
    void (*run)(void);
} tgt_sections[] = {
    {"arch", tgt_section_arch},       {"cube", tgt_cube},
    {"edges", tgt_section_edges},     {"tiny", tgt_section_tiny},
    {"scalars", tgt_section_scalars},
    {"special", tgt_section_special}, {"pageend", tgt_section_pageend},
    {"rows", tgt_section_rows},       {"gemv", tgt_section_gemv},
    {"random", tgt_random},
#ifdef TGT_OPENBLAS
    {"openblas", tgt_openblas},
#endif
    {"args", tgt_section_args},       {"threads", tgt_section_threads},
    {"callers", tgt_section_callers}, {"unsupported", tgt_section_unsupported},
#ifdef TGEMM_TESTING
    {"nomem", tgt_section_nomem},
#endif
};
enum { TGT_SECTIONS = sizeof tgt_sections / sizeof tgt_sections[0] };

/* Runs the named section (or all); an unknown name counts as a failure, so a typo in a make rule
 * can never pass by running nothing. */
static void tgt_run_section(const char *name)
{
    int found = 0;
    for (int i = 0; i < TGT_SECTIONS; i++)
        if ((strcmp(name, "all") == 0 && strcmp(tgt_sections[i].name, "unsupported") != 0) ||
            strcmp(name, tgt_sections[i].name) == 0) {
            tgt_sections[i].run();
            found = 1;
        }
    tgt_check(found, "no section %s in this build", name);
}

int main(int argc, char **argv)
{
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "--cube") == 0) tgt_cube_max = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--random") == 0) tgt_random_count = atoi(argv[i + 1]);
        else tgt_check(0, "unknown option %s", argv[i]);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("tgemm tests: %s %s\n", tg_cpu_arch(), tgt_config());
    if (i == argc) tgt_run_section("all");
    for (; i < argc; i++) tgt_run_section(argv[i]);
    printf("%ld passed, %ld failed\n", tgt_passed, tgt_failed);
    return tgt_failed != 0;
}
