/* build/tgemm-bench's side of `--device cuda` (see gpu.h): this build has no CUDA, so it hands the
 * command over to build/tgemm-bench-cuda, the nvcc build of the same harness, found beside it.
 *
 * The other functions of gpu.h exist here only so that options.c and sweep.c link: main.c hands every
 * `--device cuda` command over before they could be asked about a GPU implementation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"

int tg__gpu_main(int argc, char **argv)
{
    (void)argc;
    char path[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 32);
    if (len <= 0) len = (ssize_t)snprintf(path, sizeof path - 32, "%s", argv[0]);
    path[len] = 0;
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, 32, "tgemm-bench-cuda");
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "tgemm-bench: --device cuda needs %s, the GPU build of tgemm-bench "
                        "(make harness-cuda; it needs nvcc)\n", path);
        return 2;
    }
    argv[0] = path;
    execv(path, argv);
    fprintf(stderr, "tgemm-bench: cannot start %s: %s\n", path, strerror(errno));
    return 2;
}

int tg__gpu_impl_count(void) { return 0; }

const char *tg__gpu_impl_name(int g)
{
    (void)g;
    return "(no GPU implementation in this build)";
}

int tg__gpu_impl_parse(const char *name)
{
    (void)name;
    return -1;
}

int tg__gpu_impl_mode(int g)
{
    (void)g;
    return TG__GPU_ON_DEVICE;
}

const char *tg__gpu_unavailable(void) { return "this build of tgemm-bench has no CUDA part"; }

void tg__gpu_device_json(FILE *out) { fputs("null", out); }

const char *tg__gpu_slug(void) { return "no-gpu"; }
