# harness/: tgemm-bench (sweeps, workers, vendor adapters), tgemm-gbench, and their tests.
# Included by the top-level Makefile. Builds only under build/ (objects in build/harness/).
#
#   make harness         build/tgemm-bench (+ build/harness/libtg_xsmm.so when libxsmm-dev is installed)
#   make gbench          build/tgemm-gbench, plain Google Benchmark over tg_sgemm/tg_dgemm (+ OpenBLAS)
#   make test-harness    the harness's tests (part of `make test`)
#   make test-harness-elementwise   the same for the elementwise cases (--op; part of `make test`)
#   make ab-gemm         build/ab-gemm: builds of libtgemm.so (and vendors) side by side in one
#                        process, for one kernel change (not a test; see tools/ab_gemm.c)
#   make time-split      build/time-split: where one large GEMM's time goes, from the FMA peak
#                        through the micro-kernel and the caches to the call (tools/time_split.c)
#
# Needs Debian's libbenchmark-dev. OpenBLAS, BLIS, MKL and libxsmm are all optional: they are opened
# at run time. harness/ceilings.c (the roofline probes, written by the report side) is linked when it
# exists; main.c finds harness/ceilings.h by __has_include.

HARNESS_OBJ   := $(BUILD)/harness/obj
HARNESS_CSRC  := $(filter-out harness/xsmm_adapter.c,$(wildcard harness/*.c))
HARNESS_OBJS  := $(HARNESS_CSRC:harness/%.c=$(HARNESS_OBJ)/%.o) $(HARNESS_OBJ)/worker.o \
                 $(HARNESS_OBJ)/reference.o
HARNESS_HDRS  := $(wildcard harness/*.h) $(BUILD)/harness/stamp.h
# -fopenmp: the STREAM references of the elementwise cases split their kernel as STREAM does.
HARNESS_CFLAGS := -std=c11 $(WARN) -fopenmp -Icommon -Iharness -I$(BUILD)/harness $(CFLAGS)
HARNESS_CXXFLAGS := -std=c++17 -Wall -Wextra -Wshadow $(WERROR) -Icommon -Iharness $(CFLAGS)
HARNESS_LIBS  := $(BUILD)/libtgemm.a -lbenchmark -lpthread -ldl -lm
# libxsmm-dev ships static archives only: wrap them in a shared adapter the workers can dlopen.
XSMM_ARCHIVES := $(wildcard /usr/lib/libxsmm.a) $(wildcard /usr/lib/libxsmmnoblas.a)
XSMM_ADAPTER  := $(if $(word 2,$(XSMM_ARCHIVES)),$(BUILD)/harness/libtg_xsmm.so)

.PHONY: harness gbench test-harness tg-harness-force ab-gemm time-split
ab-gemm: $(BUILD)/ab-gemm
time-split: $(BUILD)/time-split
$(BUILD)/ab-gemm: tools/ab_gemm.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $< -ldl -o $@
# time-split calls the library's internal kernels (cpu/cpu.h), so it links the static library.
$(BUILD)/time-split: tools/time_split.c $(BUILD)/libtgemm.a $(HARNESS_OBJ)/ceilings_probes.o \
	    cpu/cpu.h common/internal.h harness/ceilings.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -fopenmp -Icommon -Icpu -Iharness $< \
	    $(HARNESS_OBJ)/ceilings_probes.o $(BUILD)/libtgemm.a -lm -o $@
harness: $(BUILD)/tgemm-bench $(XSMM_ADAPTER) $(BUILD)/ab-gemm $(BUILD)/time-split

# The build's compiler, flags and commit, for `tgemm-bench machine`; rewritten only when they change.
# TGEMM_COMMIT=<id> names the commit where git cannot (a copy of the tree without .git, as on the
# lent GPU machine).
$(BUILD)/harness/stamp.h: tg-harness-force
	@mkdir -p $(dir $@)
	@{ printf '#define TG__STAMP_COMPILER "%s"\n' "$$($(CC) --version | head -n 1)"; \
	   printf '#define TG__STAMP_CFLAGS "%s"\n' "$(LIBFLAGS)"; \
	   commit=$$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown); \
	   printf '#define TG__STAMP_COMMIT "%s"\n' "$${TGEMM_COMMIT:-$$commit}"; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(HARNESS_OBJ)/%.o: harness/%.c $(HARNESS_HDRS) common/api.h common/internal.h common/reference.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(HARNESS_OBJ)/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(HARNESS_OBJ)/%.o: harness/%.cc $(HARNESS_HDRS)
	@mkdir -p $(dir $@)
	$(CXX) $(HARNESS_CXXFLAGS) -c $< -o $@

$(BUILD)/tgemm-bench: $(HARNESS_OBJS) $(BUILD)/libtgemm.a | $(XSMM_ADAPTER)
	$(CXX) -fopenmp -o $@ $(HARNESS_OBJS) $(HARNESS_LIBS)

$(BUILD)/harness/libtg_xsmm.so: harness/xsmm_adapter.c common/api.h $(XSMM_ARCHIVES)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -Icommon $(CFLAGS) -fPIC -shared -o $@ $< $(XSMM_ARCHIVES) \
	    -lpthread -lm -ldl -lrt

gbench: $(BUILD)/tgemm-gbench
$(BUILD)/tgemm-gbench: $(HARNESS_OBJ)/gbench.o $(HARNESS_OBJ)/vendors.o $(HARNESS_OBJ)/json.o \
                       $(HARNESS_OBJ)/ceilings_probes.o \
                       $(BUILD)/libtgemm.a
	$(CXX) -fopenmp -o $@ $(filter %.o,$^) $(HARNESS_LIBS)

# Tests: a C test of the checker (it must catch what it claims to), then the binaries end to end.
$(BUILD)/harness/check_test: harness/tests/check_test.c $(HARNESS_OBJ)/check.o \
                             $(HARNESS_OBJ)/reference.o $(BUILD)/libtgemm.a $(HARNESS_HDRS)
	$(CC) $(HARNESS_CFLAGS) -fopenmp -o $@ $< $(HARNESS_OBJ)/check.o $(HARNESS_OBJ)/reference.o \
	    $(BUILD)/libtgemm.a -lm

test-harness: $(BUILD)/tgemm-bench $(BUILD)/tgemm-gbench $(BUILD)/harness/check_test $(XSMM_ADAPTER) \
	      $(BUILD)/ab-gemm $(BUILD)/time-split
	@sh harness/tests/run.sh $(BUILD)

TEST_RUNS += test-harness

# The elementwise cases (--op): options, a tiny sweep read back number by number, a planted fault.
.PHONY: test-harness-elementwise
test-harness-elementwise: $(BUILD)/tgemm-bench
	@sh harness/tests/ew_run.sh $(BUILD)

TEST_RUNS += test-harness-elementwise

# The GPU build, build/tgemm-bench-cuda (nvcc): harness/gpu.mk.
include harness/gpu.mk
