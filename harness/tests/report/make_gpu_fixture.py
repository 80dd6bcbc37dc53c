#!/usr/bin/python3
"""Writes the GPU report fixtures beside this file -- fixture_gpu_sweep.json, fixture_gpu_ceilings.json,
fixture_gpu_ew_sweep.json, fixture_crossover_sweep.json: hand-made, plausible results, not
measurements -- a small `tgemm-bench --device cuda` sweep and its ceilings, an elementwise sweep
(--op) and a crossover sweep (--crossover), in the exact format of sweep.c and
harness/cuda/ceilings.cu, with numbers chosen so that every figure of the report is known ahead.

    /usr/bin/python3 harness/tests/report/make_gpu_fixture.py

cuBLAS runs 256^3 at 8000 GFLOP/s, 1000^3 at 20000, 4096^3 at 40000 and the linear-layer shape
128x3072x768 at 10000; every other implementation runs at a fixed share of cuBLAS on every case:
naive 5%, coalesce 20%, double_buffer 80%, tgemm-cuda 85%, cublas-tf32 250%. One result is wrong:
cuda-02-coalesce on 1000^3. The ladder steps run the square shapes only; the linear shape has the
launcher, cuBLAS and the TF32 line. The ceilings' host<->device copies reach 55 (pinned, host to
device), 52 (pinned, device to host), 12 and 10 GB/s (pageable) at 64 MiB and more.

The elementwise sweep (tgemm-cuda) runs add fp32 on 2^26 elements (768 MiB moved) at 2610 GB/s, 90%
of the 2900 GB/s device copy; scale fp64 on 2^25 at 2755 GB/s (95%); GELU tanh fp32 on 2^26 at 2320
GB/s with no ceiling fields (the report must find 80% itself); add fp32 on 1000 elements at 10 GB/s;
add bf16 on 2^27 (768 MiB moved) at 2700 GB/s (93.1%).

The crossover sweep: square SGEMM 64..2048 and add fp32 on 1e4..1e8, in ms per call (CROSSOVER
below): the GPU with pinned copies beats the CPU at 128 (0.025 against 0.03), loses at 256 (a tie)
and wins from 512 on, so its crossover is 512; with pageable copies it wins from 1024 (its 2048
result is wrong, left out); on the device it is 34.4x the CPU at 2048. add never wins with copies;
on the device it is 25x at 1e8. The host CPU: the Xeon of MACHINE, tgemm-host on 16 threads (its
lines say so; the GPU ways' say 1).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CUBLAS = {(256, 256, 256): 8000.0, (1000, 1000, 1000): 20000.0, (4096, 4096, 4096): 40000.0,
          (128, 3072, 768): 10000.0}
SHARE = {"cuda-01-naive": 0.05, "cuda-02-coalesce": 0.20, "cuda-09-double_buffer": 0.80,
         "tgemm-cuda": 0.85, "cublas": 1.0, "cublas-tf32": 2.5}
STEPS_ONLY_SQUARE = ("cuda-01-naive", "cuda-02-coalesce", "cuda-09-double_buffer")
DEVICE = {"slug": "nvidia-h100-80gb-hbm3", "name": "NVIDIA H100 80GB HBM3",
          "compute_capability": "9.0", "sms": 132, "l2_bytes": 52428800,
          "memory_bytes": 85045231616, "sm_clock_max_mhz": 1980, "memory_clock_max_mhz": 2619,
          "memory_bus_bits": 5120, "cuda_driver": "13.0", "cuda_runtime": "13.0",
          "driver_version": "580.159.04", "sm_clock_now_mhz": 1755, "memory_clock_now_mhz": 2619,
          "NVIDIA_TF32_OVERRIDE": None}
MACHINE = {"slug": "intel-xeon-platinum-8480-16c", "cpu_model": "Intel(R) Xeon(R) Platinum 8480+",
           "cores": 16, "caches": {"l1d": 49152, "l2": 2097152, "l3": 110100480},
           "isa": {"avx2_fma": True, "avx512f": True}, "tgemm_kernel": "avx2",
           "compiler": "cc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0",
           "cflags": "-std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror -fPIC -fopenmp "
                     "-Icommon -O2 -g", "commit": "fedcba987654", "date": "2026-11-22T23:00:00Z"}


def check_of(impl, m, n, k):
    small = m * n * k <= 1 << 24 and m * n <= 1 << 21
    base = "reference" if small else "gpu-dgemm"
    return base + "-tf32" if impl == "cublas-tf32" else base


def aggregates(name, index, ms, rate_key, rate, fields):
    """The four aggregate entries of one case as sweep.c writes them; fields(rate) gives the rest
    (the rate is 0 in stddev and cv, whose times are 0 and 1%)."""
    out = []
    for agg, r, t in (("median", rate, ms), ("mean", rate, ms), ("stddev", 0.0, 0.0),
                      ("cv", 0.0, 0.01)):
        e = {"name": f"{name}_{agg}", "family_index": index, "per_family_instance_index": 0,
             "run_name": name, "run_type": "aggregate", "repetitions": 3, "aggregate_name": agg,
             "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": 3,
             "real_time": t, "cpu_time": t, "time_unit": "ms", rate_key: r}
        e.update(fields(r))
        out.append(e)
    return out


def gemm_entries(impl, shape, family, index, ms, correct, check, max_ratio, peak=None,
                 gflops=None, threads=1):
    m, n, k = shape
    name = f"gemm/{impl}/s/row/NN/{m}x{n}x{k}/threads:{threads}"
    gflops = gflops or 2.0 * m * n * k / ms * 1e-6
    return aggregates(name, index, ms, "GFLOPS", gflops, lambda r: dict(
        ({"peak_pct": 100 * r / peak} if peak else {}), impl=impl, dtype="s", m=m, n=n, k=k,
        trans="NN", layout="row", threads=threads, family=family, correct=correct,
        max_ratio=max_ratio if correct else None, check=check))


def entries(impl, shape, family, index):
    m, n, k = shape
    wrong = impl == "cuda-02-coalesce" and shape == (1000, 1000, 1000)
    g = CUBLAS[shape] * SHARE[impl]
    return gemm_entries(impl, shape, family, index, 2.0 * m * n * k / g * 1e-6, not wrong,
                        check_of(impl, m, n, k), 0.5 if impl != "cublas-tf32" else 0.25,
                        peak=51200.0, gflops=g)


def ew_entries(impl, op, dtype, elements, index, ms, ceiling=None, correct=True, threads=1):
    es = {"s": 4, "d": 8, "h": 2, "b": 2}[dtype]
    bytes_ = (2 if op.startswith(("scale", "activate")) else 3) * es * elements
    name = f"elementwise/{impl}/{op}/{dtype}/{elements}/threads:{threads}"
    return aggregates(name, index, ms, "GBps", bytes_ / ms * 1e-6, lambda r: dict(
        ({"ceiling_pct": 100 * r / ceiling} if ceiling else {}), impl=impl, dtype=dtype, op=op,
        elements=elements, rows=elements, cols=1, bytes=bytes_, pattern="device_copy",
        **({"ceiling_gbps": ceiling} if ceiling else {}), threads=threads, family="elementwise",
        correct=correct, max_ulps=0 if correct else None,
        check="sampled" if elements > 1 << 22 else "all"))


# ms per call of each way: (CPU, GPU on the device, + pinned copies, + pageable copies)
CROSSOVER = {
    "square": {64: (0.01, 0.02, 0.06, 0.1), 128: (0.03, 0.02, 0.025, 0.2),
               256: (0.2, 0.03, 0.2, 0.5), 512: (1.4, 0.08, 0.7, 1.6),
               1024: (11.0, 0.4, 2.4, 5.5), 2048: (86.0, 2.5, 9.0, 20.0)},
    "add": {10**4: (0.002, 0.005, 0.03, 0.05), 10**5: (0.01, 0.006, 0.06, 0.1),
            10**6: (0.1, 0.01, 0.5, 1.2), 10**7: (1.0, 0.05, 5.0, 12.0),
            10**8: (10.0, 0.4, 48.0, 110.0)}}
WAYS = ("tgemm-host", "tgemm-cuda", "tgemm-cuda+pinned", "tgemm-cuda+pageable")
HOST_THREADS = 16  # tgemm-host's lines carry the threads it ran on, as its library record does


def gpu_sweep(ctx_extra, bench):
    ctx = dict(MACHINE)
    ctx.update({"ceilings": "results/nvidia-h100-80gb-hbm3/ceilings.json", "device": DEVICE,
                "options": {"rounds": 3, "repetitions": 1, "min_time": 0.05, "warmup": 0.01,
                            "alpha": 1, "beta": 0, "crossover": False},
                "failures": 0, "errors": [], "skipped": []})
    ctx.update(ctx_extra)
    return {"context": {"date": "2026-11-22T23:00:00+00:00", "host_name": "gpu-fixture",
                        "executable": "build/tgemm-bench-cuda", "num_cpus": 16,
                        "mhz_per_cpu": 2000, "load_avg": [0.5, 0.25, 0.125],
                        "timer": "CUDA events", "tgemm": ctx},
            "benchmarks": bench}


def write(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def more_fixtures():
    lib = {"present": True, "path": "linked statically from build/libtgemm_cuda.a",
           "version": "the commit in the machine record", "threads": 1}
    bench = (ew_entries("tgemm-cuda", "add", "s", 1 << 26, 0, 768 * 2**20 / 2610e6, 2900.0)
             + ew_entries("tgemm-cuda", "scale", "d", 1 << 25, 1, 512 * 2**20 / 2755e6, 2900.0)
             + ew_entries("tgemm-cuda", "activate:gelu_tanh", "s", 1 << 26, 2,
                          512 * 2**20 / 2320e6)
             + ew_entries("tgemm-cuda", "add", "s", 1000, 3, 12000 / 10e6, 2900.0)
             + ew_entries("tgemm-cuda", "add", "b", 1 << 27, 4, 768 * 2**20 / 2700e6, 2900.0))
    write("fixture_gpu_ew_sweep.json", gpu_sweep({
        "command": "tgemm-bench-cuda --device cuda --op add,scale,activate:gelu_tanh --out ew.json",
        "libraries": {"tgemm-cuda": dict(lib, config="tg_cuda_sgemm, the launcher")}}, bench))
    bench, index = [], 0
    for family, sizes in CROSSOVER.items():
        for size, times in sizes.items():
            for way, ms in zip(WAYS, times):
                correct = not (way == "tgemm-cuda+pageable" and size == 2048)
                threads = HOST_THREADS if way == "tgemm-host" else 1
                if family == "add":
                    bench += ew_entries(way, "add", "s", size, index, ms, threads=threads)
                else:
                    bench += gemm_entries(way, (size,) * 3, family, index, ms, correct,
                                          "reference" if size <= 256 else "gpu-dgemm", 0.5,
                                          threads=threads)
                index += 1
    libs = {way: dict(lib, config=way, threads=HOST_THREADS if way == "tgemm-host" else 1)
            for way in WAYS}
    write("fixture_crossover_sweep.json", gpu_sweep({
        "command": "tgemm-bench-cuda --device cuda --crossover --sizes 64:2048:x2 --out cross.json",
        "libraries": libs, "failures": 1,
        "options": {"rounds": 3, "repetitions": 1, "min_time": 0.05, "warmup": 0.01, "alpha": 1,
                    "beta": 0, "crossover": True},
        "errors": ["gemm/tgemm-cuda+pageable/s/row/NN/2048x2048x2048/threads:1: C(2047, 2047): "
                   "ratio >= 16 (worst inf)"]}, bench))


def main():
    libs = {impl: {"present": True, "path": "linked statically from build/libtgemm_cuda.a",
                   "version": "the commit in the machine record", "config": impl, "threads": 1}
            for impl in SHARE}
    for impl in ("cublas", "cublas-tf32"):
        libs[impl].update({"version": "13.1.0", "path": "libcublas (linked)"})
    ctx = dict(MACHINE)
    ctx.update({"command": "tgemm-bench-cuda --device cuda --sizes 256,1000,4096,128x3072x768 "
                           "--out sweep.json",
                "ceilings": "results/nvidia-h100-80gb-hbm3/ceilings.json", "device": DEVICE,
                "libraries": libs, "options": {"rounds": 3, "repetitions": 1, "min_time": 0.05,
                                               "warmup": 0.01, "alpha": 1, "beta": 0},
                "failures": 1,
                "errors": ["gemm/cuda-02-coalesce/s/row/NN/1000x1000x1000/threads:1: C(999, 17): "
                           "ratio >= 16 (worst inf)"], "skipped": []})
    bench = []
    index = 0
    for impl in SHARE:
        for shape in CUBLAS:
            family = "custom" if shape == (128, 3072, 768) else "square"
            if family == "custom" and impl in STEPS_ONLY_SQUARE:
                continue
            bench += entries(impl, shape, family, index)
            index += 1
    sweep = {"context": {"date": "2026-11-22T23:00:00+00:00", "host_name": "gpu-fixture",
                         "executable": "build/tgemm-bench-cuda", "num_cpus": 16,
                         "mhz_per_cpu": 2000, "load_avg": [0.5, 0.25, 0.125],
                         "timer": "CUDA events", "tgemm": ctx},
             "benchmarks": bench}
    write("fixture_gpu_sweep.json", sweep)
    # host<->device: 64 KiB .. 1 GiB by 4; pinned reaches 50 (h2d) and 52 (d2h) GB/s from 64 MiB
    # on (the ceiling is the best there: 55 at 256 MiB for h2d), pageable 12 and 10
    sizes = [64 << 10 << 2 * i for i in range(8)]
    shapes = {"h2d_pinned": (5, 20, 35, 45, 49, 50, 55, 50),
              "d2h_pinned": (6, 21, 36, 46, 50, 52, 52, 52),
              "h2d_pageable": (2, 5, 8, 10, 11, 12, 12, 11),
              "d2h_pageable": (2, 4, 7, 9, 9.5, 10, 10, 10)}
    transfer_sweep = {k: [[w, float(v)] for w, v in zip(sizes, vals)] for k, vals in shapes.items()}
    transfer_gbs = {"h2d_pinned": 55.0, "d2h_pinned": 52.0, "h2d_pageable": 12.0,
                    "d2h_pageable": 10.0}
    sweep_pts = [[4 << 20 << i, v] for i, v in enumerate(
        (7000.0, 7500.0, 7400.0, 5200.0, 3300.0, 3100.0, 3050.0, 3000.0, 3000.0, 3000.0))]
    ceilings = {"machine": MACHINE, "device": DEVICE,
                "command": "tgemm-bench ceilings --device cuda",
                "threads": [{"threads": 1, "peak_gflops": {"s": {"fp32_fma": 51200.0}},
                             "sweep": sweep_pts, "bandwidth_gbs": {"L2": 7500.0, "DRAM": 2900.0},
                             "copy_gbs": 2900.0, "memcpy_gbs": 2800.0,
                             "transfer_sweep": transfer_sweep, "transfer_gbs": transfer_gbs}]}
    write("fixture_gpu_ceilings.json", ceilings)
    more_fixtures()


if __name__ == "__main__":
    main()
