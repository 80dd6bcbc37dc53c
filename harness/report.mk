# harness/report.mk: the roofline ceilings, the report, `make bench`, and their tests.
# Included by the top-level Makefile.
#
#   make ceilings     measure results/<slug>/ceilings.json again (tgemm-bench ceilings --force)
#   make report       results/<slug>/report.md, report.html and charts from the newest sweep JSON there
#   make bench        everything: packages, build, ceilings (once per machine), a default sweep of
#                     about ten minutes on a 2-core machine, the report (harness/bench.sh). Variables:
#                     BENCH_IMPLS, BENCH_DTYPES, BENCH_SIZES, BENCH_THREADS, BENCH_ARGS (extra sweep
#                     options), e.g. make bench BENCH_SIZES=64,256 BENCH_IMPLS=tgemm,openblas
#   make test-report    the report generator on fixed fixtures, checked in headless Chromium
#   make test-ceilings  the probes' output: structure, caching, bad options (no timing asserted)
#
# The report runs on /usr/bin/python3, Debian's interpreter: it sees python3-matplotlib and
# python3-numpy, which the `python3` first on PATH (PYTHON) may not.
REPORT_PY := /usr/bin/python3
BENCH_IMPLS   ?= tgemm,openblas,blis,mkl,libxsmm
BENCH_DTYPES  ?= s,d
BENCH_SIZES   ?= square,tall-skinny,large-k
BENCH_THREADS ?= 1,all
BENCH_ARGS    ?=

.PHONY: ceilings report bench test-report test-ceilings
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

test-report:
	@sh harness/tests/report/run.sh $(BUILD)/report-test

test-ceilings: $(BUILD)/tgemm-bench
	@sh harness/tests/report/ceilings_test.sh $(BUILD) $(BUILD)/report-test/ceilings

TEST_RUNS += test-report test-ceilings
