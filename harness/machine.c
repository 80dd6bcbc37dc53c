/* `tgemm-bench machine`: what is being measured, as one JSON object, and the machine's slug.
 *
 * The slug names results/<slug>/ (e.g. "amd-epyc-zen3-2c"): the CPU model from /proc/cpuinfo cut to
 * its distinctive words, the core generation from CPUID where the model name omits it (virtual
 * machines often report a bare "AMD EPYC" or "Intel(R) Xeon(R) Processor"), and the number of CPUs
 * this process may use. The compiler, flags and commit are those of the build
 * (build/harness/stamp.h, written by harness.mk); the date is when the command ran.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "bench.h"
#include "internal.h"
#include "stamp.h"

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        colon++;
        while (*colon == ' ') colon++;
        colon[strcspn(colon, "\n")] = 0;
        snprintf(buf, len, "%s", colon);
        break;
    }
    if (f) fclose(f);
}

static int cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The core generation from CPUID family/model, for AMD's Zen and Intel's server parts; NULL when
 * unknown. Intel's Skylake, Cascade and Cooper Lake servers share model 0x55, told apart by
 * stepping. */
static const char *cpu_generation(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d, vendor;
    if (!__get_cpuid(0, &a, &vendor, &c, &d) || !__get_cpuid(1, &a, &b, &c, &d)) return NULL;
    unsigned family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff);
    unsigned model = ((a >> 4) & 0xf) | ((a >> 12) & 0xf0), stepping = a & 0xf;
    if (vendor == 0x68747541) { /* "Auth"enticAMD */
        if (family == 0x17) return model < 0x30 ? "zen" : "zen2";
        if (family == 0x19)
            return (model >= 0x10 && model < 0x20) || model >= 0x60 ? "zen4" : "zen3";
        if (family == 0x1a) return "zen5";
    } else if (vendor == 0x756e6547 && family == 6) { /* "Genu"ineIntel */
        switch (model) {
        case 0x55: return stepping >= 10 ? "cpx" : stepping >= 5 ? "clx" : "skx";
        case 0x6a: case 0x6c: return "icx";
        case 0x8f: return "spr";
        case 0xcf: return "emr";
        case 0xad: case 0xae: return "gnr";
        }
    }
#endif
    return NULL;
}

const char *tg__machine_slug(void)
{
    static char slug[160];
    if (slug[0]) return slug;
    char model[256], word[64];
    cpu_model(model, sizeof model);
    size_t used = 0;
    /* Words of the model name, lowercased, minus marketing and the clock ("@ 2.90GHz"). */
    for (char *p = model; *p && *p != '@';) {
        size_t n = 0;
        while (*p && !isalnum((unsigned char)*p) && *p != '@') p++;
        while (*p && (isalnum((unsigned char)*p) || *p == '-') && n < sizeof word - 1)
            word[n++] = (char)tolower((unsigned char)*p++);
        word[n] = 0;
        while (*p && (isalnum((unsigned char)*p) || *p == '-')) p++; /* an over-long word's tail */
        if (!n || !strcmp(word, "r") || !strcmp(word, "tm") || !strcmp(word, "cpu") ||
            !strcmp(word, "processor") || strstr(word, "-core") || !strcmp(word, "with"))
            continue;
        used += (size_t)snprintf(slug + used, sizeof slug - used, "%s%s", used ? "-" : "", word);
        if (used >= sizeof slug - 32) break;
    }
    const char *gen = cpu_generation();
    if (gen && !strstr(slug, gen) && used < sizeof slug - 32)
        used += (size_t)snprintf(slug + used, sizeof slug - used, "-%s", gen);
    /* A VM that masks the model (an Intel part as "Intel(R) Xeon(R) Processor", model 0xa7) names
     * different hosts alike: the L3 it reports tells them apart (480 MiB at 3.9 GHz and 105 MiB at
     * 2.0 GHz, both "intel-xeon-2c" before), so their figures do not share a folder. */
    const int64_t l3_mib = tg__cpu()->l3 >> 20;
    if (!gen && l3_mib > 0 && used < sizeof slug - 32)
        used += (size_t)snprintf(slug + used, sizeof slug - used, "-l3-%lldm", (long long)l3_mib);
    snprintf(slug + used, sizeof slug - used, "%s%dc", used ? "-" : "", cores());
    return slug;
}

void tg__machine_json(FILE *out)
{
    char model[256], date[32];
    cpu_model(model, sizeof model);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const tg__cpuinfo *ci = tg__cpu();
    fprintf(out, "{\"slug\": ");
    tg__json_str(out, tg__machine_slug());
    fprintf(out, ", \"cpu_model\": ");
    tg__json_str(out, model);
    fprintf(out, ", \"cores\": %d, \"caches\": {\"l1d\": %lld, \"l2\": %lld, \"l3\": %lld}", cores(),
            (long long)ci->l1d, (long long)ci->l2, (long long)ci->l3);
    fprintf(out, ", \"isa\": {\"avx2_fma\": %s, \"avx512f\": %s}, \"tgemm_kernel\": ",
            ci->avx2_fma ? "true" : "false", ci->avx512f ? "true" : "false");
    tg__json_str(out, tg_cpu_arch());
    fprintf(out, ", \"compiler\": ");
    tg__json_str(out, TG__STAMP_COMPILER);
    fprintf(out, ", \"cflags\": ");
    tg__json_str(out, TG__STAMP_CFLAGS);
    fprintf(out, ", \"commit\": ");
    tg__json_str(out, TG__STAMP_COMMIT);
    fprintf(out, ", \"date\": ");
    tg__json_str(out, date);
    fprintf(out, "}");
}
