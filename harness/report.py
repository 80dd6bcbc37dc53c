#!/usr/bin/python3
"""tgemm report: turns a sweep (tgemm-bench --out, Google Benchmark JSON with a "tgemm" context) and
the machine's ceilings (tgemm-bench ceilings) into results/<slug>/report.md, its PNG charts, and a
self-contained report.html (the same charts embedded as base64 PNG).

    /usr/bin/python3 harness/report.py --results results/<slug>          (make report)
    /usr/bin/python3 harness/report.py --sweep S.json --ceilings C.json --out DIR

Run it with /usr/bin/python3, Debian's interpreter: the charts need Debian's python3-matplotlib and
python3-numpy, which only that interpreter sees (the `python3` first on PATH may be another one).
Charts are drawn with matplotlib's Agg backend, so no display is needed.

The report is built once as a list of blocks (headings, paragraphs, tables, images) and written
twice, as Markdown and as HTML, so the two never disagree. Numbers come from the median aggregate
of each case; ratios compare cases measured in the same run, which is the only comparison a shared,
noisy machine supports.
"""
import argparse
import base64
import glob
import html
import json
import math
import os
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)

import report_elementwise  # noqa: E402 (harness/, beside this file: the `--op` cases' section)
import report_charts  # noqa: E402 (harness/, beside this file: what the bandwidth charts share)
import report_gpu  # noqa: E402 (harness/, beside this file: the `--device cuda` parts)
import report_crossover  # noqa: E402 (harness/, beside this file: the `--crossover` section)

ELEM_BYTES = {"s": 4, "d": 8}
DTYPE_NAME = {"s": "fp32 (sgemm)", "d": "fp64 (dgemm)"}
LEVELS = ("L1", "L2", "L3", "DRAM")
IMPL_ORDER = ("tgemm", "openblas", "blis", "mkl", "libxsmm", "peak")
# peak: the FMA probe timed as an implementation (--impl ...,peak), a reference, not a library
REFERENCE = "peak"
DTYPE_ORDER = ("s", "d")
AI_FORMULA = ("arithmetic intensity = 2·m·n·k / ((m·k + k·n + 2·m·n) · element size) FLOP/byte: "
              "the FLOPs of the product over the fewest bytes a GEMM must move (read A, B and C, "
              "write C)")


def intensity(m, n, k, dtype):
    return 2.0 * m * n * k / ((m * k + k * n + 2.0 * m * n) * ELEM_BYTES[dtype])


# ---- reading the inputs ----

def load_cases(sweep):
    """One record per (impl, dtype, layout, trans, m, n, k, threads): the median GFLOP/s and time,
    the spread (cv), the correctness fields. Google Benchmark writes aggregates when it repeats; a
    run without them falls back to the median of its iterations."""
    runs = defaultdict(list)
    for b in sweep.get("benchmarks", []):
        if "op" not in b:  # elementwise cases: report_elementwise.py
            runs[b.get("run_name", b["name"])].append(b)
    cases = []
    for name, entries in runs.items():
        agg = {e.get("aggregate_name"): e for e in entries if e.get("run_type") == "aggregate"}
        iters = [e for e in entries if e.get("run_type") != "aggregate"]
        base = agg.get("median") or (iters[0] if iters else entries[0])
        if "median" in agg:
            gflops = agg["median"]["GFLOPS"]
        else:
            gflops = statistics.median(e["GFLOPS"] for e in iters or entries)
        cv = agg["cv"]["real_time"] if "cv" in agg else None
        cases.append({
            "name": name, "impl": base["impl"], "dtype": base["dtype"], "m": base["m"],
            "n": base["n"], "k": base["k"], "trans": base["trans"], "layout": base["layout"],
            "threads": base["threads"], "family": base["family"], "gflops": gflops, "cv": cv,
            "peak_pct": base.get("peak_pct"), "correct": bool(base.get("correct")),
            "max_ratio": base.get("max_ratio"), "check": base.get("check", ""),
            "time": base.get("real_time"), "time_unit": base.get("time_unit", ""),
        })
    return cases


def ceilings_for(ceilings, threads):
    for t in (ceilings or {}).get("threads", []):
        if t.get("threads") == threads:
            return t
    return None


def peak(ceil, dtype):
    """(best ISA name, GFLOP/s) for dtype, or (None, None)."""
    per_isa = {k: v for k, v in (ceil or {}).get("peak_gflops", {}).get(dtype, {}).items() if v}
    if not per_isa:
        return None, None
    isa = max(per_isa, key=per_isa.get)
    return isa, per_isa[isa]


# ---- formatting ----

def fmt(v, digits=3):
    if v is None:
        return "–"
    if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
        return str(v)
    if isinstance(v, float):
        return f"{v:.{digits}g}" if abs(v) < 10 ** digits else f"{v:.0f}"
    return str(v)


def shape(c):
    return f"{c['m']}x{c['n']}x{c['k']}"


# ---- charts ----

def impl_styles(impls):
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "os^Dv<>ph*"
    return {impl: (colors[i % len(colors)], markers[i % len(markers)])
            for i, impl in enumerate(impls)}


def roofline_chart(path, dtype, threads_list, cases, ceilings, styles, gpu=None):
    fig, axes = plt.subplots(1, len(threads_list), figsize=(6.5 * len(threads_list), 5),
                             squeeze=False)
    for ax, threads in zip(axes[0], threads_list):
        pts = [c for c in cases if c["dtype"] == dtype and c["threads"] == threads]
        ais = [intensity(c["m"], c["n"], c["k"], dtype) for c in pts]
        ceil = ceilings_for(ceilings, threads)
        lo = min(ais + [0.1]) / 2
        hi = max(ais + [100.0]) * 2
        _, top = peak(ceil, dtype)
        if ceil:
            xs = [lo, hi]
            for isa, gf in sorted(ceil["peak_gflops"].get(dtype, {}).items(), key=lambda kv: -kv[1]):
                ax.plot(xs, [gf, gf], "-", color="black", lw=1.5 if gf == top else 0.8,
                        alpha=1.0 if gf == top else 0.5)
                ax.annotate(f"{isa} peak {gf:.0f} GFLOP/s", (lo, gf), textcoords="offset points",
                            xytext=(4, 3), fontsize=8)
            for level in LEVELS:
                bw = ceil.get("bandwidth_gbs", {}).get(level)
                if not bw:
                    continue
                # the roof of this level: bandwidth x intensity until it meets the top peak
                knee = top / bw if top else hi
                ax.plot([lo, min(knee, hi)], [bw * lo, bw * min(knee, hi)], "--", color="gray",
                        lw=1)
                ax.annotate(f"{level} {bw:.0f} GB/s", (lo, bw * lo), textcoords="offset points",
                            xytext=(4, -10), fontsize=7, color="dimgray")
        for impl, (color, marker) in styles.items():
            sel = [(a, c) for a, c in zip(ais, pts) if c["impl"] == impl]
            if sel:
                ax.scatter([a for a, _ in sel], [c["gflops"] for _, c in sel], color=color,
                           marker=marker, s=22, label=impl, zorder=3,
                           edgecolors=["red" if not c["correct"] else color for _, c in sel])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_xlabel("arithmetic intensity (FLOP/byte)")
        ax.set_ylabel("GFLOP/s")
        ax.set_title(f"{DTYPE_NAME[dtype]}, {gpu or str(threads) + ' thread' + ('s' if threads > 1 else '')}")
        ax.grid(True, which="both", alpha=0.3)
        if pts:
            ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"Roofline, {DTYPE_NAME[dtype]}: measured ceilings and every (implementation, "
                 "shape)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def size_chart(path, dtype, threads_list, cases, ceilings, styles, variant, gpu=None):
    """GFLOP/s against size: square shapes as lines (x = n), other shapes as hollow markers at the
    cube root of m·n·k, the measured peak on top."""
    fig, axes = plt.subplots(1, len(threads_list), figsize=(6.5 * len(threads_list), 4.5),
                             squeeze=False)
    for ax, threads in zip(axes[0], threads_list):
        sel = [c for c in cases if c["dtype"] == dtype and c["threads"] == threads
               and (c["trans"], c["layout"]) == variant]
        for impl, (color, marker) in styles.items():
            sq = sorted((c for c in sel if c["impl"] == impl and c["family"] == "square"),
                        key=lambda c: c["n"])
            if sq:
                ax.plot([c["n"] for c in sq], [c["gflops"] for c in sq], "-", marker=marker,
                        color=color, ms=4, label=impl)
            other = [c for c in sel if c["impl"] == impl and c["family"] != "square"]
            if other:
                ax.scatter([(c["m"] * c["n"] * c["k"]) ** (1 / 3) for c in other],
                           [c["gflops"] for c in other], marker=marker, facecolors="none",
                           edgecolors=color, s=26,
                           label=None if sq else f"{impl} (non-square)")
        isa, top = peak(ceilings_for(ceilings, threads), dtype)
        if top:
            ax.axhline(top, color="black", lw=1.5)
            ax.annotate(f"measured peak ({isa}) {top:.0f} GFLOP/s", (0.01, top),
                        xycoords=("axes fraction", "data"), textcoords="offset points",
                        xytext=(2, 3), fontsize=8)
            ax.set_ylim(0, max([top] + [c["gflops"] for c in sel]) * 1.15)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n for square shapes; (m·n·k)^(1/3) for the others (hollow)")
        ax.set_ylabel("GFLOP/s")
        ax.set_title(f"{DTYPE_NAME[dtype]}, {gpu or str(threads) + ' thread' + ('s' if threads > 1 else '')}, "
                     f"{variant[0]} {variant[1]}-major")
        ax.grid(True, alpha=0.3)
        if sel:
            ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def bandwidth_chart(path, ceilings):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for t in ceilings.get("threads", []):
        for key, style in (("sweep", "-"), ("sweep_triad", ":")):
            pts = t.get(key) or []
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=".",
                        label=f"{'read' if key == 'sweep' else 'triad'}, {t['threads']} thr")
    caches = ceilings.get("machine", {}).get("caches", {})
    for name, size in (("L1d", caches.get("l1d")), ("L2", caches.get("l2")),
                       ("L3", caches.get("l3"))):
        if size:
            ax.axvline(size, color="gray", lw=0.8, ls="--")
            ax.annotate(name, (size, 0.02), xycoords=("data", "axes fraction"), fontsize=8)
    report_charts.finish_bandwidth_chart(
        fig, ax, path, "working set of all threads (bytes; cache lines: per core L1d/L2, shared L3)",
        "Bandwidth sweep (the roofline's memory ceilings)")


# ---- tables ----

def ratio_rows(cases, vendors):
    """Per dtype, family, threads: the median over matched cases of tgemm's GFLOP/s over the
    vendor's (both the medians of their repetitions), with the number of cases. A case where
    either result was wrong is left out: the speed of a wrong answer means nothing."""
    key = lambda c: (c["dtype"], c["layout"], c["trans"], c["m"], c["n"], c["k"], c["threads"])
    by_impl = defaultdict(dict)
    for c in cases:
        if c["correct"]:
            by_impl[c["impl"]][key(c)] = c
    groups = sorted({(c["dtype"], c["family"], c["threads"]) for c in cases if c["impl"] == "tgemm"},
                    key=lambda g: (DTYPE_ORDER.index(g[0]), g[1], g[2]))
    rows = []
    for dtype, family, threads in groups:
        row = [dtype, family, str(threads)]
        for v in vendors:
            ratios = [c["gflops"] / by_impl[v][k]["gflops"]
                      for k, c in by_impl["tgemm"].items()
                      if k in by_impl[v] and c["family"] == family and k[0] == dtype
                      and k[6] == threads and by_impl[v][k]["gflops"] > 0]
            row.append(f"{statistics.median(ratios):.2f} (n={len(ratios)})" if ratios else "–")
        rows.append(row)
    return rows


def side_by_side_rows(cases, impls, vendors):
    """One row per case (dtype, shape, transposes, layout, threads): each implementation's GFLOP/s
    with its spread, then tgemm over each vendor. A wrong result shows as 'wrong', and no ratio."""
    key = lambda c: (DTYPE_ORDER.index(c["dtype"]), c["threads"], c["family"], c["m"] * c["n"] * c["k"],
                     c["m"], c["n"], c["k"], c["trans"], c["layout"])
    by_case = defaultdict(dict)
    for c in cases:
        by_case[key(c)][c["impl"]] = c
    rows = []
    for k in sorted(by_case):
        got = by_case[k]
        any_c = next(iter(got.values()))
        row = [any_c["dtype"], shape(any_c), any_c["trans"], any_c["layout"], str(any_c["threads"])]
        for impl in impls:
            c = got.get(impl)
            row.append("–" if c is None else "wrong" if not c["correct"] else
                       fmt(c["gflops"]) + (f" ±{c['cv'] * 100:.1f}%" if c["cv"] is not None else ""))
        ours = got.get("tgemm")
        for v in vendors:
            c = got.get(v)
            ok = ours and c and ours["correct"] and c["correct"] and c["gflops"] > 0
            row.append(f"{ours['gflops'] / c['gflops']:.2f}" if ok else "–")
        rows.append(row)
    return rows


def correctness_rows(cases, impls):
    rows = []
    for impl in impls:
        sel = [c for c in cases if c["impl"] == impl]
        bad = [c for c in sel if not c["correct"]]
        ratios = [c["max_ratio"] for c in sel if c["max_ratio"] is not None]
        worst = "inf" if any(c["max_ratio"] is None for c in sel) else fmt(max(ratios, default=None))
        checks = ", ".join(sorted({c["check"] for c in sel if c["check"]}))
        rows.append([impl, str(len(sel)), str(len(bad)),
                     "yes" if not bad else "**NO**: " + ", ".join(
                         f"{c['dtype']} {shape(c)} {c['trans']} t{c['threads']}" for c in bad[:5])
                     + (" …" if len(bad) > 5 else ""),
                     worst, checks])
    return rows


# ---- the document ----

class Doc:
    def __init__(self):
        self.blocks = []

    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def table(self, header, rows):
        self.blocks.append(("table", header, rows))

    def img(self, path, alt):
        self.blocks.append(("img", path, alt))

    def markdown(self):
        out = []
        for b in self.blocks:
            if b[0] == "h":
                out.append("#" * b[1] + " " + b[2])
            elif b[0] == "p":
                out.append(b[1])
            elif b[0] == "table":
                cell = lambda s: str(s).replace("|", "\\|")
                out.append("| " + " | ".join(map(cell, b[1])) + " |")
                out.append("|" + "---|" * len(b[1]))
                out.extend("| " + " | ".join(map(cell, r)) + " |" for r in b[2])
            elif b[0] == "img":
                out.append(f"![{b[2]}]({os.path.basename(b[1])})")
            out.append("")
        return "\n".join(out)

    def html(self, title):
        def inline(s):  # the only Markdown the blocks use: **bold** and `code`
            s = html.escape(s)
            parts = s.split("**")
            s = "".join(f"<b>{x}</b>" if i % 2 else x for i, x in enumerate(parts))
            parts = s.split("`")
            return "".join(f"<code>{x}</code>" if i % 2 else x for i, x in enumerate(parts))

        out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
               f"<title>{html.escape(title)}</title>",
               "<style>body{font-family:sans-serif;max-width:1400px;margin:1em auto;padding:0 1em}"
               "table{border-collapse:collapse;font-size:13px;margin:0.5em 0}"
               "td,th{border:1px solid #bbb;padding:2px 6px;text-align:left}"
               "th{background:#eee}img{max-width:100%}code{background:#f4f4f4}</style>",
               "</head><body>"]
        for b in self.blocks:
            if b[0] == "h":
                out.append(f"<h{b[1]}>{inline(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                out.append(f"<p>{inline(b[1])}</p>")
            elif b[0] == "table":
                out.append("<table><tr>" + "".join(f"<th>{inline(h)}</th>" for h in b[1]) + "</tr>")
                out.extend("<tr>" + "".join(f"<td>{inline(str(c))}</td>" for c in r) + "</tr>"
                           for r in b[2])
                out.append("</table>")
            elif b[0] == "img":
                with open(b[1], "rb") as f:
                    data = base64.b64encode(f.read()).decode("ascii")
                out.append(f"<p><img alt='{html.escape(b[2])}' "
                           f"src='data:image/png;base64,{data}'></p>")
        out.append("</body></html>")
        return "\n".join(out) + "\n"


def gemm_sections(doc, cases, ceilings, out_dir, device=None):
    """The GEMM cases: roofline, GFLOP/s against size, ratios to the vendors (for a GPU sweep, the
    ladder: report_gpu.py), every case."""
    impls = sorted({c["impl"] for c in cases},
                   key=lambda i: (IMPL_ORDER.index(i) if i in IMPL_ORDER
                                  else len(IMPL_ORDER) + report_gpu.rank(i), i))
    gpu = device.get("name") if device else None
    vendors = [i for i in impls if i not in ("tgemm", REFERENCE)]
    # tgemm over the same-sweep peak, beside its ratios to the vendors
    compared = vendors + [REFERENCE] if REFERENCE in impls else vendors
    dtypes = [d for d in ("s", "d") if any(c["dtype"] == d for c in cases)]
    threads_list = sorted({c["threads"] for c in cases})
    variants = sorted({(c["trans"], c["layout"]) for c in cases})
    # lines of the size chart: NN row-major when the sweep has it, else its first variant
    variant = ("NN", "row") if ("NN", "row") in variants else variants[0]
    styles = impl_styles(impls)
    doc.h(2, "Roofline")
    doc.p(f"Each point is one (implementation, shape) at its {AI_FORMULA}. Solid lines: the "
          "measured compute peaks; dashed: the measured bandwidth of each memory level times "
          "the intensity. A point outlined in red failed its correctness check.")
    for dtype in dtypes:
        path = os.path.join(out_dir, f"roofline_{dtype}.png")
        roofline_chart(path, dtype, threads_list, cases, ceilings, styles, gpu)
        doc.img(path, f"roofline {dtype}")

    doc.h(2, "GFLOP/s against size")
    doc.p(f"One line per implementation over the square shapes ({variant[0]}, {variant[1]}-major), "
          "the other shapes as hollow markers; the black line is the measured peak of the best "
          "instruction set for that dtype and thread count.")
    for dtype in dtypes:
        path = os.path.join(out_dir, f"gflops_{dtype}.png")
        size_chart(path, dtype, threads_list, cases, ceilings, styles, variant, gpu)
        doc.img(path, f"GFLOP/s against size, {dtype}")

    if device:
        report_gpu.ladder_section(doc, cases, impls, fmt)
    elif compared and any(c["impl"] == "tgemm" for c in cases):
        doc.h(2, "tgemm against the vendor libraries")
        doc.p("tgemm's GFLOP/s over each library's on the same case (same dtype, shape, "
              "transposes, layout and threads), the median over the cases of the family; above "
              "1 tgemm is faster. n is the number of cases; cases where either result was wrong "
              "are left out."
              + (" tgemm / peak: tgemm's fraction of the FMA peak timed in the same rounds "
                 "(`--impl ...,peak`: the case's FLOPs through the ceilings' FMA probe on its "
                 "threads), a peak measured under the same clock as tgemm." if REFERENCE in compared
                 else ""))
        doc.table(["dtype", "family", "threads"] + [f"tgemm / {v}" for v in compared],
                  ratio_rows(cases, compared))
    else:
        doc.h(2, "tgemm against the vendor libraries")
        doc.p("The sweep holds no pair of tgemm and a vendor library to compare.")

    doc.h(2, "Side by side")
    doc.p("Every case with each implementation's GFLOP/s (median, ± its coefficient of variation "
          "over the repetitions) and tgemm's ratio to each vendor on that case.")
    ours = compared if "tgemm" in impls else []
    doc.table(["dtype", "m x n x k", "trans", "layout", "threads"] + impls
              + [f"tgemm / {v}" for v in ours], side_by_side_rows(cases, impls, ours))

    doc.h(2, "Correctness")
    doc.p("Every case is checked before it is timed: against the fp64 reference by the BLAS "
          "ratio test, or by a randomized product check plus exact sampled rows and columns where "
          "the direct reference is too slow. max ratio is the largest test ratio "
          "(under 16 passes)."
          + (" On the GPU, cases too large for the CPU's reference are checked on every element "
             "against cuBLAS DGEMM on the upcast operands (gpu-dgemm); cublas-tf32 is held to "
             "TF32's eps, 2^-10, instead of FP32's (its checks end in -tf32)." if device else "")
          + (" peak computes no product and is not listed." if REFERENCE in impls else ""))
    doc.table(["implementation", "cases", "failed", "all correct", "max ratio", "checks"],
              correctness_rows(cases, [i for i in impls if i != REFERENCE]))

    doc.h(2, "All cases")
    rows = []
    for c in sorted(cases, key=lambda c: (DTYPE_ORDER.index(c["dtype"]), c["threads"], c["family"], c["m"] * c["n"] * c["k"],
                                          c["trans"], c["layout"], impls.index(c["impl"]))):
        rows.append([c["impl"], c["dtype"], shape(c), c["trans"], c["layout"], str(c["threads"]),
                     c["family"], fmt(intensity(c["m"], c["n"], c["k"], c["dtype"])),
                     fmt(c["gflops"]), fmt(c["cv"] * 100 if c["cv"] is not None else None, 2),
                     fmt(c["peak_pct"]), "yes" if c["correct"] else "**NO**",
                     fmt(c["max_ratio"]) if c["max_ratio"] is not None else "inf", c["check"]])
    doc.table(["impl", "dtype", "m x n x k", "trans", "layout", "threads", "family",
               "FLOP/byte", "GFLOP/s", "cv %", "% of peak", "correct", "max ratio", "check"], rows)


def build(sweep, ceilings, out_dir, sweep_path, ceilings_path):
    ctx = sweep.get("context", {}).get("tgemm", {})
    cases = load_cases(sweep)
    ew_cases = report_elementwise.load_cases(sweep)
    if not cases and not ew_cases:
        raise SystemExit(f"report: {sweep_path} holds no benchmark results")
    dtypes = [d for d in ("s", "d") if any(c["dtype"] == d for c in cases + ew_cases)]
    device = report_gpu.device_of(sweep)
    slug = device.get("slug", "unknown") if device else ctx.get("slug", "unknown")

    doc = Doc()
    doc.h(1, f"tgemm benchmark report: {slug}")
    doc.p(f"Generated by `harness/report.py` from `{os.path.basename(sweep_path)}`"
          + (f" and `{os.path.basename(ceilings_path)}`" if ceilings else "")
          + ". Every number is the median of the repetitions of one case; ratios compare "
          "implementations measured side by side in the same run, each in its own process.")
    doc.h(2, "Machine and run")
    doc.table(["what", "value"], (report_gpu.machine_rows(device, fmt) if device else []) + [
        ["host CPU" if device else "CPU", f"{ctx.get('cpu_model', '?')} ({ctx.get('cores', '?')} CPUs)"],
        ["caches", ", ".join(f"{k} {v // 1024} KiB" for k, v in ctx.get("caches", {}).items())],
        ["ISA", ", ".join(k for k, v in ctx.get("isa", {}).items() if v) or "–"],
        ["tgemm kernel", ctx.get("tgemm_kernel", "–")],
        ["compiler", ctx.get("compiler", "?")],
        ["flags", f"`{ctx.get('cflags', '?')}`"],
        ["commit", ctx.get("commit", "?")],
        ["date", ctx.get("date", "?")],
        ["sweep command", f"`{ctx.get('command', '?')}`"],
        ["ceilings command", f"`{ceilings.get('command', '?')}` ({ceilings.get('machine', {}).get('date', '?')})"
         if ceilings else "no ceilings file: charts show no ceilings"],
        ["load average at the start (1, 5, 15 min)",
         ", ".join(f"{x:.2f}" for x in sweep.get("context", {}).get("load_avg", [])) or "?"],
        ["failures", str(ctx.get("failures", "?"))],
    ])
    doc.h(3, "Libraries")
    lib_rows = []
    for name, lib in ctx.get("libraries", {}).items():
        if lib.get("present"):
            lib_rows.append([name, "yes", lib.get("version", "?"), lib.get("config", ""),
                             lib.get("core", ""), str(lib.get("threads", "")),
                             f"`{lib.get('path', '')}`"])
        else:
            lib_rows.append([name, "absent", "", lib.get("reason", ""), "", "", ""])
    doc.table(["library", "present", "version", "configuration", "core", "threads", "path"],
              lib_rows)

    doc.h(2, "Ceilings (measured)")
    if ceilings and device:
        report_gpu.ceilings_section(doc, ceilings, out_dir, fmt)
    elif ceilings:
        isas = sorted({isa for t in ceilings["threads"] for d in t["peak_gflops"].values()
                       for isa in d})
        header = ["threads", "clock GHz"] + [f"{d} {isa} GFLOP/s" for d in dtypes for isa in isas] \
            + [f"{lvl} GB/s" for lvl in LEVELS] + ["memcpy GB/s"]
        rows = []
        for t in ceilings["threads"]:
            rows.append([str(t["threads"]), fmt(t.get("clock_ghz"))]
                        + [fmt(t["peak_gflops"].get(d, {}).get(isa)) for d in dtypes for isa in isas]
                        + [fmt(t.get("bandwidth_gbs", {}).get(lvl)) for lvl in LEVELS]
                        + [fmt(t.get("copy_gbs"))])
        doc.table(header, rows)
        doc.p("Peaks from independent FMA chains per instruction set; clock from a dependent add "
              "chain; bandwidth from a read-only working-set sweep (memcpy of the DRAM-sized set "
              "counts bytes read plus written). A missing value (–) means the sweep had no point "
              "in that level.")
        path = os.path.join(out_dir, "bandwidth.png")
        bandwidth_chart(path, ceilings)
        doc.img(path, "bandwidth sweep")
    else:
        doc.p("No ceilings file was found; run `make ceilings` to measure them.")

    if report_crossover.is_crossover(sweep):  # its cases ran four ways: one section for them
        report_crossover.section(doc, sweep, out_dir, fmt)
    else:
        if cases:
            gemm_sections(doc, cases, ceilings, out_dir, device)
        if ew_cases:
            report_elementwise.section(doc, ew_cases, ceilings, out_dir, fmt, device)
    for title, key in (("Errors", "errors"), ("Skipped", "skipped")):
        if ctx.get(key):
            doc.p(f"**{title}:** " + "; ".join(f"`{e}`" for e in ctx[key]))

    title = f"tgemm benchmark report: {slug}"
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(doc.markdown())
    with open(os.path.join(out_dir, "report.html"), "w") as f:
        f.write(doc.html(title))


def latest_sweep(results):
    found = [p for p in glob.glob(os.path.join(results, "*.json"))
             if os.path.basename(p) != "ceilings.json"]
    return max(found, key=os.path.getmtime) if found else None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", help="a results/<slug> folder: its newest sweep JSON and its "
                    "ceilings.json in, the report out (make report)")
    ap.add_argument("--sweep", help="the sweep JSON (default: the newest *.json in --results "
                    "other than ceilings.json)")
    ap.add_argument("--ceilings", help="the ceilings JSON (default: --results/ceilings.json)")
    ap.add_argument("--out", help="the folder for report.md, report.html and the charts "
                    "(default: --results)")
    a = ap.parse_args(argv)
    sweep_path = a.sweep or (latest_sweep(a.results) if a.results else None)
    ceil_path = a.ceilings or (os.path.join(a.results, "ceilings.json") if a.results else None)
    out_dir = a.out or a.results
    if not sweep_path or not out_dir:
        ap.error("give --results DIR, or --sweep FILE and --out DIR"
                 + (f" (no sweep JSON in {a.results})" if a.results else ""))
    try:
        with open(sweep_path) as f:
            sweep = json.load(f)
        ceilings = None
        if ceil_path and os.path.exists(ceil_path):
            with open(ceil_path) as f:
                ceilings = json.load(f)
    except (OSError, ValueError) as e:
        print(f"report: cannot read the input: {e}", file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    build(sweep, ceilings, out_dir, sweep_path, ceil_path)
    print(f"report: wrote {os.path.join(out_dir, 'report.md')} and report.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
