/* tgemm-bench: the command-line entry point; it only dispatches.
 *
 *   tgemm-bench [sweep options]      the sweep (sweep.c; `--help` lists the options)
 *   tgemm-bench machine [--slug]     what is being measured, as JSON (machine.c)
 *   tgemm-bench ceilings [options]   the roofline probes (harness/ceilings.c, the report side's;
 *                                    linked only once that file exists, see harness.mk)
 *   tgemm-bench worker ...           one implementation in its own process, started by the sweep
 *   any of them with --device cuda   the GPU side (gpu.h): build/tgemm-bench hands the command to
 *                                    build/tgemm-bench-cuda, which serves it in harness/cuda/
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "gpu.h"
#if __has_include("ceilings.h")
#include "ceilings.h"
#define TG__HAVE_CEILINGS 1
#endif

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "worker")) return tg__worker_main(argc - 1, argv + 1);
    if (tg__device_arg(argc, argv) == TG__DEVICE_CUDA) return tg__gpu_main(argc, argv);
    if (!strcmp(cmd, "machine")) {
        if (argc == 3 && !strcmp(argv[2], "--slug")) {
            printf("%s\n", tg__machine_slug());
            return 0;
        }
        if (argc != 2) {
            fprintf(stderr, "tgemm-bench machine: the only option is --slug\n");
            return 2;
        }
        tg__machine_json(stdout);
        printf("\n");
        return 0;
    }
    if (!strcmp(cmd, "ceilings")) {
#ifdef TG__HAVE_CEILINGS
        return tg_bench_ceilings_main(argc - 1, argv + 1);
#else
        fprintf(stderr, "tgemm-bench: this build has no ceilings probes (harness/ceilings.c)\n");
        return 2;
#endif
    }
    return tg__sweep_main(argc, argv);
}
