# harness/report.mk: the roofline ceilings, the report, `make bench`, and their tests.
# Included by the top-level Makefile.
#
#   make ceilings     measure results/<slug>/ceilings.json again (tgemm-bench ceilings --force)
#   make report       results/<slug>/report.md, report.html and charts from the newest sweep JSON there
#   make bench        everything: packages, build, ceilings (once per machine), a default sweep of
#                     about ten minutes on a 2-core machine, the report (harness/bench.sh). Variables:
#                     BENCH_IMPLS, BENCH_DTYPES, BENCH_SIZES, BENCH_THREADS, BENCH_ARGS (extra sweep
#                     options), e.g. make bench BENCH_SIZES=64,256 BENCH_IMPLS=tgemm,openblas
#   make bench-cpu    the CPU speed table (about 15 minutes here): the large, odd and skinny shapes
#                     of the CPU targets at 1 and all threads against OpenBLAS and BLIS and the FMA
#                     peak timed beside them (--impl peak: tgemm / peak on the same clock), the
#                     small ones also against libxsmm, and every transpose and layout at 2048^3,
#                     five alternating rounds each; sweeps and reports under results/<slug>/cpu/
#   make test-report    the report generator on fixed fixtures, checked in headless Chromium
#   make test-ceilings  the probes' output: structure, caching, bad options (no timing asserted)
#
# The report runs on /usr/bin/python3, Debian's interpreter: it sees python3-matplotlib and
# python3-numpy, which the `python3` first on PATH (PYTHON) may not.
REPORT_PY := /usr/bin/python3
BENCH_IMPLS   ?= tgemm,openblas,blis,mkl,libxsmm
BENCH_DTYPES  ?= s,d
BENCH_SIZES   ?= square,tall-skinny,large-k,gemv
BENCH_THREADS ?= 1,all
BENCH_ARGS    ?=

CPU_SHAPES := 2048,4000,1000,1001,777x1555x333,4096x64x4096,64x4096x64,4096x4096x32,32x32x4096,8x4096x4096
CPU_SMALL  := 8,16,24,32,48,64,96,128,16x768x768,64x256x256

.PHONY: ceilings report bench bench-cpu test-report test-ceilings
# The slug is asked at run time: it needs the binary this target may first build.
TG_SLUG = $$($(BUILD)/tgemm-bench machine --slug)

ceilings: $(BUILD)/tgemm-bench
	$(BUILD)/tgemm-bench ceilings --force --out results/$(TG_SLUG)/ceilings.json

report: $(BUILD)/tgemm-bench
	$(REPORT_PY) harness/report.py --results results/$(TG_SLUG)

bench:
	@BENCH_IMPLS='$(BENCH_IMPLS)' BENCH_DTYPES='$(BENCH_DTYPES)' BENCH_SIZES='$(BENCH_SIZES)' \
	 BENCH_THREADS='$(BENCH_THREADS)' BENCH_ARGS='$(BENCH_ARGS)' REPORT_PY='$(REPORT_PY)' \
	 sh harness/bench.sh '$(MAKE)' '$(BUILD)'

# The three sweeps of bench-cpu, each written with its report under results/<slug>/cpu/<name>.
# libxsmm only on the small shapes: its per-call GEMM is meant for them (a 4000^3 call takes seconds).
BENCH_CPU_shapes  := --impl tgemm,openblas,blis,peak --sizes $(CPU_SHAPES) --threads 1,all
BENCH_CPU_small   := --impl tgemm,openblas,blis,libxsmm --sizes $(CPU_SMALL) --threads 1,all
BENCH_CPU_layouts := --impl tgemm,openblas,blis --sizes 2048 --trans NN,NT,TN,TT --layout row,col \
		     --threads 1
bench-cpu: $(BUILD)/tgemm-bench
	@R=results/$(TG_SLUG)/cpu && mkdir -p $$R && \
	$(foreach s,shapes small layouts,\
	    $(BUILD)/tgemm-bench $(BENCH_CPU_$(s)) --dtype s,d --rounds 5 --out $$R/$(s).json && \
	    $(REPORT_PY) harness/report.py --sweep $$R/$(s).json --ceilings $$R/../ceilings.json \
		--out $$R/$(s) &&) true

test-report:
	@sh harness/tests/report/run.sh $(BUILD)/report-test

test-ceilings: $(BUILD)/tgemm-bench
	@sh harness/tests/report/ceilings_test.sh $(BUILD) $(BUILD)/report-test/ceilings

TEST_RUNS += test-report test-ceilings
