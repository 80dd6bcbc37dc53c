# tgemm: the one entry point. `make` builds the CPU library, `make test` runs every test suite,
# `make bench` runs the main job (measure, compare, report). Each folder adds its own targets through
# its fragment (tests/tests.mk, harness/harness.mk, cuda/cuda.mk), so this file only holds what all
# of them share.

CC       ?= cc
CXX      ?= c++
PYTHON   ?= python3
BUILD    := build
OBJ      := $(BUILD)/obj
# The library is built for any x86-64 (no -march): AVX2 kernels carry their own target attributes
# and are picked at run time.
OPT      ?= -O2
# Warnings are errors here and in CI. WERROR= turns them back into warnings: for a machine whose
# newer compiler warns where ours does not (tests/cuda/gpu_session.sh falls back to it, and says so).
WERROR   ?= -Werror
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes $(WERROR)
CFLAGS   ?= $(OPT) -g
LIBFLAGS := -std=c11 $(WARN) -fPIC -fopenmp -Icommon $(CFLAGS)
LDLIBS   := -lm
SONAME   := libtgemm.so.0

LIB_SRCS := $(filter-out common/reference.c,$(wildcard common/*.c)) $(wildcard cpu/*.c)
LIB_HDRS := $(wildcard common/*.h cpu/*.h cpu/*.inc)
# The library is one translation unit, every source included in turn as tgemm.h has them, so that
# the path from an entry point to its kernel inlines across files (the call's checks, the kernel's
# choice, the path's): what a tiny product pays for. Zen 4, 1 thread, ab-gemm against the
# file-by-file build (a copy of that: 0.98-1.01): s 8^3 1.05, d 8^3 1.05, s 12^3 1.035, d 12^3
# 1.02, s and d 16^3 1.01, AVX2 forced s 8^3, d 8^3 and s 16^3 1.02; 19 other shapes from 24^3 to
# 2048^3, skinny and short ones 0.99-1.01 (s 4096x4096x32 0.987), 2 threads 1.00-1.01; the
# activations in L2 0.98-1.01 the time. The per-file objects (LIB_OBJS) serve the tests that
# rebuild some files with planted bugs.
LIB_UNITY := $(OBJ)/tgemm_unity.o
LIB_OBJS := $(LIB_SRCS:%.c=$(OBJ)/%.o)

# Suites that `make test` runs, each a make target whose output ends in "N passed, N failed".
TEST_RUNS :=

.PHONY: all lib test clean amalgamate
all: lib

lib: $(BUILD)/libtgemm.a $(BUILD)/libtgemm.so

$(OBJ)/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -c $< -o $@

$(OBJ)/tgemm_unity.c: $(LIB_SRCS)
	@mkdir -p $(dir $@)
	printf '#include "%s"\n' $(sort $(LIB_SRCS)) > $@

$(LIB_UNITY): $(OBJ)/tgemm_unity.c $(LIB_SRCS) $(LIB_HDRS)
	$(CC) $(LIBFLAGS) -I. -c $< -o $@

$(BUILD)/libtgemm.a: $(LIB_UNITY)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtgemm.so: $(LIB_UNITY)
	$(CC) -shared -fopenmp -Wl,-soname,$(SONAME) -o $(BUILD)/$(SONAME) $^ $(LDLIBS)
	ln -sf $(SONAME) $@

# The single-header drop-ins are generated from the split sources and committed.
amalgamate: tgemm.h
# AMALG_CPU writes the header to stdout, so a test can compare the committed one with a fresh one.
AMALG_CPU = $(PYTHON) tools/amalgamate.py --name tgemm.h --intro tools/tgemm_intro.txt \
	    --public common/api.h --impl TGEMM_IMPLEMENTATION $(sort $(LIB_SRCS))
tgemm.h: tools/amalgamate.py tools/tgemm_intro.txt $(LIB_SRCS) $(LIB_HDRS)
	$(AMALG_CPU) > $@.tmp && mv $@.tmp $@

# Fragments, one per concern; each appends its suites to TEST_RUNS.
-include tests/tests.mk
-include cuda/cuda.mk
-include harness/harness.mk
-include harness/report.mk
-include tests/elementwise/elementwise.mk
-include tests/fuzz/fuzz.mk

test: lib
	@sh tools/tally.sh "$(MAKE)" $(TEST_RUNS)

clean:
	rm -rf $(BUILD)
