"""The crossover section of the tgemm report (harness/report.py imports it): for a sweep made with
`tgemm-bench --device cuda --crossover`, where every case ran four ways side by side:

    tgemm-host           the CPU library on the GPU machine's host CPU, all its cores
    tgemm-cuda           the GPU on data already on the device, launches queued back to back
                         (CUDA events)
    tgemm-cuda+pinned    the GPU with its inputs copied in from pinned host memory and its output
                         back on every call, synchronised (the host's clock)
    tgemm-cuda+pageable  the same from pageable host memory

For each shape family (a GEMM family such as square, or one elementwise operation) and dtype: a
chart of the time per call against size, one line per way, and a table beside it with the crossover
size of each kind of copy -- the first size from which the GPU with its copies is faster than the
CPU at that size and at every larger one measured -- and the speedup of the GPU on data already on
the device (CPU time over kernel time). Then every case's four times. A case whose result failed its
check is shown as wrong and left out of both: the speed of a wrong answer means nothing.

The section says what one timed call is in each way. The device line is a throughput (each launch
hidden behind the kernel before it), the others are calls that end with the result on the host: so
the crossover compares like with like, while the speedup on the device flatters the GPU at the
smallest sizes for a single call that must wait for its result. A fifth, synchronised line on the
device would measure that; it is left out because the pinned line already bounds it from above at
those sizes, and a fifth way would add a quarter to the crossover run's time on a lent GPU.
"""
import os
import re
from collections import defaultdict

import matplotlib.pyplot as plt

HOST, DEVICE, PINNED, PAGEABLE = "tgemm-host", "tgemm-cuda", "tgemm-cuda+pinned", "tgemm-cuda+pageable"
WAYS = ((HOST, "CPU (host)", "black", "-"),
        (DEVICE, "GPU, data on the device (batched launches)", "tab:green", "-"),
        (PINNED, "GPU + copies, pinned", "tab:blue", "--"),
        (PAGEABLE, "GPU + copies, pageable", "tab:orange", ":"))
DTYPE_NAME = {"s": "fp32", "d": "fp64", "h": "fp16", "b": "bf16"}


def is_crossover(sweep):
    return bool(sweep.get("context", {}).get("tgemm", {}).get("options", {}).get("crossover"))


def load(sweep):
    """{(family, dtype): {size: {way: case}}} from the medians, and each size's label and measure
    (FLOPs of a GEMM, elements of an elementwise case)."""
    groups = defaultdict(lambda: defaultdict(dict))
    for b in sweep.get("benchmarks", []):
        if b.get("aggregate_name") != "median" or b.get("impl") not in {w[0] for w in WAYS}:
            continue
        if "op" in b:
            family = b["op"]
            label = f"{b['rows']}x{b['cols']}" if b["op"].startswith("bias_act") else str(b["elements"])
            measure = b["elements"]
        else:
            variant = "" if (b["trans"], b["layout"]) == ("NN", "row") else f" {b['trans']} {b['layout']}"
            family = b["family"] + variant
            label = f"{b['m']}x{b['n']}x{b['k']}"
            measure = 2.0 * b["m"] * b["n"] * b["k"]
        groups[(family, b["dtype"])][(measure, label)][b["impl"]] = {
            "ms": b["real_time"], "correct": bool(b.get("correct"))}
    return groups


def _ok(way):
    return way is not None and way["correct"] and way["ms"] > 0


def crossover(sizes, by, way):
    """The label of the first size from which `way` beats the CPU at every larger size measured
    (sizes where either result is missing or wrong are left out), or None when it never does."""
    valid = [s for s in sizes if _ok(by[s].get(HOST)) and _ok(by[s].get(way))]
    first = None
    for s in valid:
        wins = by[s][way]["ms"] < by[s][HOST]["ms"]
        if wins and first is None:
            first = s
        elif not wins:
            first = None
    return first[1] if first else None


def wins_from(sizes, by, way, never):
    """The crossover cell of `way`: its crossover size, else `never`; "not measured" when the way
    has no result at any size (skipped, e.g. pinned memory refused: the report's skipped list says
    why), which is not the GPU losing."""
    if not any(by[s].get(way) for s in sizes):
        return "not measured"
    return crossover(sizes, by, way) or never


def speedup(by_size, way):
    """CPU time over `way`'s time at one size, or None."""
    h, w = by_size.get(HOST), by_size.get(way)
    return h["ms"] / w["ms"] if _ok(h) and _ok(w) else None


def chart(path, family, dtype, sizes, by):
    """ms per call against size, a line per way; the crossover sizes as vertical lines."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for way, label, color, style in WAYS:
        pts = [(s[0], by[s][way]["ms"]) for s in sizes if _ok(by[s].get(way))]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", ms=3,
                    color=color, label=label)
        bad = [(s[0], by[s][way]["ms"]) for s in sizes
               if by[s].get(way) and not by[s][way]["correct"]]
        if bad:
            ax.scatter([p[0] for p in bad], [p[1] for p in bad], s=60, facecolors="none",
                       edgecolors="red", zorder=4)
    for way, label, color, style in WAYS[2:]:
        at = crossover(sizes, by, way)
        x = next((s[0] for s in sizes if s[1] == at), None)
        if x is not None:
            ax.axvline(x, color=color, lw=0.8, ls=style)
            ax.annotate(f"{label.split(', ')[1]} wins from {at}", (x, 0.02),
                        xycoords=("data", "axes fraction"), fontsize=7, color=color,
                        rotation=90, ha="right", va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    gemm = not re.match(r"^(add|sub|mul|scale|axpy|activate|bias_act)\b", family)
    ax.set_xlabel("FLOPs per call (2·m·n·k)" if gemm else "elements")
    ax.set_ylabel("ms per call")
    ax.set_title(f"{family}, {DTYPE_NAME.get(dtype, dtype)}: CPU against GPU, copies counted",
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def section(doc, sweep, out_dir, fmt):
    """Appends the crossover section to doc (report.py's Doc); fmt formats numbers."""
    ctx = sweep.get("context", {}).get("tgemm", {})
    host = ctx.get("libraries", {}).get(HOST, {})
    gpu = (ctx.get("device") or {}).get("name", "?")
    groups = load(sweep)
    doc.h(2, "CPU against GPU: where the GPU starts to win")
    doc.p(f"Each case ran four ways, alternating in time: the CPU library on this machine's host CPU "
          f"({ctx.get('cpu_model', '?')}, {ctx.get('cores', '?')} CPUs; tgemm-host on "
          f"{host.get('threads', '?')} threads), and the launcher tgemm-cuda on the GPU ({gpu}) "
          "three ways. Every time is a median of one call's share of a batch of calls made back to "
          "back; what one call is differs:")
    doc.table(["line", "one timed call", "clock"], [
        ["CPU (tgemm-host)", "the CPU library's call on the host's operands, all cores (OpenMP); it "
         "returns finished; operands that fit stay in the host's caches from call to call",
         "host, monotonic"],
        ["GPU, data on the device (tgemm-cuda)", "one asynchronous launch on operands already on "
         "the GPU, rotated through copies spanning twice the L2; nothing waits between calls, so "
         "a launch overlaps the kernels before it (at the smallest sizes the time is the rate of "
         "launches)", "CUDA events around the batch"],
        ["GPU + copies, pinned (tgemm-cuda+pinned)", "the inputs copied in from pinned host memory "
         "(A and B, and C when beta is not zero; an array updated in place), the launch, the output "
         "copied back, then cudaStreamSynchronize: an offload that needs its result on the host",
         "host, monotonic"],
        ["GPU + copies, pageable (tgemm-cuda+pageable)", "the same from pageable (malloc'd) host "
         "memory", "host, monotonic"]])
    doc.p("The crossover is the first size from which the GPU with its copies beats the CPU at that "
          "size and at every larger one measured: both are calls that end with the result on the "
          "host, so it compares like with like. The speedup on the device is the CPU's time over "
          "the batched kernel's: what the GPU gives while the data stays there and kernels follow "
          "one another in a stream. At the smallest sizes it flatters the GPU for a single call "
          "whose result the host waits for: that call also pays its launch and a synchronisation, "
          "which the batch hides behind the kernels and the CPU's call does not pay at all. For "
          "such a call read the pinned line there, which is the same call plus copies of a few "
          "kilobytes: it bounds that cost from above. Once a kernel runs much longer than a "
          "launch, the two readings agree.")
    summary = []
    for (family, dtype) in sorted(groups):
        by = groups[(family, dtype)]
        sizes = sorted(by)
        path = os.path.join(out_dir, f"crossover_{_slug(family)}_{dtype}.png")
        chart(path, family, dtype, sizes, by)
        dev = [(speedup(by[s], DEVICE), s[1]) for s in sizes]
        best = max((d for d in dev if d[0] is not None), default=None)
        # no CPU line at all (the CPU library has no fp16 or bf16): nothing to cross
        never = (f"none up to {sizes[-1][1]}" if any(_ok(by[s].get(HOST)) for s in sizes)
                 else "no CPU result")
        summary.append([family, dtype, f"{sizes[0][1]} .. {sizes[-1][1]}",
                        wins_from(sizes, by, PINNED, never), wins_from(sizes, by, PAGEABLE, never),
                        f"{fmt(dev[-1][0])}x" if dev[-1][0] else "–",
                        f"{fmt(best[0])}x at {best[1]}" if best else "–"])
        doc.img(path, f"crossover {family} {dtype}")
        doc.table(["family", "dtype", "sizes", "GPU + pinned copies wins from",
                   "GPU + pageable copies wins from",
                   "GPU on the device (batched), speedup at the largest",
                   "best speedup on the device (batched)"], [summary[-1]])
    doc.h(3, "Every case")
    rows = []
    for (family, dtype) in sorted(groups):
        by = groups[(family, dtype)]
        for s in sorted(by):
            cells = []
            for way, *_ in WAYS:
                w = by[s].get(way)
                cells.append("–" if w is None else fmt(w["ms"]) if w["correct"] else "**wrong**")
            ups = [speedup(by[s], way) for way in (DEVICE, PINNED, PAGEABLE)]
            rows.append([family, dtype, s[1]] + cells + [f"{fmt(u)}x" if u else "–" for u in ups])
    doc.table(["family", "dtype", "size", "CPU ms", "GPU (batched) ms", "GPU + pinned ms",
               "GPU + pageable ms", "CPU / GPU (batched)", "CPU / (GPU + pinned)",
               "CPU / (GPU + pageable)"], rows)
