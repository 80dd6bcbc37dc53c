/* tgemm-bench-cuda's entry for `--device cuda` commands, and what it records about the GPU.
 *
 * tg__gpu_main serves `tgemm-bench-cuda [sweep options] --device cuda` (the sweep of sweep.c, whose
 * workers are this binary's worker.cu), `machine --device cuda [--slug]` and `ceilings --device
 * cuda` (ceilings.cu). The device record goes into every GPU sweep and ceilings file: the name,
 * compute capability, SMs, L2 and memory sizes, the maximum SM and memory clocks (CUDA attributes),
 * the driver and runtime versions, and, where the driver's NVML library can be opened, the driver's
 * version string and the SM and memory clocks at the moment of recording (NVML is part of the driver,
 * not of the CUDA toolkit, so it is dlopen'd and its absence only leaves those fields null).
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gpu_internal.h"

extern "C" const char *tg__gpu_unavailable(void)
{
    static char why[400];
    static int known;
    if (known) return why[0] ? why : NULL;
    known = 1;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    cudaDeviceProp prop;
    if (e != cudaSuccess)
        snprintf(why, sizeof why, "no CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    else if (count < 1)
        snprintf(why, sizeof why, "no CUDA device (cudaGetDeviceCount found none)");
    else if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess)
        snprintf(why, sizeof why, "the CUDA device does not answer (%s)", cudaGetErrorString(e));
    else if (prop.major < 8) /* the build holds sm_80 and sm_90 code, and PTX for newer */
        snprintf(why, sizeof why, "%.200s is compute capability %d.%d; this build needs 8.0 or "
                 "newer", prop.name, prop.major, prop.minor);
    return why[0] ? why : NULL;
}

static int attribute(cudaDeviceAttr a)
{
    int v = 0;
    return cudaDeviceGetAttribute(&v, a, 0) == cudaSuccess ? v : 0;
}

int64_t tg__gpu_l2_bytes(void) { return attribute(cudaDevAttrL2CacheSize); }

extern "C" const char *tg__gpu_slug(void)
{
    static char slug[128];
    if (slug[0]) return slug;
    cudaDeviceProp prop;
    if (tg__gpu_unavailable() || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        snprintf(slug, sizeof slug, "no-gpu");
        return slug;
    }
    size_t n = 0; /* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3" */
    for (const char *p = prop.name; *p && n < sizeof slug - 1; p++) {
        if (isalnum((unsigned char)*p)) slug[n++] = (char)tolower((unsigned char)*p);
        else if (n && slug[n - 1] != '-') slug[n++] = '-';
    }
    while (n && slug[n - 1] == '-') n--;
    slug[n] = 0;
    return slug;
}

/* ---- NVML, from the driver, opened at run time ---- */
typedef struct nvml_device *nvml_device_t;
struct nvml {
    int (*init)(void);
    int (*by_bus_id)(const char *, nvml_device_t *);
    int (*driver_version)(char *, unsigned);
    int (*clock)(nvml_device_t, int, unsigned *);
    nvml_device_t dev;
};

static int nvml_open(struct nvml *n)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    n->init = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    n->by_bus_id =
        (int (*)(const char *, nvml_device_t *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    n->driver_version = (int (*)(char *, unsigned))dlsym(lib, "nvmlSystemGetDriverVersion");
    n->clock = (int (*)(nvml_device_t, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    char bus[32];
    if (!n->init || !n->by_bus_id || !n->driver_version || !n->clock || n->init() != 0 ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, 0) != cudaSuccess || n->by_bus_id(bus, &n->dev) != 0)
        return -1;
    return 0;
}

static void json_uint_or_null(FILE *out, int ok, unsigned v)
{
    if (ok) fprintf(out, "%u", v);
    else fputs("null", out);
}

extern "C" void tg__gpu_device_json(FILE *out)
{
    cudaDeviceProp prop;
    if (tg__gpu_unavailable() || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fputs("null", out);
        return;
    }
    int driver = 0, runtime = 0;
    size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    fprintf(out, "{\"slug\": ");
    tg__json_str(out, tg__gpu_slug());
    fprintf(out, ", \"name\": ");
    tg__json_str(out, prop.name);
    fprintf(out, ", \"compute_capability\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %d, "
                 "\"memory_bytes\": %zu, \"sm_clock_max_mhz\": %d, \"memory_clock_max_mhz\": %d, "
                 "\"memory_bus_bits\": %d, \"cuda_driver\": \"%d.%d\", \"cuda_runtime\": \"%d.%d\"",
            prop.major, prop.minor, prop.multiProcessorCount, attribute(cudaDevAttrL2CacheSize),
            total_bytes, attribute(cudaDevAttrClockRate) / 1000,
            attribute(cudaDevAttrMemoryClockRate) / 1000,
            attribute(cudaDevAttrGlobalMemoryBusWidth), driver / 1000, driver % 1000 / 10,
            runtime / 1000, runtime % 1000 / 10);
    struct nvml n;
    char version[96] = "";
    unsigned sm = 0, mem = 0;
    int have = nvml_open(&n) == 0;
    int v_ok = have && n.driver_version(version, sizeof version) == 0;
    int sm_ok = have && n.clock(n.dev, 1 /* NVML_CLOCK_SM */, &sm) == 0;
    int mem_ok = have && n.clock(n.dev, 2 /* NVML_CLOCK_MEM */, &mem) == 0;
    fprintf(out, ", \"driver_version\": ");
    if (v_ok) tg__json_str(out, version);
    else fputs("null", out);
    fprintf(out, ", \"sm_clock_now_mhz\": ");
    json_uint_or_null(out, sm_ok, sm);
    fprintf(out, ", \"memory_clock_now_mhz\": ");
    json_uint_or_null(out, mem_ok, mem);
    const char *tf32 = getenv("NVIDIA_TF32_OVERRIDE");
    fprintf(out, ", \"NVIDIA_TF32_OVERRIDE\": ");
    if (tf32) tg__json_str(out, tf32);
    else fputs("null", out);
    fprintf(out, "}");
}

extern "C" int tg__gpu_main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "ceilings")) return tg__gpu_ceilings_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "machine")) {
        int slug = 0;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--slug")) slug = 1;
            else if (!strcmp(argv[i], "--device")) i++; /* "cuda": how we got here */
            else if (strcmp(argv[i], "--device=cuda")) {
                fprintf(stderr, "tgemm-bench machine: the options are --slug and --device\n");
                return 2;
            }
        }
        const char *no_gpu = tg__gpu_unavailable();
        if (no_gpu) {
            fprintf(stderr, "tgemm-bench: --device cuda: %s\n", no_gpu);
            return 2;
        }
        if (slug) {
            printf("%s\n", tg__gpu_slug());
            return 0;
        }
        printf("{\"host\": ");
        tg__machine_json(stdout);
        printf(", \"device\": ");
        tg__gpu_device_json(stdout);
        printf("}\n");
        return 0;
    }
    return tg__sweep_main(argc, argv);
}
