# tests/tests.mk: the foundation test suite (tests/*.c), included by the top-level Makefile.
#
# One suite, written once (tests/tgt.h), built several ways, each run by tests/run_suite.sh once per
# kernel family / path / block-size setting (the library reads them once per process):
#   test-gemm-avx512, test-gemm-avx2, test-gemm-generic  against build/libtgemm.a (+ OpenBLAS as a
#                    second opinion); avx512 only where /proc/cpuinfo lists avx512f (else one skip)
#   test-nomem       library sources built with -DTGEMM_TESTING (allocation-failure hook)
#   test-planted     library sources built with -DTGEMM_PLANT_BUG: passes only if the suite FAILS
#   test-header      tgemm.h alone: gcc and clang, C99 and C11, with and without OpenMP, g++ as C++,
#                    and one build with TGEMM_STATIC
#   test-amalgamation  the committed tgemm.h equals what `make amalgamate` writes now
#   test-asan        (not in `make test`) the suite under AddressSanitizer + UBSan, errors fatal, and
#                    the elementwise tests and the emulated CUDA tests likewise (test-asan-elementwise
#                    and test-asan-cuda-elementwise-emulated in elementwise.mk, test-asan-cuda-emulated
#                    in cuda.mk)
# Small block overrides (MC=12 KC=8 NC=32) hit every block edge cheaply; the default-block runs
# keep to a sample at large sizes, so the whole set stays within a few minutes on two cores.

TEST_DIR    := $(BUILD)/test
TEST_SRCS   := tests/main.c tests/matrices.c tests/differential.c tests/second_opinion.c \
               tests/bad_args.c tests/threads.c tests/callers.c tests/nomem.c
TEST_DEPS   := $(TEST_SRCS) tests/tgt.h common/reference.c common/reference.h common/api.h
TEST_CFLAGS := $(WARN) -O2 -g -fopenmp -pthread
TEST_LIBS   := -lopenblas -lm
SANITIZE    := -fsanitize=address,undefined -fno-sanitize-recover=all
RUN_SUITE   := sh tests/run_suite.sh

# Runs per kernel family: natural path choice at default blocks (everything), the blocked path at
# default blocks (the real block edges; no cube: the small-block run covers it), the blocked path
# with small blocks (every block edge at tiny sizes) and with middling ones (several blocks of
# every loop on the random shapes), and the small-matrix path, reading B in place where it can and
# with every panel of B packed a page group at a time (paged).
gemm_specs = "TGEMM_ARCH=$(1) all" \
	"TGEMM_ARCH=$(1) TGEMM_PATH=blocked arch edges scalars special threads" \
	"TGEMM_ARCH=$(1) TGEMM_PATH=blocked TGEMM_MC=48 TGEMM_KC=40 TGEMM_NC=96 arch edges random threads" \
	"TGEMM_ARCH=$(1) TGEMM_PATH=blocked TGEMM_MC=12 TGEMM_KC=8 TGEMM_NC=32 arch cube edges scalars special pageend random threads" \
	"TGEMM_ARCH=$(1) TGEMM_PATH=small arch cube edges scalars special pageend rows random threads" \
	"TGEMM_ARCH=$(1) TGEMM_PATH=paged arch cube edges scalars special pageend random threads"

# The AVX-512 family runs where /proc/cpuinfo lists avx512f: an oracle apart from the library's own
# detection, which the arch section then checks (TGEMM_ARCH=avx512 must give "avx512").
HAS_AVX512 := $(shell grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo yes)
X86_FAMILIES := $(if $(HAS_AVX512),avx512) avx2
# One run that stands for a suite this CPU cannot run, so that the tally shows it as skipped.
SKIP_AVX512 := echo "the CPU lacks AVX-512F: the avx512 kernels are not run here"; \
	       echo "0 passed, 0 failed, 1 skipped"

.PHONY: test-gemm-avx512 test-gemm-avx2 test-gemm-generic test-nomem test-planted test-header \
	test-amalgamation test-asan test-asan-run
TEST_RUNS += test-gemm-avx512 test-gemm-avx2 test-gemm-generic test-nomem test-planted test-header \
	test-amalgamation

# ---- library variants compiled from the same sources with a test-only switch ----
# $(TEST_DIR)/<variant>/obj/<source>.o, with the variant's extra flags.
TESTING_OBJS := $(LIB_SRCS:%.c=$(TEST_DIR)/testing/obj/%.o)
PLANTED_OBJS := $(LIB_SRCS:%.c=$(TEST_DIR)/planted/obj/%.o)
ASAN_OBJS    := $(LIB_SRCS:%.c=$(TEST_DIR)/asan/obj/%.o)

$(TEST_DIR)/testing/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -DTGEMM_TESTING -c $< -o $@
$(TEST_DIR)/planted/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -DTGEMM_PLANT_BUG -c $< -o $@
$(TEST_DIR)/asan/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -DTGEMM_TESTING $(SANITIZE) -c $< -o $@

# ---- the suite linked against each ----
$(TEST_DIR)/tgemm_tests: $(TEST_DEPS) $(BUILD)/libtgemm.a
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(TEST_CFLAGS) -DTGT_OPENBLAS $(TEST_SRCS) common/reference.c \
	    $(BUILD)/libtgemm.a $(TEST_LIBS) -o $@
$(TEST_DIR)/testing/tgemm_tests: $(TEST_DEPS) $(TESTING_OBJS)
	$(CC) -std=c11 $(TEST_CFLAGS) -DTGEMM_TESTING $(TEST_SRCS) common/reference.c \
	    $(TESTING_OBJS) $(TEST_LIBS) -o $@
$(TEST_DIR)/planted/tgemm_tests: $(TEST_DEPS) $(PLANTED_OBJS)
	$(CC) -std=c11 $(TEST_CFLAGS) $(TEST_SRCS) common/reference.c $(PLANTED_OBJS) $(TEST_LIBS) -o $@
$(TEST_DIR)/asan/tgemm_tests: $(TEST_DEPS) $(ASAN_OBJS)
	$(CC) -std=c11 $(TEST_CFLAGS) $(SANITIZE) -DTGEMM_TESTING -DTGT_OPENBLAS $(TEST_SRCS) \
	    common/reference.c $(ASAN_OBJS) $(TEST_LIBS) -o $@

test-gemm-avx512: $(TEST_DIR)/tgemm_tests
	@$(if $(HAS_AVX512),$(RUN_SUITE) $< $(call gemm_specs,avx512),$(SKIP_AVX512))
test-gemm-avx2: $(TEST_DIR)/tgemm_tests
	@$(RUN_SUITE) $< $(call gemm_specs,avx2) "TGEMM_ARCH=none unsupported args"
test-gemm-generic: $(TEST_DIR)/tgemm_tests
	@$(RUN_SUITE) $< $(call gemm_specs,generic)
test-nomem: $(TEST_DIR)/testing/tgemm_tests
	@$(RUN_SUITE) $< "nomem" "TGEMM_PATH=blocked nomem" "TGEMM_PATH=small nomem" \
	    "TGEMM_PATH=paged nomem" "TGEMM_ARCH=generic nomem"
# The planted bug (an edge tile loses its last column) must make the suite fail: every family, on
# the path chosen by size and on the blocked path, and AVX-512's pair kernel (the rows section).
test-planted: $(TEST_DIR)/planted/tgemm_tests
	@$(RUN_SUITE) --expect-failure $< $(foreach f,$(X86_FAMILIES) generic,"TGEMM_ARCH=$(f) --cube 9 cube" \
	    "TGEMM_ARCH=$(f) TGEMM_PATH=blocked --cube 9 cube") \
	    $(if $(HAS_AVX512),"TGEMM_ARCH=avx512 rows")

# ---- tgemm.h alone ----
# Each build: the test sources against tgemm.h (-I. only: never common/), main.c the one translation
# unit with TGEMM_IMPLEMENTATION; the reference is compiled as C once and linked in. A solid subset
# runs: a smaller cube, the edges, scalars, NaN/Inf, random shapes, arguments, threads, callers.
HDR_DIR   := $(TEST_DIR)/header
HDR_TESTS := $(filter-out tests/second_opinion.c tests/nomem.c,$(TEST_SRCS))
HDR_BUILDS := gcc-c99 gcc-c11 clang-c99 clang-c11 gcc-c99-omp gcc-c11-omp clang-c99-omp \
	      clang-c11-omp gxx gxx-omp static
hdr_cc_gcc-c99       := gcc -std=c99
hdr_cc_gcc-c11       := gcc -std=c11
hdr_cc_clang-c99     := clang -std=c99
hdr_cc_clang-c11     := clang -std=c11
hdr_cc_gcc-c99-omp   := gcc -std=c99 -fopenmp
hdr_cc_gcc-c11-omp   := gcc -std=c11 -fopenmp
hdr_cc_clang-c99-omp := clang -std=c99 -fopenmp
hdr_cc_clang-c11-omp := clang -std=c11 -fopenmp
hdr_cc_gxx           := g++ -x c++ -std=c++11
hdr_cc_gxx-omp       := g++ -x c++ -std=c++11 -fopenmp
hdr_cc_static        := gcc -std=c11 -fopenmp
HDR_FLAGS := $(WARN) -O2 -g -pthread -I. -DTGT_HEADER
# The committed header, named by its absolute path on purpose: as plain "tgemm.h" it would match the
# top-level rule that regenerates it, and testing would quietly rewrite a committed file (and hide
# a stale one from test-amalgamation).
HDR_FILE := $(CURDIR)/tgemm.h

$(HDR_DIR)/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O2 -g -Icommon -c $< -o $@
# C++ has no -Wstrict-prototypes; the rest of the warnings apply.
$(HDR_DIR)/%/tgemm_tests: $(HDR_TESTS) tests/tgt.h $(HDR_FILE) $(HDR_DIR)/reference.o
	@mkdir -p $(dir $@)
	$(hdr_cc_$*) $(if $(findstring gxx,$*),$(filter-out -Wstrict-prototypes,$(HDR_FLAGS)),$(HDR_FLAGS)) \
	    $(HDR_TESTS) -x none $(HDR_DIR)/reference.o -lm -o $@
# TGEMM_STATIC: the whole suite as one translation unit (tests/unity_static.c); no library symbol
# (tg_ or tg__; the reference's tg_ref_ are not the library's) may be visible outside it.
$(HDR_DIR)/static/tgemm_tests: $(HDR_TESTS) tests/tgt.h tests/unity_static.c $(HDR_FILE) \
				$(HDR_DIR)/reference.o
	@mkdir -p $(dir $@)
	$(hdr_cc_static) $(HDR_FLAGS) tests/unity_static.c $(HDR_DIR)/reference.o -lm -o $@
	@if nm $@ | grep -E ' [A-Z] tg_' | grep -v ' tg_ref_'; then echo "the TGEMM_STATIC build exports tg_ symbols"; \
	    rm -f $@; exit 1; fi

# A build that does not compile counts as one failure and the others still run.
test-header: $(HDR_DIR)/reference.o
	@for b in $(HDR_BUILDS); do \
	    if $(MAKE) -s --no-print-directory $(HDR_DIR)/$$b/tgemm_tests; then \
	        $(RUN_SUITE) $(HDR_DIR)/$$b/tgemm_tests "--cube 9 --random 30 all" \
	            "TGEMM_ARCH=generic --cube 7 cube scalars" > $(HDR_DIR)/$$b/log; \
	        grep -E '^(FAIL|run crashed)' $(HDR_DIR)/$$b/log | head -n 10; \
	        tail -n 1 $(HDR_DIR)/$$b/log | sed "s/^/$$b: /"; \
	    else echo "$$b: 0 passed, 1 failed (did not build)"; fi; \
	done | awk '{print} /^[a-z0-9-]+: [0-9]+ passed/ {p += $$2; f += $$4} END {print p " passed, " f " failed"; exit f > 0}'

test-amalgamation:
	@mkdir -p $(TEST_DIR)
	@$(AMALG_CPU) > $(TEST_DIR)/tgemm.h.fresh && if cmp -s tgemm.h $(TEST_DIR)/tgemm.h.fresh; then \
	    echo "tgemm.h is what make amalgamate writes now"; echo "1 passed, 0 failed"; \
	else diff tgemm.h $(TEST_DIR)/tgemm.h.fresh | head -n 20; \
	    echo "tgemm.h is stale: run make amalgamate and commit it"; echo "0 passed, 1 failed"; exit 1; fi

# ---- sanitizers: the suite under ASan + UBSan, errors fatal (its own tally, like make test) ----
test-asan:
	@sh tools/tally.sh "$(MAKE)" test-asan-run test-asan-elementwise test-asan-cuda-emulated \
	    test-asan-cuda-elementwise-emulated
test-asan-run: $(TEST_DIR)/asan/tgemm_tests
	@ASAN_OPTIONS=detect_leaks=1 $(RUN_SUITE) $< $(foreach f,$(X86_FAMILIES) generic,$(call gemm_specs,$(f))) \
	    "TGEMM_PATH=blocked nomem" "TGEMM_PATH=small nomem" "TGEMM_PATH=paged nomem"
