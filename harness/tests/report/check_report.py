#!/usr/bin/python3
"""Checks for harness/report.py's output, used by harness/tests/report/run.sh.

    check_report.py outputs DIR      the report made from the fixtures in DIR: every file, every
                                     chart, and the numbers the fixtures were built to give
    check_report.py outputs-ew DIR   the same for the elementwise fixture (fixture_ew_sweep.json)
    check_report.py outputs-ew-stream DIR
                                     the same for fixture_ew_stream_sweep.json, whose cases are set
                                     against the STREAM references timed in the same sweep
    check_report.py gpu DIR          the report made from the GPU fixtures (fixture_gpu_*.json, written
                                     by make_gpu_fixture.py, whose text gives the numbers) in DIR
    check_report.py gpu-ew DIR       the same for the GPU elementwise fixture (fixture_gpu_ew_sweep.json)
    check_report.py crossover DIR    the same for the crossover fixture (fixture_crossover_sweep.json)
    check_report.py nonblank PNG     exit 0 when the image decodes and its pixels are not all alike
    check_report.py inject HTML OUT [--break-first]
                                     copy HTML to OUT with a script that, once the page has
                                     loaded, writes "images N broken B" into the page for headless
                                     Chromium's --dump-dom; --break-first spoils the first chart's
                                     data first, so the test can see the check catch a broken image

Each check prints "ok   what" or "FAIL what"; the exit status is the number of failures (capped).
Run with /usr/bin/python3 (Debian's), which sees python3-matplotlib for decoding the PNGs.

The fixtures (fixture_sweep.json) give each vendor's GFLOP/s as tgemm's divided by a fixed ratio:
openblas 0.50 / 0.75 (s, square, 1 / 2 threads) and 0.90 / 1.25 (d), 0.80 everywhere else; and one
wrong result, blis d 256x256x256 on 2 threads, which the ratios must leave out.
fixture_ew_sweep.json (tgemm-bench --op) gives GB/s at 90% of the matching STREAM ceiling of
fixture_ceilings.json for tgemm on 2^27 elements (openblas's scale 80%, tgemm's GELU on 1 thread
20%, a cache-sized add 192%), one GELU case without ceiling fields (the report must compute 90%
itself from the ceilings file) and one wrong case, add d 1000 on 2 threads.
fixture_ew_stream_sweep.json adds the STREAM references (stream, stream_nt) on 2^27 elements: tgemm
at 90% of the better of their medians on the same case (add s 2 threads: 36 of 38 and 40; add d: 36
of 40, the stream line of 60 being wrong and left out; bias_act at 45 of the 48 that stream got on
bias_act itself, 93.8%, not of the 50 it got on scale, the same pattern), 80% on 1 thread (20 of 25,
not of the 2-thread references), openblas's scale 76% (38 of 50), and one case without references,
activate:relu s on 1 thread, 90% of the ceilings file's copy (18 of 20).
"""
import base64
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import numpy as np  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def png_not_blank(data_or_path):
    """(decoded, width, height, distinct pixel values > 1)."""
    try:
        img = mpimg.imread(data_or_path, format="png")
    except Exception:  # a PNG that does not decode is what this reports, whatever the error
        return False, 0, 0, False
    flat = img.reshape(-1, img.shape[2] if img.ndim == 3 else 1)
    return True, img.shape[1], img.shape[0], bool(np.any(flat != flat[0]))


def read_report(out):
    """report.md and report.html of the report in out ("" for a missing one, and a failed check)."""
    md_path, html_path = os.path.join(out, "report.md"), os.path.join(out, "report.html")
    md = open(md_path).read() if os.path.isfile(md_path) else ""
    page = open(html_path).read() if os.path.isfile(html_path) else ""
    check(bool(md) and bool(page), f"{out}: report.md and report.html written")
    return md, page


def charts_ok(out, md, page, expected):
    """Every chart of report.md is the expected set, decodes, is not blank, and is embedded in
    report.html byte for byte."""
    charts = re.findall(r"!\[[^]]*\]\(([^)]+)\)", md)
    check(sorted(charts) == expected, f"report.md shows the charts {expected} ({charts})")
    for name in charts:
        ok, w, h, varied = png_not_blank(os.path.join(out, name))
        check(ok and w > 0 and h > 0 and varied, f"{name} decodes ({w}x{h}) and is not blank")
    embedded = re.findall(r"src='data:image/png;base64,([^']+)'", page)
    check(len(embedded) == len(charts), f"report.html embeds {len(embedded)} of {len(charts)} charts")
    for name, b64 in zip(charts, embedded):
        same = os.path.isfile(os.path.join(out, name)) and \
            base64.b64decode(b64) == open(os.path.join(out, name), "rb").read()
        check(same, f"report.html's chart for {name} is that PNG, byte for byte")


def in_both(md, page, text, what, header=False):
    """text in report.md, and the same in report.html: a title as <h1>, a table row as its cells
    (<th> for a header row), **bold** as <b>."""
    check(text in md, f"report shows {what}: {text}")
    if text.startswith("# "):
        text = f"<h1>{text[2:]}</h1>"
    elif text.startswith("| "):
        tag = "th" if header else "td"
        text = "".join(f"<{tag}>{cell}</{tag}>" for cell in text.strip("| ").split(" | "))
    text = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", text)
    check(text.replace("`", "") in re.sub(r"</?code>", "", page.replace("&#x27;", "'")),
          f"report.html shows {what}")


def gpu_outputs(out):
    md, page = read_report(out)
    charts_ok(out, md, page, ["bandwidth.png", "gflops_s.png", "roofline_s.png", "transfers.png"])
    for text, what in (
            ("# tgemm benchmark report: nvidia-h100-80gb-hbm3", "the GPU's slug as the title"),
            ("| GPU | NVIDIA H100 80GB HBM3 (compute capability 9.0, 132 SMs) |", "the GPU"),
            ("| GPU memory | 79.2 GiB, 5120-bit bus; L2 50 MiB |", "the GPU's memory and L2"),
            ("| GPU clocks (read as the sweep ended) | SM 1755 MHz now, 1980 MHz max; memory 2619 "
             "MHz now, 2619 MHz max |", "the clocks"),
            ("| driver, CUDA | 580.159.04; CUDA driver API 13.0, runtime 13.0 |", "driver and CUDA"),
            ("| host CPU | Intel(R) Xeon(R) Platinum 8480+ (16 CPUs) |", "the host CPU"),
            ("| commit | fedcba987654 |", "the commit"),
            ("| 51200 | 7500 | 2900 | 2800 | NVIDIA H100 80GB HBM3 |", "the GPU ceilings"),
            ("| 55 | 52 | 12 | 10 |", "host<->device ceilings: pinned and pageable, each way"),
            ("| cuda-01-naive | 400 (5%) | 1000 (5%) | 2000 (5%) |", "ladder: naive"),
            ("| cuda-02-coalesce | 1600 (20%) | wrong | 8000 (20%) |",
             "ladder: coalesce, its wrong case without a speed"),
            ("| cuda-09-double_buffer | 6400 (80%) | 16000 (80%) | 32000 (80%) |",
             "ladder: double_buffer"),
            ("| tgemm-cuda | 6800 (85%) | 17000 (85%) | 34000 (85%) |", "ladder: the launcher"),
            ("| cublas | 8000 (100%) | 20000 (100%) | 40000 (100%) |", "ladder: cuBLAS"),
            ("| cublas-tf32 | 20000 (250%) | 50000 (250%) | 100000 (250%) |", "ladder: TF32 line"),
            ("| 128x3072x768 | custom | 8500 | 10000 | 85% | 25000 |", "launcher vs cuBLAS, linear"),
            ("| 4096x4096x4096 | square | 34000 | 40000 | 85% | 100000 |",
             "launcher vs cuBLAS, 4096"),
            ("| cuda-02-coalesce | 3 | 1 | **NO**: s 1000x1000x1000 NN t1 | inf | gpu-dgemm, "
             "reference |", "correctness: the wrong case"),
            ("| cublas-tf32 | 4 | 0 | yes | 0.25 | gpu-dgemm-tf32, reference-tf32 |",
             "correctness: the TF32 line held to TF32's eps")):
        in_both(md, page, text, what)
    in_both(md, page, "| implementation | 256x256x256 | 1000x1000x1000 | 4096x4096x4096 |",
            "the ladder's shapes (the linear shape, which no step ran, left out)", header=True)
    check(md.index("| cuda-01-naive | 400") < md.index("| cuda-02-coalesce | 1600") <
          md.index("| cuda-09-double_buffer | 6400") < md.index("| tgemm-cuda | 6800") <
          md.index("| cublas | 8000") < md.index("| cublas-tf32 | 20000") if "| cublas-tf32 | 20000"
          in md else False, "ladder rows in the ladder's order, then tgemm-cuda, cublas, cublas-tf32")
    check("tgemm against the vendor libraries" not in md, "no CPU vendor-ratio section")
    check(md.count("| **NO** |") == 1, "all-cases table marks exactly the one wrong case")


def gpu_ew_outputs(out):
    """The elementwise cases of a --device cuda sweep, against the device copy (2900 GB/s)."""
    md, page = read_report(out)
    charts_ok(out, md, page, ["bandwidth.png", "elementwise_b.png", "elementwise_d.png",
                              "elementwise_s.png", "transfers.png"])
    check("## Roofline" not in md and "SGEMM ladder" not in md,
          "GPU elementwise: no GEMM sections")
    for text, what in (
            ("| 2900 | 2800 | 2900 |", "the device copy: kernel, cudaMemcpyAsync, the better"),
            ("| add | s | 67108864 | 768 | 1 | tgemm-cuda | 2610 ±1.0% | 90 | device_copy | yes | 0 "
             "| sampled |", "add on 256 MiB arrays at 90% of the device copy"),
            ("| scale | d | 33554432 | 512 | 1 | tgemm-cuda | 2755 ±1.0% | 95 | device_copy |",
             "scale fp64 at 95%"),
            ("| activate:gelu_tanh | s | 67108864 | 512 | 1 | tgemm-cuda | 2320 ±1.0% | 80 |",
             "GELU's percent found from the ceilings file (the case had none)"),
            ("| add | s | 1000 | 0.0114 | 1 | tgemm-cuda | 10 ±1.0% | 0.345 |", "a tiny add"),
            ("| add | b | 134217728 | 768 | 1 | tgemm-cuda | 2700 ±1.0% | 93.1 | device_copy |",
             "bf16: 2 bytes an element")):
        in_both(md, page, text, what)


def crossover_outputs(out):
    """The crossover section: make_gpu_fixture.py's text gives every number."""
    md, page = read_report(out)
    charts_ok(out, md, page, ["bandwidth.png", "crossover_add_s.png", "crossover_square_s.png",
                              "transfers.png"])
    check("## Roofline" not in md and "SGEMM ladder" not in md and "## Elementwise" not in md,
          "crossover: its own section instead of the GEMM and elementwise ones")
    for text, what in (
            ("Intel(R) Xeon(R) Platinum 8480+, 16 CPUs; tgemm-host on 16 threads",
             "the host CPU named, with its threads"),
            ("on the GPU (NVIDIA H100 80GB HBM3)", "the GPU named"),
            ("| square | s | 64x64x64 .. 2048x2048x2048 | 512x512x512 | 1024x1024x1024 | 34.4x | "
             "34.4x at 2048x2048x2048 |",
             "square: pinned wins from 512 (not 128, lost again at 256), pageable from 1024 (its "
             "wrong 2048 left out), 34.4x on the device"),
            ("| add | s | 10000 .. 100000000 | none up to 100000000 | none up to 100000000 | 25x | "
             "25x at 100000000 |", "add: never wins with copies, 25x on the device"),
            ("| square | s | 128x128x128 | 0.03 | 0.02 | 0.025 | 0.2 | 1.5x | 1.2x | 0.15x |",
             "a case the pinned GPU wins before the crossover"),
            ("| square | s | 256x256x256 | 0.2 | 0.03 | 0.2 | 0.5 | 6.67x | 1x | 0.4x |",
             "a tie, which is no win"),
            ("| square | s | 2048x2048x2048 | 86 | 2.5 | 9 | **wrong** | 34.4x | 9.56x | – |",
             "the wrong result shown as such, no speedup from it"),
            ("| add | s | 100000000 | 10 | 0.4 | 48 | 110 | 25x | 0.208x | 0.0909x |",
             "add on 1e8 elements")):
        in_both(md, page, text, what)
    check(md.count("**wrong**") == 1, "crossover: exactly the one wrong case marked")


def outputs(out):
    md, page = read_report(out)
    charts_ok(out, md, page, ["bandwidth.png", "gflops_d.png", "gflops_s.png", "roofline_d.png",
                              "roofline_s.png"])
    check(not re.search(r"<img[^>]+src=['\"](?!data:)", page), "report.html links no outside file")

    check("2·m·n·k / ((m·k + k·n + 2·m·n) · element size)" in md,
          "report states the arithmetic-intensity formula")
    for row, what in (
            ("| s | square | 1 | 0.50 (n=3) | 0.80 (n=3) |", "s square 1 thread"),
            ("| s | square | 2 | 0.75 (n=3) | 0.80 (n=3) |", "s square 2 threads"),
            ("| d | square | 1 | 0.90 (n=3) | 0.80 (n=3) |", "d square 1 thread"),
            ("| d | square | 2 | 1.25 (n=3) | 0.80 (n=2) |", "d square 2 threads, wrong case out"),
            ("| s | tall-skinny | 1 | 0.80 (n=1) | 0.80 (n=1) |", "s tall-skinny 1 thread")):
        check(row in md, f"ratio table: {what}: {row}")
    check("| dtype | family | threads | tgemm / openblas | tgemm / blis |" in md,
          "ratio table has one column per vendor present, mkl (absent) none")
    check(re.search(r"\| blis \| 20 \| 1 \| \*\*NO\*\*: d 256x256x256 NN t2 \| inf \|", md),
          "correctness: blis's wrong case named, its ratio shown as inf")
    check("| tgemm | 20 | 0 | yes | 1.25 |" in md, "correctness: tgemm all correct")
    check(md.count("| **NO** |") == 1, "all-cases table marks exactly the one wrong case")
    for text, what in (("0123456789ab", "commit"), ("cc (Debian 12.2.0", "compiler"),
                       ("-fopenmp -Icommon -O2 -g", "flags"), ("| openblas | yes | 0.3.21 |",
                       "openblas version"), ("| mkl | absent |", "absent library"),
                       ("--sizes 64,128,256,2048x16x256,128x768x768", "sweep command"),
                       ("`tgemm-bench ceilings`", "ceilings command"),
                       ("2026-11-22T19:05:00Z", "date"),
                       ("| 1 | 3.21 | 102 | 12.8 | 51.2 | 12.8 | 205 | 102 | 77.3 | 18.6 | 15.1 |",
                        "ceilings table, 1 thread")):
        in_both(md, page, text, f"the {what}")


def outputs_ew(out):
    md, page = read_report(out)
    # the bandwidth chart and one chart per dtype, no GEMM chart
    charts_ok(out, md, page, ["bandwidth.png", "elementwise_d.png", "elementwise_s.png"])
    check("## Roofline" not in md and "## Side by side" not in md,
          "elementwise: no GEMM sections for a sweep without GEMMs")
    for row, what in (
            ("| 1 | 20 | 16 | 24 | 25 | 30 | 27 |", "STREAM ceilings, 1 thread"),
            ("| 2 | 35 | 30 | 40 | 38 | 50 | 45 |", "STREAM ceilings, 2 threads"),
            ("| add | s | 134217728 | 1536 | 2 | tgemm | 36 ±2.0% | 90 | add | ceilings file | yes | 0 "
             "| sampled |",
             "add on 2 threads: 1536 MiB moved, 90% of STREAM add"),
            ("| add | s | 1000 | 0.0114 | 1 | tgemm | 48 ±1.0% | 192 | add | ceilings file | yes | 0 "
             "| all |",
             "a cache-sized add above the DRAM ceiling"),
            ("| scale | s | 134217728 | 1024 | 2 | openblas | 40 ±2.0% | 80 | scale_inplace "
             "| ceilings file | yes |",
             "openblas's scale against the in-place probe"),
            ("| activate:gelu_tanh | s | 134217728 | 1024 | 2 | tgemm | 31.5 ±1.0% | 90 | copy "
             "| ceilings file |",
             "GELU's percent computed from the ceilings file (the case had none)"),
            ("| activate:gelu_tanh | s | 134217728 | 1024 | 1 | tgemm | 4 ±1.0% | 20 | copy "
             "| ceilings file | yes | 0.5 |",
             "GELU on 1 thread, its ulps"),
            ("| bias_act:relu | s | 131072x1024 | 1024 | 1 | tgemm | 27 ±1.0% | 90 | scale_inplace "
             "| ceilings file |",
             "bias_act as rows x cols"),
            ("| add | d | 1000 | 0.0229 | 2 | tgemm | 30 ±5.0% | 75 | add | ceilings file | **NO** "
             "| inf | all |",
             "the wrong case marked, its ulps inf")):
        in_both(md, page, row, f"elementwise table: {what}")
    check(md.count("| **NO** |") == 1, "elementwise: exactly the one wrong case marked")
    check("add element 999 is 1.5" in md, "elementwise: the sweep's error listed")
    check("same sweep" not in md.split("| check |", 1)[-1],
          "elementwise: no case claims a same-sweep ceiling without STREAM references")


def outputs_ew_stream(out):
    """The elementwise fixture with the STREAM references: the same-sweep rule, case by case."""
    md, page = read_report(out)
    charts_ok(out, md, page, ["bandwidth.png", "elementwise_d.png", "elementwise_s.png"])
    in_both(md, page, "| op | dtype | size | MiB moved | threads | impl | GB/s | % of ceiling | "
            "ceiling | ceiling from | correct | max ulps | check |", "the table's header", True)
    for row, what in (
            ("| add | s | 134217728 | 1536 | 2 | tgemm | 36 ±1.0% | 90 | add | same sweep | yes | 0 "
             "| sampled |", "add on 2 threads: 90% of stream_nt's 40, the better reference"),
            ("| add | s | 134217728 | 1536 | 2 | stream | 38 ±1.0% | 95 | add | same sweep |",
             "the plain-store reference against the better one"),
            ("| add | s | 134217728 | 1536 | 2 | stream_nt | 40 ±1.0% | 100 | add | same sweep |",
             "the better reference at 100%"),
            ("| add | s | 134217728 | 1536 | 1 | tgemm | 20 ±1.0% | 80 | add | same sweep |",
             "add on 1 thread against the 1-thread references only (25)"),
            ("| scale | s | 134217728 | 1024 | 2 | tgemm | 40 ±1.0% | 80 | scale_inplace "
             "| same sweep |", "scale against stream alone (stream_nt skips in-place patterns)"),
            ("| scale | s | 134217728 | 1024 | 2 | openblas | 38 ±1.0% | 76 | scale_inplace "
             "| same sweep |", "openblas set against the same reference"),
            ("| bias_act:relu | s | 131072x1024 | 1024 | 2 | tgemm | 45 ±1.0% | 93.8 | scale_inplace "
             "| same sweep |", "bias_act against its own case's reference, not scale's better one"),
            ("| add | d | 134217728 | 3072 | 2 | tgemm | 36 ±1.0% | 90 | add | same sweep |",
             "fp64 add against stream_nt, the wrong stream line left out"),
            ("| add | d | 134217728 | 3072 | 2 | stream | 60 ±1.0% | 150 | add | same sweep "
             "| **NO** |", "the wrong reference marked"),
            ("| activate:relu | s | 134217728 | 1024 | 1 | tgemm | 18 ±1.0% | 90 | copy "
             "| ceilings file |", "no references for the case: the ceilings file's copy"),
            ("| activate:relu | s | 134217728 | 1024 | 2 | tgemm | 31.5 ±1.0% | 90 | copy "
             "| same sweep |", "activate against copy's references"),
            ("| 2 | 35 | 30 | 40 | 38 | 50 | 45 |", "the ceilings file's STREAM table, kept")):
        in_both(md, page, row, f"elementwise with references: {what}")
    check(md.count("| **NO** |") == 1, "elementwise with references: one wrong case marked")
    check("--impl tgemm,openblas,stream,stream_nt --rounds 7" in md,
          "elementwise with references: the verdict's command named")


# Runs in the browser: an image counts when it finished loading with a non-zero natural size.
IMAGE_CHECK = """<script>
window.addEventListener("load", function () {
  var all = Array.from(document.images);
  var broken = all.filter(function (i) { return !(i.complete && i.naturalWidth > 0 && i.naturalHeight > 0); });
  var out = document.createElement("pre");
  out.id = "tg-image-check";
  out.textContent = "images " + all.length + " broken " + broken.length;
  document.body.appendChild(out);
});
</script>
"""


def inject(src, dst, break_first):
    page = open(src).read()
    if break_first:
        page = page.replace("data:image/png;base64,iVBOR", "data:image/png;base64,AAAAA", 1)
    open(dst, "w").write(page.replace("</body>", IMAGE_CHECK + "</body>"))


def main(argv):
    reports = {"outputs": outputs, "outputs-ew": outputs_ew, "outputs-ew-stream": outputs_ew_stream,
               "gpu": gpu_outputs,
               "gpu-ew": gpu_ew_outputs, "crossover": crossover_outputs}
    if len(argv) == 2 and argv[0] in reports:
        reports[argv[0]](argv[1])
        return min(failures, 100)
    if len(argv) == 2 and argv[0] == "nonblank":
        ok, w, h, varied = png_not_blank(argv[1])
        print(f"{argv[1]}: decoded {ok}, {w}x{h}, pixels differ: {varied}")
        return 0 if ok and w > 0 and h > 0 and varied else 1
    if len(argv) in (3, 4) and argv[0] == "inject" and argv[3:] in ([], ["--break-first"]):
        inject(argv[1], argv[2], len(argv) == 4)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
