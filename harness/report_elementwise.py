"""The elementwise section of the tgemm report (harness/report.py imports it): the cases of a sweep
made with `tgemm-bench --op`, as GB/s against array size per operation with the measured ceilings
drawn, and a table of every case with its percent of the matching ceiling and its check.

GB/s counts the bytes a call must read plus write, as STREAM does (add: 2 reads + 1 write of the
array, scale: 1 + 1, axpy: 2 + 1, activate: 1 + 1, bias_act: 1 + 1 plus the bias). The matching
ceiling is the STREAM kernel with the same pattern of reads and writes. When the sweep timed it
itself -- the references stream and stream_nt (plain and non-temporal stores) on the same case:
operation, dtype, element count and thread count -- a case is set against the better of their
medians: the same method, the same minutes, alternating with the case (the "same sweep" ceiling).
Only the same case's: add, sub and mul share a pattern, but the best of several noisy medians
would be biased upwards. Otherwise it
is the ceilings file's probe at DRAM size and the same thread count (tgemm-bench ceilings,
"stream_gbs": the better of its plain and non-temporal-store variants), measured at another time
with another timer; over arrays that fit a cache, a case can beat it. On a GPU
(`tgemm-bench --device cuda --op`) every case is set against the device-to-device copy of
`tgemm-bench ceilings --device cuda` (the better of its copy kernel and cudaMemcpyAsync): a GPU's
stores read no line first, so the copy is the one bandwidth to reach. Charts are drawn with
matplotlib, whose Agg backend report.py has chosen.
"""
import os
from collections import defaultdict

import matplotlib.pyplot as plt

DTYPE_NAME = {"s": "fp32", "d": "fp64", "h": "fp16", "b": "bf16"}
PATTERN_TEXT = {"add": "STREAM add (2 reads + 1 write)", "copy": "STREAM copy (1 read + 1 write)",
                "axpy_inplace": "in-place a = s·b + a (2 reads + 1 write)",
                "scale_inplace": "in-place a = s·a (1 read + 1 write)",
                "device_copy": "device-to-device copy (1 read + 1 write)"}
OP_ORDER = ("add", "sub", "mul", "scale", "axpy", "activate", "bias_act")
STREAM_KEYS = ("copy", "copy_nt", "add", "add_nt", "scale_inplace", "axpy_inplace")
REFERENCES = ("stream", "stream_nt")  # tgemm-bench's STREAM kernels, timed as implementations


def load_cases(sweep):
    """One record per elementwise case (entries carrying "op"): the median GB/s, the spread, the
    matching ceiling and the check."""
    runs = defaultdict(dict)
    for b in sweep.get("benchmarks", []):
        if "op" in b:
            runs[b.get("run_name", b["name"])][b.get("aggregate_name")] = b
    cases = []
    for name, agg in runs.items():
        base = agg.get("median") or next(iter(agg.values()))
        cases.append({
            "name": name, "impl": base["impl"], "op": base["op"], "dtype": base["dtype"],
            "elements": base["elements"], "rows": base.get("rows"), "cols": base.get("cols"),
            "bytes": base["bytes"], "threads": base["threads"], "gbps": base["GBps"],
            "cv": agg["cv"]["real_time"] if "cv" in agg else None,
            "pattern": base.get("pattern"), "ceiling_gbps": base.get("ceiling_gbps"),
            "ceiling_pct": base.get("ceiling_pct"), "correct": bool(base.get("correct")),
            "max_ulps": base.get("max_ulps"), "check": base.get("check", ""),
        })
    return cases


def stream_ceiling(ceilings, threads, pattern):
    """The better of the plain and non-temporal variants of a STREAM probe, GB/s, or None; for
    "device_copy" the better of the GPU's copy kernel and cudaMemcpyAsync."""
    for t in (ceilings or {}).get("threads", []):
        if t.get("threads") == threads:
            if pattern == "device_copy":
                vals = [v for v in (t.get("copy_gbs"), t.get("memcpy_gbs")) if v]
            else:
                s = t.get("stream_gbs") or {}
                vals = [v for v in (s.get(pattern), s.get(pattern + "_nt")) if v]
            return max(vals) if vals else None
    return None


def op_key(op):
    base = op.split(":")[0]
    return (OP_ORDER.index(base) if base in OP_ORDER else len(OP_ORDER), op)


def same_sweep_ceilings(cases):
    """The better median GB/s of the STREAM references that ran correctly, per case (operation,
    dtype, elements, threads)."""
    best = {}
    for c in cases:
        if c["impl"] in REFERENCES and c["correct"] and c["pattern"] and c["gbps"]:
            k = (c["op"], c["dtype"], c["elements"], c["threads"])
            best[k] = max(best.get(k, 0), c["gbps"])
    return best


def fill_ceilings(cases, ceilings):
    """Each case's ceiling and where it comes from ("ceiling_from"): the better of the STREAM
    references of the same sweep on the same case when there are any, else
    the ceilings file's (the sweep's, or the report's when the sweep had none). On a GPU only the
    cases timed on the device get one (the crossover mode's other lines include copies or run on
    the host, which the device copy does not bound)."""
    same = same_sweep_ceilings(cases)
    for c in cases:
        c["ceiling_from"] = None
        if c["pattern"] == "device_copy" and c["impl"] != "tgemm-cuda":
            continue
        ref = same.get((c["op"], c["dtype"], c["elements"], c["threads"]))
        if ref:
            c["ceiling_gbps"], c["ceiling_pct"] = ref, 100 * c["gbps"] / ref
            c["ceiling_from"] = "same sweep"
            continue
        if c["ceiling_gbps"] is None and c["pattern"]:
            c["ceiling_gbps"] = stream_ceiling(ceilings, c["threads"], c["pattern"])
            if c["ceiling_gbps"]:
                c["ceiling_pct"] = 100 * c["gbps"] / c["ceiling_gbps"]
        if c["ceiling_gbps"]:
            c["ceiling_from"] = "ceilings file"


def chart(path, dtype, cases, ceilings, impls):
    """GB/s against the bytes a call moves: a row per operation, a column per thread count, a line
    per implementation; the matching STREAM ceiling solid, the read-only L2/L3/DRAM plateaus
    dashed, the cache sizes dotted."""
    ops = sorted({c["op"] for c in cases if c["dtype"] == dtype}, key=op_key)
    threads_list = sorted({c["threads"] for c in cases if c["dtype"] == dtype})
    fig, axes = plt.subplots(len(ops), len(threads_list), squeeze=False, sharex=True,
                             figsize=(6 * len(threads_list), 3.3 * len(ops)))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    caches = (ceilings or {}).get("machine", {}).get("caches", {})
    for r, op in enumerate(ops):
        for col, threads in enumerate(threads_list):
            ax = axes[r][col]
            sel = [c for c in cases if c["dtype"] == dtype and c["op"] == op and c["threads"] == threads]
            top = 0
            for i, impl in enumerate(impls):
                pts = sorted((c for c in sel if c["impl"] == impl), key=lambda c: c["bytes"])
                if pts:
                    ax.plot([c["bytes"] for c in pts], [c["gbps"] for c in pts], "-o", ms=3,
                            color=colors[i % len(colors)], label=impl)
                    ax.scatter([c["bytes"] for c in pts if not c["correct"]],
                               [c["gbps"] for c in pts if not c["correct"]], s=60,
                               facecolors="none", edgecolors="red", zorder=4)
                    top = max([top] + [c["gbps"] for c in pts])
            pattern = sel[0]["pattern"] if sel else None
            ceil = stream_ceiling(ceilings, threads, pattern) if pattern else None
            gpu = pattern == "device_copy"
            if ceil:
                ax.axhline(ceil, color="black", lw=1.5)
                ax.annotate(f"{'device copy' if gpu else 'DRAM ' + pattern} {ceil:.1f} GB/s",
                            (0.01, ceil),
                            xycoords=("axes fraction", "data"), textcoords="offset points",
                            xytext=(2, 3), fontsize=7)
                top = max(top, ceil)
            level_bw = next((t.get("bandwidth_gbs", {}) for t in (ceilings or {}).get("threads", [])
                             if t.get("threads") == threads), {})
            for level in ("L2", "L3", "DRAM"):
                bw = level_bw.get(level)
                if bw:
                    ax.axhline(bw, color="gray", lw=0.8, ls="--")
                    ax.annotate(f"{level} read {bw:.0f}", (0.99, bw), xycoords=("axes fraction", "data"),
                                textcoords="offset points", xytext=(-2, 2), fontsize=7,
                                color="dimgray", ha="right")
                    top = max(top, bw)
            sizes = ({"l2": (ceilings or {}).get("device", {}).get("l2_bytes")} if gpu
                     else caches)  # the GPU's L2, or the CPU's caches
            for name in ("l2", "l3"):
                size = sizes.get(name)
                if size:
                    size *= threads if name == "l2" and not gpu else 1  # L2 per core, L3 shared
                    ax.axvline(size, color="gray", lw=0.8, ls=":")
                    ax.annotate(name.upper(), (size, 0.02), xycoords=("data", "axes fraction"),
                                fontsize=7, color="dimgray")
            ax.set_xscale("log", base=2)
            ax.set_ylim(0, top * 1.15 if top else 1)
            ax.set_xlabel("bytes read + written per call")
            ax.set_ylabel("GB/s")
            where = "GPU" if gpu else f"{threads} thread{'s' if threads > 1 else ''}"
            ax.set_title(f"{op}, {DTYPE_NAME[dtype]}, {where}", fontsize=9)
            ax.grid(True, alpha=0.3)
            if sel:
                ax.legend(fontsize=7, loc="lower right")
            else:
                ax.text(0.5, 0.5, "not measured", transform=ax.transAxes, ha="center")
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


def section(doc, cases, ceilings, out_dir, fmt, device=None):
    """Appends the elementwise section to doc (report.py's Doc); fmt formats numbers; device is the
    GPU record of a --device cuda sweep."""
    impls = sorted({c["impl"] for c in cases}, key=lambda i: (i not in ("tgemm", "tgemm-cuda"), i))
    dtypes = [d for d in DTYPE_NAME if any(c["dtype"] == d for c in cases)]
    fill_ceilings(cases, ceilings)
    doc.h(2, "Elementwise operations")
    if device:
        doc.p("GB/s counts the bytes a call must read plus write, as STREAM does (add: 2 reads + 1 "
              "write, scale: 1 + 1, axpy: 2 + 1, activate: 1 + 1, bias_act: 1 + 1 plus the bias), "
              "timed with CUDA events on arrays already on the GPU. Every case is set against the "
              "device-to-device copy measured by `tgemm-bench ceilings --device cuda` (the better "
              "of its copy kernel and cudaMemcpyAsync, bytes read plus written): a GPU's stores "
              "read no line first, so the copy is the ceiling of every pattern. Arrays that fit "
              "the L2 can beat it.")
        t = next(iter((ceilings or {}).get("threads", [])), {})
        if t.get("copy_gbs") or t.get("memcpy_gbs"):
            doc.table(["copy kernel GB/s", "cudaMemcpyAsync GB/s", "ceiling GB/s"],
                      [[fmt(t.get("copy_gbs")), fmt(t.get("memcpy_gbs")),
                        fmt(stream_ceiling(ceilings, t.get("threads"), "device_copy"))]])
        else:
            doc.p("No GPU ceilings file: measure it with `tgemm-bench ceilings --device cuda` to "
                  "get the percent of the device copy.")
    else:
        cpu_intro(doc, ceilings, fmt)
    _charts_and_table(doc, cases, ceilings, out_dir, fmt, impls, dtypes, not device)


def cpu_intro(doc, ceilings, fmt):
    doc.p("GB/s counts the bytes a call must read plus write, as STREAM does (add: 2 reads + 1 "
          "write, scale: 1 + 1, axpy: 2 + 1, activate: 1 + 1, bias_act: 1 + 1 plus the bias). "
          "The matching ceiling is the measured STREAM kernel with the same pattern of reads and "
          "writes at DRAM size and the same thread count (the better of plain and non-temporal "
          "stores): add, sub and mul against STREAM add; activate against STREAM copy; axpy "
          "against an in-place a = s·b + a; scale and bias_act against an in-place a = s·a. "
          "Arrays that fit a cache can beat it. Where the sweep timed the same kernels itself "
          "(`--impl ...,stream,stream_nt`: the STREAM kernel of each case's pattern over the "
          "case's own arrays, split over its threads as STREAM splits it, timed like every "
          "implementation, alternating with them), a case's percent is of the better of their "
          "medians on the same case (ceiling from: same sweep); "
          "otherwise of the ceilings file below (ceiling from: ceilings file), which was "
          "measured at another time, by per-thread CPU time and the best of repeats. The CPU "
          "verdict is `build/tgemm-bench --op add,sub,mul,scale,axpy,activate:relu,"
          "bias_act:relu --dtype s,d --sizes 2^27 --threads 2 --impl "
          "tgemm,openblas,stream,stream_nt --rounds 7`.")
    if ceilings and any(t.get("stream_gbs") for t in ceilings.get("threads", [])):
        rows = [[str(t["threads"])] + [fmt((t.get("stream_gbs") or {}).get(k)) for k in STREAM_KEYS]
                for t in ceilings["threads"]]
        doc.table(["threads"] + [f"{k} GB/s" for k in STREAM_KEYS], rows)
    else:
        doc.p("The ceilings file has no STREAM probes (`stream_gbs`): measure them again with "
              "`make ceilings` to get the percent of the matching ceiling.")


def _charts_and_table(doc, cases, ceilings, out_dir, fmt, impls, dtypes, cpu):
    for dtype in dtypes:
        path = os.path.join(out_dir, f"elementwise_{dtype}.png")
        chart(path, dtype, cases, ceilings, impls)
        doc.img(path, f"elementwise GB/s against size, {dtype}")
    rows = []
    for c in sorted(cases, key=lambda c: (op_key(c["op"]), c["dtype"] != "s", c["elements"],
                                          c["threads"], impls.index(c["impl"]))):
        size = f"{c['rows']}x{c['cols']}" if c["op"].startswith("bias_act") else str(c["elements"])
        rows.append([c["op"], c["dtype"], size, fmt(c["bytes"] / 2 ** 20), str(c["threads"]),
                     c["impl"], fmt(c["gbps"]) + (f" ±{c['cv'] * 100:.1f}%" if c["cv"] is not None
                                                  else ""),
                     fmt(c["ceiling_pct"]), c["pattern"] or "–"]
                    + ([c["ceiling_from"] or "–"] if cpu else [])
                    + ["yes" if c["correct"] else "**NO**",
                       fmt(c["max_ulps"]) if c["max_ulps"] is not None else "inf", c["check"]])
    doc.table(["op", "dtype", "size", "MiB moved", "threads", "impl", "GB/s", "% of ceiling",
               "ceiling"] + (["ceiling from"] if cpu else []) + ["correct", "max ulps", "check"],
              rows)
    doc.p("Checked before timing: add, sub, mul, scale, ReLU and the plain bias exactly, axpy to a "
          "fused or an unfused multiply-add, the other activations within 16 ulps of a long double "
          "reference (fp16 and bf16, computed in fp32: within 1 ulp of the fp32 result rounded to "
          "the type); every element up to 2^22 elements (check: all), else both ends, the thread "
          "split points and random elements (check: sampled)."
          + (" The STREAM references compute no operation: each is checked against its own loop "
             "(a copy equals its source, add is x + y, the in-place updates s·a and s·b + a), "
             "exactly." if cpu else ""))
