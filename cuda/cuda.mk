# cuda/cuda.mk: the CUDA part of the build (included by the top-level Makefile).
#
# Every cuda/**/*.cu (the SGEMM ladder, its launcher, and whatever joins, e.g. cuda/elementwise/) is
# compiled by nvcc into build/libtgemm_cuda.a and .so, together with the CPU library's objects, so
# that a CUDA program links one library and shares one tg_last_error() with the CPU side; libtgemm
# itself never needs the CUDA runtime. Without nvcc everything else still builds, and the CUDA suite
# reports itself skipped. Exported for the fragments included after this one: NVCC, NVCCFLAGS,
# CUDA_LIBS (what an nvcc link of a program with libtgemm_cuda.a adds; nvcc brings the CUDA runtime
# itself, statically), HAVE_NVCC, CUDA_OBJ.
#
# Targets: cuda (the libraries), test-cuda (the GPU tests; needs a GPU to pass anything),
# test-cuda-build (in `make test`: compile, resource report, single header, then the GPU tests,
# which report themselves skipped without a GPU), tgemm_cuda.cuh (joins `make amalgamate`).

NVCC      ?= $(shell command -v nvcc || echo /usr/local/cuda/bin/nvcc)
HAVE_NVCC := $(shell test -x "$(NVCC)" && echo yes)
# Machine code for Ampere (sm_80, also run by sm_86/89) and Hopper (sm_90), plus sm_90 PTX that the
# driver compiles for newer GPUs.
CUDA_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	     -gencode arch=compute_90,code=compute_90
# -Werror all-warnings: nvcc's and ptxas's own warnings; the host compiler gets the project's flags.
# Both follow the Makefile's WERROR.
NVCCFLAGS ?= -std=c++17 -O3 -lineinfo $(CUDA_ARCH) $(if $(WERROR),-Werror all-warnings) \
	     -Xcompiler -Wall,-Wextra,-fPIC $(if $(WERROR),-Xcompiler -Werror)
CUDA_LIBS := -Xcompiler -fopenmp -lm

CUDA_OBJ  := $(BUILD)/cuda/obj
CUDA_SRCS := $(sort $(shell find cuda -name '*.cu'))
CUDA_HDRS := $(sort $(shell find cuda -name '*.h' -o -name '*.cuh')) $(LIB_HDRS)
CUDA_OBJS := $(CUDA_SRCS:%.cu=$(CUDA_OBJ)/%.o)
# The single header's public part: the SGEMM API first, then the public headers of the other CUDA
# folders (cuda/elementwise/*.h); cuda/sgemm/*.h are private.
CUDA_PUBLIC := cuda/tgemm_cuda.h $(filter-out cuda/sgemm/%,$(sort $(wildcard cuda/*/*.h)))

.PHONY: cuda test-cuda test-cuda-build
all: cuda
TEST_RUNS += test-cuda-build
amalgamate: tgemm_cuda.cuh

ifeq ($(HAVE_NVCC),yes)

cuda: $(BUILD)/libtgemm_cuda.a $(BUILD)/libtgemm_cuda.so

# ptxas's resource report (-Xptxas -v) is kept beside each object for the resource check.
$(CUDA_OBJ)/%.o: %.cu $(CUDA_HDRS) cuda/cuda.mk
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Xptxas -v -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; rm -f $@; exit 1; }

$(BUILD)/libtgemm_cuda.a: $(CUDA_OBJS) $(LIB_UNITY)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtgemm_cuda.so: $(CUDA_OBJS) $(LIB_UNITY)
	$(NVCC) -shared --cudart shared -Xlinker -soname,libtgemm_cuda.so.0 -Xcompiler -fopenmp \
	    -o $(BUILD)/libtgemm_cuda.so.0 $^ -lm
	ln -sf libtgemm_cuda.so.0 $@

# The test program: every ladder step and the launcher against the fp64 reference and cuBLAS.
$(CUDA_OBJ)/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -c $< -o $@

$(BUILD)/cuda/test_cuda: tests/cuda/test_cuda.cu $(BUILD)/libtgemm_cuda.a $(CUDA_OBJ)/reference.o \
	    cuda/tgemm_cuda.h common/reference.h
	$(NVCC) $(NVCCFLAGS) -Icuda -Icommon -o $@ tests/cuda/test_cuda.cu $(CUDA_OBJ)/reference.o \
	    $(BUILD)/libtgemm_cuda.a -lcublas $(CUDA_LIBS)

# The single header, used as its documentation says: one .cu defines TGEMM_CUDA_IMPLEMENTATION,
# another only includes it. Built from the committed tgemm_cuda.cuh as it stands (always rebuilt,
# never through the header's own rule, which would regenerate it and hide a stale commit from the
# freshness check in build_checks.sh).
.PHONY: cuda-header-as-is
$(BUILD)/cuda/single_header: tests/cuda/single_header_impl.cu tests/cuda/single_header_use.cu \
	    cuda-header-as-is
	$(NVCC) $(NVCCFLAGS) -I. -o $@ tests/cuda/single_header_impl.cu tests/cuda/single_header_use.cu \
	    $(CUDA_LIBS)

# A C program against the public header and both libraries.
CUDA_ROOT := $(abspath $(dir $(NVCC))..)
$(BUILD)/cuda/c_caller_shared: tests/cuda/c_caller.c cuda/tgemm_cuda.h $(BUILD)/libtgemm_cuda.so
	$(CC) -std=c11 $(WARN) -Icuda -I$(CUDA_ROOT)/include -o $@ $< -L$(BUILD) -ltgemm_cuda \
	    -Wl,-rpath,$(abspath $(BUILD)) -L$(CUDA_ROOT)/lib64 -Wl,-rpath,$(CUDA_ROOT)/lib64
$(BUILD)/cuda/c_caller_static: tests/cuda/c_caller.c cuda/tgemm_cuda.h $(BUILD)/libtgemm_cuda.a
	$(CC) -std=c11 $(WARN) -Icuda -I$(CUDA_ROOT)/include -o $@ $< $(BUILD)/libtgemm_cuda.a \
	    -L$(CUDA_ROOT)/lib64 -lcudart -lstdc++ -fopenmp -lm

test-cuda: $(BUILD)/cuda/test_cuda
	$(BUILD)/cuda/test_cuda

test-cuda-build: cuda $(BUILD)/cuda/test_cuda $(BUILD)/cuda/single_header \
	    $(BUILD)/cuda/c_caller_shared $(BUILD)/cuda/c_caller_static
	@sh tests/cuda/build_checks.sh "$(CUDA_OBJ)" "$(BUILD)/cuda" "$(AMALG_CUDA)"

else

cuda:
	@echo "CUDA part skipped: nvcc not found (looked for $(NVCC); set NVCC=/path/to/nvcc)"
test-cuda test-cuda-build:
	@echo "CUDA part skipped: nvcc not found (looked for $(NVCC); set NVCC=/path/to/nvcc)"
	@echo "0 passed, 0 failed, 1 skipped"

endif

# ---- the ladder's kernel source and the GPU tests run on the CPU (tests/cuda/emu/) ----
# Needs a C++17 compiler, no CUDA. Each .cu is copied with its kernel<<<...>>>(args) launches
# rewritten as tg__emu_launch(kernel, ..., args), then compiled against the emulated runtime headers
# in tests/cuda/emu/.
EMU       := $(BUILD)/cuda/emu
EMU_SRCS  := cuda/launch.cu $(sort $(wildcard cuda/sgemm/*.cu))
EMU_OBJS  := $(EMU_SRCS:%.cu=$(EMU)/%.o)
EMU_FLAGS := -std=c++17 -O1 -g -Wall -Wextra -Wshadow -Werror -Wno-unknown-pragmas \
	     -Itests/cuda/emu -Icuda/sgemm -Icuda -Icommon
TEST_RUNS += test-cuda-emulated
.PHONY: test-cuda-emulated test-asan-cuda-emulated

$(EMU)/%.cpp: %.cu
	@mkdir -p $(dir $@)
	{ echo '#line 1 "$<"'; sed -E 's/^(\s*)(.+)<<<(.+)>>>\((.*)\);/\1tg__emu_launch(\2, \3, \4);/' $<; } > $@

$(EMU)/%.o: $(EMU)/%.cpp $(CUDA_HDRS) $(wildcard tests/cuda/emu/*.h)
	$(CXX) $(EMU_FLAGS) -c $< -o $@

$(EMU)/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) $(LIBFLAGS) -c $< -o $@

# The GPU test program itself, on the emulation (its cuBLAS a CPU stand-in), small sizes only.
$(EMU)/test_cuda: $(EMU)/tests/cuda/test_cuda.o $(EMU_OBJS) $(EMU)/reference.o $(BUILD)/libtgemm.a
	$(CXX) -o $@ $^ -fopenmp -lm

test-cuda-emulated: $(EMU)/test_cuda
	TGEMM_TEST_SMALL=1 $(EMU)/test_cuda

# The same under AddressSanitizer + UBSan (tests.mk's test-asan): every step's loads and stores
# against the bounds of the emulated device buffers.
$(EMU)/asan/%.o: $(EMU)/%.cpp $(CUDA_HDRS) $(wildcard tests/cuda/emu/*.h)
	@mkdir -p $(dir $@)
	$(CXX) $(EMU_FLAGS) $(SANITIZE) -c $< -o $@

$(EMU)/test_cuda_asan: $(EMU)/asan/tests/cuda/test_cuda.o $(EMU_SRCS:%.cu=$(EMU)/asan/%.o) $(EMU)/reference.o \
	    $(BUILD)/libtgemm.a
	$(CXX) $(SANITIZE) -o $@ $^ -fopenmp -lm

test-asan-cuda-emulated: $(EMU)/test_cuda_asan
	@TGEMM_TEST_SMALL=1 ASAN_OPTIONS=detect_stack_use_after_return=0 $<

# The single header: writes to stdout, so the build check can compare the committed one with a fresh one.
AMALG_CUDA = $(PYTHON) tools/amalgamate.py --name tgemm_cuda.cuh --intro tools/tgemm_cuda_intro.txt \
	     --public $(CUDA_PUBLIC) --impl TGEMM_CUDA_IMPLEMENTATION $(CUDA_SRCS)
tgemm_cuda.cuh: tools/amalgamate.py tools/tgemm_cuda_intro.txt $(CUDA_SRCS) $(CUDA_HDRS)
	$(AMALG_CUDA) > $@.tmp && mv $@.tmp $@
