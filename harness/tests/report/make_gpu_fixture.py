#!/usr/bin/python3
"""Writes the GPU report fixtures beside this file (fixture_gpu_sweep.json, fixture_gpu_ceilings.json):
a small `tgemm-bench --device cuda` sweep and its ceilings, in the exact format of sweep.c and
harness/cuda/ceilings.cu, with numbers chosen so that every figure of the report is known ahead.

    /usr/bin/python3 harness/tests/report/make_gpu_fixture.py

cuBLAS runs 256^3 at 8000 GFLOP/s, 1000^3 at 20000, 4096^3 at 40000 and the linear-layer shape
128x3072x768 at 10000; every other implementation runs at a fixed share of cuBLAS on every case:
naive 5%, coalesce 20%, double_buffer 80%, tgemm-cuda 85%, cublas-tf32 250%. One result is wrong:
cuda-02-coalesce on 1000^3. The ladder steps run the square shapes only; the linear shape has the
launcher, cuBLAS and the TF32 line. The ceilings' host<->device copies reach 55 (pinned, host to
device), 52 (pinned, device to host), 12 and 10 GB/s (pageable) at 64 MiB and more.
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


def entries(impl, shape, family, index):
    m, n, k = shape
    g = CUBLAS[shape] * SHARE[impl]
    wrong = impl == "cuda-02-coalesce" and shape == (1000, 1000, 1000)
    name = f"gemm/{impl}/s/row/NN/{m}x{n}x{k}/threads:1"
    ms = 2.0 * m * n * k / g * 1e-6
    out = []
    for agg, gf, t in (("median", g, ms), ("mean", g, ms), ("stddev", 0.0, 0.0),
                       ("cv", 0.0, 0.01)):
        out.append({"name": f"{name}_{agg}", "family_index": index,
                    "per_family_instance_index": 0, "run_name": name, "run_type": "aggregate",
                    "repetitions": 3, "aggregate_name": agg,
                    "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": 3,
                    "real_time": t, "cpu_time": t, "time_unit": "ms", "GFLOPS": gf,
                    "peak_pct": 100 * gf / 51200.0 if agg != "cv" else gf, "impl": impl,
                    "dtype": "s", "m": m, "n": n, "k": k, "trans": "NN", "layout": "row",
                    "threads": 1, "family": family, "correct": not wrong,
                    "max_ratio": None if wrong else (0.5 if impl != "cublas-tf32" else 0.25),
                    "check": check_of(impl, m, n, k)})
    return out


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
    with open(os.path.join(HERE, "fixture_gpu_sweep.json"), "w") as f:
        json.dump(sweep, f, indent=1)
        f.write("\n")
    # host<->device: 64 KiB .. 1 GiB by 4; pinned reaches 50 (h2d) and 52 (d2h) GB/s from 64 MiB
    # on (the ceiling is the best there: 55 at 256 MiB for h2d), pageable 12 and 10
    sizes = [64 << 10 << 2 * i for i in range(9)]
    shapes = {"h2d_pinned": (5, 20, 35, 45, 49, 50, 55, 50, 50),
              "d2h_pinned": (6, 21, 36, 46, 50, 52, 52, 52, 52),
              "h2d_pageable": (2, 5, 8, 10, 11, 12, 12, 11, 11),
              "d2h_pageable": (2, 4, 7, 9, 9.5, 10, 10, 10, 10)}
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
    with open(os.path.join(HERE, "fixture_gpu_ceilings.json"), "w") as f:
        json.dump(ceilings, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
