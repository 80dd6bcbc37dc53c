# harness/gpu.mk: build/tgemm-bench-cuda, the GPU build of tgemm-bench, and its tests (included by
# harness/harness.mk, after cuda/cuda.mk, whose NVCC, NVCCFLAGS, CUDA_LIBS and HAVE_NVCC it uses).
#
#   make harness-cuda       build/tgemm-bench-cuda: the harness's C files (sweep, options, checks,
#                           ceilings, ...) with the GPU worker, device record and GPU ceilings of
#                           harness/cuda/ instead of the Google Benchmark worker, linked by nvcc with
#                           build/libtgemm_cuda.a and cuBLAS. Needs nvcc, a C compiler and the CUDA
#                           libraries only, so it builds on the lent GPU machine, which has none of
#                           Debian's packages (tests/cuda/gpu_session.sh builds it there).
#   make test-harness-cuda  its tests (part of `make test`): options of --device cuda and their bad
#                           inputs, "no GPU" handled in one line; with a GPU, a tiny sweep end to end
#
# build/tgemm-bench hands every --device cuda command to build/tgemm-bench-cuda (harness/gpu.h).

GPU_BENCH       := $(BUILD)/tgemm-bench-cuda
GPU_BENCH_OBJ   := $(BUILD)/harness-cuda/obj
GPU_BENCH_CSRC  := $(filter-out harness/xsmm_adapter.c harness/gpu_handover.c, \
                                 $(wildcard harness/*.c)) harness/cuda/context.c
GPU_BENCH_CUSRC := $(wildcard harness/cuda/*.cu)
GPU_BENCH_OBJS  := $(GPU_BENCH_CSRC:%.c=$(GPU_BENCH_OBJ)/%.o) \
                   $(GPU_BENCH_CUSRC:%.cu=$(GPU_BENCH_OBJ)/%.o) $(GPU_BENCH_OBJ)/reference.o
GPU_BENCH_HDRS  := $(HARNESS_HDRS) $(wildcard harness/cuda/*.h) cuda/tgemm_cuda.h \
                   cuda/elementwise/tgemm_elementwise.h

.PHONY: harness-cuda test-harness-cuda
TEST_RUNS += test-harness-cuda

ifeq ($(HAVE_NVCC),yes)

harness-cuda: $(GPU_BENCH)

$(GPU_BENCH_OBJ)/%.o: %.c $(GPU_BENCH_HDRS) common/api.h common/internal.h common/reference.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(GPU_BENCH_OBJ)/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(GPU_BENCH_OBJ)/%.o: %.cu $(GPU_BENCH_HDRS) common/api.h harness/gpu.mk
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Icommon -Iharness -Iharness/cuda -Icuda -I$(BUILD)/harness -c $< -o $@

$(GPU_BENCH): $(GPU_BENCH_OBJS) $(BUILD)/libtgemm_cuda.a
	$(NVCC) $(NVCCFLAGS) -o $@ $(GPU_BENCH_OBJS) $(BUILD)/libtgemm_cuda.a -lcublas $(CUDA_LIBS) \
	    -ldl -lpthread

test-harness-cuda: $(BUILD)/tgemm-bench $(GPU_BENCH)
	@sh harness/tests/gpu_run.sh $(BUILD)

else

harness-cuda:
	@echo "tgemm-bench-cuda skipped: nvcc not found (looked for $(NVCC); set NVCC=/path/to/nvcc)"
test-harness-cuda: $(BUILD)/tgemm-bench
	@sh harness/tests/gpu_run.sh $(BUILD)

endif

# ---- tgemm-bench-cuda on the CPU emulation (tests/cuda/emu, extended by harness/tests/emu) ----
# The GPU side's own source (worker, check, device record, ceilings) and the ladder's, each .cu
# rewritten by cuda.mk's rule for the emulation, linked with the harness's C files and the
# elementwise kernels (on their own emulation, tests/elementwise/emu, with elementwise.mk's flags):
# the whole --device cuda path (options, sweep, workers, checks on the host and on the "GPU",
# timing, transfers, JSON) runs here without a GPU or nvcc. It says nothing about speed. In
# `make test`.
GPU_EMU       := $(BUILD)/harness-cuda-emu
GPU_EMU_FLAGS := -Iharness/tests/emu $(EMU_FLAGS) -Iharness -Iharness/cuda -I$(BUILD)/harness
GPU_EMU_OBJS  := $(GPU_BENCH_CSRC:%.c=$(GPU_EMU)/obj/%.o) \
                 $(GPU_BENCH_CUSRC:harness/cuda/%.cu=$(GPU_EMU)/obj/cuda/%.o) \
                 $(GPU_EMU)/obj/reference.o $(GPU_EMU)/obj/ew/elementwise.o
TEST_RUNS += test-harness-cuda-emulated
.PHONY: test-harness-cuda-emulated

$(GPU_EMU)/obj/%.o: %.c $(GPU_BENCH_HDRS) common/api.h common/internal.h common/reference.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(GPU_EMU)/obj/reference.o: common/reference.c common/reference.h common/api.h
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_CFLAGS) -c $< -o $@

$(GPU_EMU)/obj/cuda/%.o: $(EMU)/harness/cuda/%.cpp $(GPU_BENCH_HDRS) \
	    $(wildcard harness/tests/emu/*.h) $(wildcard tests/cuda/emu/*.h)
	@mkdir -p $(dir $@)
	$(CXX) $(GPU_EMU_FLAGS) -c $< -o $@

$(GPU_EMU)/obj/ew/elementwise.o: $(EMU)/cuda/elementwise/elementwise.cpp \
	    $(wildcard tests/elementwise/emu/*.h) $(wildcard tests/cuda/emu/*.h) \
	    cuda/elementwise/tgemm_elementwise.h cpu/elementwise.h
	@mkdir -p $(dir $@)
	$(CXX) $(EW_EMU_FLAGS) -c $< -o $@

$(GPU_EMU)/tgemm-bench-cuda: $(GPU_EMU_OBJS) $(EMU_OBJS) $(BUILD)/libtgemm.a
	$(CXX) -o $@ $^ -fopenmp -ldl -lpthread -lm

test-harness-cuda-emulated: $(GPU_EMU)/tgemm-bench-cuda
	@sh harness/tests/gpu_emulated.sh $(GPU_EMU)
