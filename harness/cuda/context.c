/* tgemm-bench-cuda's stand-in for worker.cc's tg__gbench_context_json: the "context" object of the
 * sweep JSON, with Google Benchmark's field names (date, host_name, executable, num_cpus,
 * mhz_per_cpu, load_avg), written here because this build does not link Google Benchmark (the GPU
 * machine has none of Debian's packages). The GPU's own record is the context's "tgemm"."device"
 * (device.cu); "timer" says how the times were taken.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static double mhz_per_cpu(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "cpu MHz", 7) && strchr(line, ':')) {
            mhz = atof(strchr(line, ':') + 1);
            break;
        }
    if (f) fclose(f);
    return mhz;
}

void tg__gbench_context_json(FILE *out, const char *argv0)
{
    char date[40], host[256] = "unknown";
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&t));
    gethostname(host, sizeof host - 1);
    double load[3] = {0, 0, 0};
    int nload = getloadavg(load, 3);
    fprintf(out, "{\n    \"date\": ");
    tg__json_str(out, date);
    fprintf(out, ",\n    \"host_name\": ");
    tg__json_str(out, host);
    fprintf(out, ",\n    \"executable\": ");
    tg__json_str(out, argv0);
    fprintf(out, ",\n    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": %.0f,\n    \"load_avg\": [",
            sysconf(_SC_NPROCESSORS_ONLN), mhz_per_cpu());
    for (int i = 0; i < nload; i++) fprintf(out, "%s%g", i ? "," : "", load[i]);
    fprintf(out, "],\n    \"timer\": \"CUDA events around batches of calls (tgemm-bench-cuda; "
                 "Google Benchmark is not linked)\"\n  }");
}
