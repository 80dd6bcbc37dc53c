"""The GPU parts of the tgemm report (harness/report.py imports it): for a sweep made with
`tgemm-bench --device cuda` (its context carries "device", the GPU record of harness/cuda/device.cu).

    the GPU in the machine table: name, compute capability, SMs, L2, memory, clocks, driver, CUDA
    the GPU ceilings (tgemm-bench ceilings --device cuda): the FP32 FMA peak, L2 bandwidth, DRAM
        bandwidth by a copy kernel beside cudaMemcpyAsync of the same bytes, and the read sweep;
        host<->device bandwidth each way from pinned and pageable memory, and its size sweep
    the ladder: each SGEMM ladder step's GFLOP/s and percent of cuBLAS (FP32, no TF32) on the same
        case, one column per shape, the steps in order, so the table reads as a learning progression;
        then the launcher (tgemm-cuda) against cuBLAS on every shape both ran
The roofline and GFLOP/s charts are report.py's own, drawn against the GPU ceilings. A percent is
only given where both results were correct: the speed of a wrong answer means nothing.
"""
import os
import re
from collections import defaultdict

import matplotlib.pyplot as plt

import report_charts

LAUNCHER, CUBLAS, TF32 = "tgemm-cuda", "cublas", "cublas-tf32"


def rank(impl):
    """Ladder steps in their order, then the launcher, cuBLAS and its TF32 line; others after."""
    m = re.match(r"cuda-(\d+)-", impl)
    if m:
        return int(m.group(1))
    return {LAUNCHER: 1000, CUBLAS: 1001, TF32: 1002}.get(impl, 2000)


def device_of(sweep):
    """The GPU record of a --device cuda sweep, or None for a CPU sweep."""
    return sweep.get("context", {}).get("tgemm", {}).get("device")


def machine_rows(device, fmt):
    mib = lambda b: f"{b / 2**20:.0f} MiB" if b else "?"
    clocks = (f"SM {fmt(device.get('sm_clock_now_mhz'))} MHz now, "
              f"{fmt(device.get('sm_clock_max_mhz'))} MHz max; memory "
              f"{fmt(device.get('memory_clock_now_mhz'))} MHz now, "
              f"{fmt(device.get('memory_clock_max_mhz'))} MHz max")
    return [
        ["GPU", f"{device.get('name', '?')} (compute capability "
                f"{device.get('compute_capability', '?')}, {device.get('sms', '?')} SMs)"],
        ["GPU memory", f"{device.get('memory_bytes', 0) / 2**30:.1f} GiB, "
                       f"{device.get('memory_bus_bits', '?')}-bit bus; L2 "
                       f"{mib(device.get('l2_bytes'))}"],
        ["GPU clocks (read as the sweep ended)", clocks],
        ["driver, CUDA", f"{device.get('driver_version') or '?'}; CUDA driver API "
                         f"{device.get('cuda_driver', '?')}, runtime "
                         f"{device.get('cuda_runtime', '?')}"],
        ["NVIDIA_TF32_OVERRIDE", device.get("NVIDIA_TF32_OVERRIDE") or "not set (cublas computes "
                                                                        "in FP32)"],
    ]


def ceilings_section(doc, ceilings, out_dir, fmt):
    """The GPU ceilings table and the read sweep chart."""
    t = ceilings["threads"][0]
    bw = t.get("bandwidth_gbs", {})
    doc.table(["FP32 FMA GFLOP/s", "L2 GB/s (read)", "DRAM GB/s (copy kernel)",
               "cudaMemcpyAsync GB/s", "device"],
              [[fmt(t["peak_gflops"]["s"].get("fp32_fma")), fmt(bw.get("L2")), fmt(bw.get("DRAM")),
                fmt(t.get("memcpy_gbs")), ceilings.get("device", {}).get("name", "?")]])
    doc.p("FP32 FMA: 8 independent FMA chains per thread, 8 blocks of 256 threads per SM. DRAM: a "
          "copy kernel over 1 GiB, bytes read plus written, measured in the same run as "
          "cudaMemcpyAsync device-to-device of the same bytes (the probe should not be slower). "
          "L2: the best read rate over a working set of at most half the L2. Each the best of "
          "five runs of at least 20 ms, timed with CUDA events.")
    path = os.path.join(out_dir, "bandwidth.png")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    pts = t.get("sweep") or []
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", marker=".", label="read kernel")
    ax.axhline(t.get("copy_gbs") or 0, color="gray", ls=":", lw=1, label="copy kernel (1 GiB)")
    ax.axhline(t.get("memcpy_gbs") or 0, color="black", ls="--", lw=1,
               label="cudaMemcpyAsync (1 GiB)")
    l2 = ceilings.get("device", {}).get("l2_bytes")
    if l2:
        ax.axvline(l2, color="gray", lw=0.8, ls="--")
        ax.annotate("L2", (l2, 0.02), xycoords=("data", "axes fraction"), fontsize=8)
    report_charts.finish_bandwidth_chart(fig, ax, path, "working set (bytes)",
                                         "GPU bandwidth sweep (the roofline's memory ceilings)")
    doc.img(path, "GPU bandwidth sweep")
    if t.get("transfer_gbs"):
        transfers_section(doc, t, out_dir, fmt)


TRANSFERS = (("h2d_pinned", "host to device, pinned"), ("d2h_pinned", "device to host, pinned"),
             ("h2d_pageable", "host to device, pageable"),
             ("d2h_pageable", "device to host, pageable"))


def transfers_section(doc, t, out_dir, fmt):
    """Host<->device bandwidth: the ceilings (best rate at 64 MiB and more) and the size sweep."""
    tg = t["transfer_gbs"]
    doc.table([f"{what} GB/s" for _, what in TRANSFERS], [[fmt(tg.get(k)) for k, _ in TRANSFERS]])
    doc.p("Host<->device: cudaMemcpyAsync each way between device memory and pinned "
          "(cudaMallocHost) or pageable (malloc'd, touched) host memory, bytes counted once; each "
          "figure is the best rate over copies of 64 MiB and more (the best of five runs of at "
          "least 20 ms each). These bound what an offload pays to move its operands.")
    path = os.path.join(out_dir, "transfers.png")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for key, what in TRANSFERS:
        pts = (t.get("transfer_sweep") or {}).get(key) or []
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", marker=".", label=what)
    report_charts.finish_bandwidth_chart(fig, ax, path, "bytes per copy",
                                         "host<->device copies (cudaMemcpyAsync)", ylog=False)
    doc.img(path, "host-device transfer sweep")


def _label(c):
    variant = "" if (c["trans"], c["layout"]) == ("NN", "row") else f" {c['trans']} {c['layout']}"
    return f"{c['m']}x{c['n']}x{c['k']}{variant}"


def _key(c):
    return (c["m"] * c["n"] * c["k"], c["m"], c["n"], c["k"], c["trans"], c["layout"])


def _cell(c, ref, fmt):
    if c is None:
        return "–"
    if not c["correct"]:
        return "wrong"
    pct = (f" ({100 * c['gflops'] / ref['gflops']:.0f}%)"
           if ref and ref["correct"] and ref["gflops"] > 0 else "")
    return fmt(c["gflops"]) + pct


def ladder_section(doc, cases, impls, fmt):
    by = defaultdict(dict)
    for c in cases:
        by[_key(c)][c["impl"]] = c
    steps = [i for i in impls if re.match(r"cuda-\d+-", i)]
    doc.h(2, "The SGEMM ladder")
    ladder_shapes = sorted(k for k in by if any(s in by[k] for s in steps))
    if ladder_shapes:
        doc.p("GFLOP/s of each step of the ladder (cuda/sgemm/, one idea per step), with its "
              "percent of cuBLAS (cublasGemmEx, FP32 compute, no TF32) on the same case in "
              "parentheses; read down a column to see what each idea buys. tgemm-cuda is the "
              "launcher (its kernel chosen by shape); cublas-tf32 is a reference line for the "
              "tensor cores on TF32-rounded inputs, not an FP32 result (it can pass the FP32 FMA "
              "roof, which does not bound the tensor cores). 'wrong': the result failed its "
              "check.")
        rows = []
        for impl in [i for i in impls if i in steps or i in (LAUNCHER, CUBLAS, TF32)]:
            rows.append([impl] + [_cell(by[k].get(impl), by[k].get(CUBLAS), fmt)
                                  for k in ladder_shapes])
        header = ["implementation"] + [_label(next(iter(by[k].values()))) for k in ladder_shapes]
        doc.table(header, rows)
    else:
        doc.p("The sweep holds no ladder step.")
    both = sorted(k for k in by if LAUNCHER in by[k] and CUBLAS in by[k])
    doc.h(3, "tgemm-cuda against cuBLAS")
    if not both:
        doc.p("The sweep holds no case that both tgemm-cuda and cublas ran.")
        return
    doc.p("Every case both ran: the launcher's GFLOP/s, cuBLAS's, the launcher's percent of "
          "cuBLAS (both correct), and the TF32 line where it ran.")
    rows = []
    for k in both:
        t, b = by[k][LAUNCHER], by[k][CUBLAS]
        ok = t["correct"] and b["correct"] and b["gflops"] > 0
        rows.append([_label(t), t["family"], _cell(t, None, fmt), _cell(b, None, fmt),
                     f"{100 * t['gflops'] / b['gflops']:.0f}%" if ok else "–",
                     _cell(by[k].get(TF32), None, fmt)])
    doc.table(["m x n x k", "family", "tgemm-cuda GFLOP/s", "cublas GFLOP/s",
               "tgemm-cuda / cublas", "cublas-tf32 GFLOP/s"], rows)
