# tests/elementwise/elementwise.mk: the elementwise kernels' tests (included by the top-level
# Makefile after cuda/cuda.mk and tests/tests.mk, whose variables it uses).
#
#   test-elementwise          in `make test`: tests/elementwise/test_elementwise.c against
#                             build/libtgemm.a, once per kernel family (TGEMM_ARCH=avx512 where the
#                             CPU has it, avx2, generic), and each vector family again streaming
#                             every output past 64 bytes (the streamed stores otherwise start at
#                             twice the L3, beyond the tests' sizes)
#   test-elementwise-families in `make test`: tests/elementwise/test_families.c, the AVX2 and
#                             AVX-512 runs called side by side on the same inputs must give the
#                             same bits (skipped without AVX-512)
#   test-elementwise-planted  in `make test`: the same tests against the library with one of two
#                             planted bugs (a run's last element skipped; GELU erf in the cancelling
#                             textbook form): passes only if the tests FAIL on each, in each family
#   test-elementwise-header   in `make test`: the tests against a freshly generated single header
#                             (gcc and clang as C11, g++ as C++), to keep the code one-translation-unit
#                             and C++ clean
#   test-cuda-elementwise     in `make test`: the CUDA tests (build/elementwise/test_cuda_elementwise);
#                             without a GPU they report themselves skipped with a count; also run by
#                             `make test-cuda`
#   test-cuda-elementwise-emulated  in `make test`: the same CUDA kernels and tests, compiled as C++
#                             against the CPU emulation of the CUDA runtime (tests/elementwise/emu/ on top
#                             of tests/cuda/emu/), small sizes: runs the kernels' index logic everywhere;
#                             twice, the second time with grids of one block (many grid-stride rounds)
#   test-asan-elementwise     in `make test-asan`: the elementwise tests against the library built
#                             with AddressSanitizer + UBSan, every family
#   test-asan-cuda-elementwise-emulated  in `make test-asan`: the emulated CUDA tests (one-block
#                             grids) built with AddressSanitizer + UBSan
#   test-large                opt-in: more than 2^31 floats in place on one buffer (~8.6 GB of memory)
#   test-act-sweep            opt-in: the activations' worst error in ulps over every 17th float of
#                             [-20, 10] and 10^7 random doubles, per kernel family (minutes)
#   act-speed                 not a test: builds build/elementwise/act_speed, which times the
#                             transcendental activations of two builds of libtgemm.so side by side
#                             (run it under the bench lock; see its header)
#   test-cuda-large           opt-in, on a GPU: the same on the device (~8.6 GB of device memory)
# On a machine with a GPU, tests/elementwise/gpu_session.sh LOG_DIR runs all of the GPU side at once
# (tests, large case, compute-sanitizer memcheck and racecheck, bandwidth benchmark).

EW_DIR      := $(BUILD)/elementwise
EW_TEST     := tests/elementwise/test_elementwise.c
EW_REF      := tests/elementwise/ew_ref.h tests/elementwise/act_ref.h
EW_CFLAGS   := -std=c11 $(WARN) -O2 -g -fopenmp
EW_LIB_SRCS := $(wildcard cpu/elementwise*.c)
EW_RUN      := sh tests/run_suite.sh

.PHONY: test-asan-elementwise test-asan-cuda-elementwise-emulated \
	test-cuda-elementwise-emulated test-elementwise test-elementwise-families test-elementwise-planted test-elementwise-header test-cuda-elementwise test-large \
	test-cuda-large test-act-sweep act-speed
TEST_RUNS += test-elementwise test-elementwise-families test-elementwise-planted test-elementwise-header test-cuda-elementwise \
	test-cuda-elementwise-emulated

$(EW_DIR)/test_elementwise: $(EW_TEST) $(EW_REF) $(BUILD)/libtgemm.a
	@mkdir -p $(dir $@)
	$(CC) $(EW_CFLAGS) -Icommon $< $(BUILD)/libtgemm.a -lm -o $@

# The families this CPU runs (X86_FAMILIES, tests.mk: avx512 where /proc/cpuinfo lists avx512f), then
# the portable one; without AVX-512 the tally counts its runs as one skipped suite.
EW_FAMILIES := $(foreach f,$(X86_FAMILIES),"TGEMM_ARCH=$(f)") "TGEMM_ARCH=generic"

test-elementwise: $(EW_DIR)/test_elementwise
	$(if $(HAS_AVX512),,@echo "the CPU lacks AVX-512F: the avx512 elementwise kernels are not run here")
	@$(EW_RUN) $(if $(HAS_AVX512),,--skipped 1) $< $(EW_FAMILIES) \
	    $(foreach f,$(X86_FAMILIES),"TGEMM_ARCH=$(f) TGEMM_EW_STREAM_BYTES=64")

$(EW_DIR)/test_families: tests/elementwise/test_families.c $(BUILD)/libtgemm.a cpu/elementwise.h
	@mkdir -p $(dir $@)
	$(CC) $(EW_CFLAGS) -Icommon -Icpu $< $(BUILD)/libtgemm.a -lm -o $@

test-elementwise-families: $(EW_DIR)/test_families
	@$<

# The same tests against the library built with AddressSanitizer + UBSan (tests.mk's ASAN_OBJS),
# every kernel family, streamed stores too: joins tests.mk's test-asan (not `make test`).
$(EW_DIR)/asan/test_elementwise: $(EW_TEST) $(EW_REF) $(ASAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(EW_CFLAGS) $(SANITIZE) -Icommon $< $(ASAN_OBJS) -lm -o $@

test-asan-elementwise: $(EW_DIR)/asan/test_elementwise
	@ASAN_OPTIONS=detect_leaks=1 $(EW_RUN) $(if $(HAS_AVX512),,--skipped 1) $< $(EW_FAMILIES) \
	    $(foreach f,$(X86_FAMILIES),"TGEMM_ARCH=$(f) TGEMM_EW_STREAM_BYTES=64")

test-large: $(EW_DIR)/test_elementwise
	@$(EW_RUN) $< "--large"

test-act-sweep: $(EW_DIR)/test_elementwise
	@$(EW_RUN) $< $(foreach f,$(X86_FAMILIES) generic,"TGEMM_ARCH=$(f) --sweep")

act-speed: $(EW_DIR)/act_speed
$(EW_DIR)/act_speed: tests/elementwise/act_speed.c common/api.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O2 -Icommon $< -ldl -o $@

# ---- planted bugs: the elementwise sources rebuilt with TG__EW_PLANT=N, the rest of the library as is ----
EW_PLANTS := 1 2
define ew_plant
$(EW_DIR)/plant$(1)/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LIBFLAGS) -DTG__EW_PLANT=$(1) -c $$< -o $$@
$(EW_DIR)/plant$(1)/test_elementwise: $(EW_TEST) $(EW_REF) $(EW_LIB_SRCS:%.c=$(EW_DIR)/plant$(1)/obj/%.o) \
	    $(filter-out $(EW_LIB_SRCS:%.c=$(OBJ)/%.o),$(LIB_OBJS))
	$$(CC) $$(EW_CFLAGS) -Icommon $$(filter-out $(EW_REF),$$^) -lm -o $$@
endef
$(foreach p,$(EW_PLANTS),$(eval $(call ew_plant,$(p))))

test-elementwise-planted: $(EW_PLANTS:%=$(EW_DIR)/plant%/test_elementwise)
	@$(EW_RUN) --expect-failure $(EW_DIR)/plant1/test_elementwise $(EW_FAMILIES) \
	    | sed 's/^/plant 1 (last element skipped): /' > $(EW_DIR)/planted.log; \
	$(EW_RUN) --expect-failure $(EW_DIR)/plant2/test_elementwise $(EW_FAMILIES) \
	    | sed 's/^/plant 2 (cancelling GELU erf): /' >> $(EW_DIR)/planted.log; \
	grep -v ' passed, ' $(EW_DIR)/planted.log; \
	awk '/ passed, / {p += $$(NF-3); f += $$(NF-1)} END {print p " passed, " f " failed"; exit f > 0}' \
	    $(EW_DIR)/planted.log

# ---- the single header, freshly generated, as C and C++ ----
EW_HDR_BUILDS := gcc clang gxx
ew_cc_gcc   := gcc -std=c11 -fopenmp
ew_cc_clang := clang -std=c11 -fopenmp
ew_cc_gxx   := g++ -x c++ -std=c++17 -fopenmp
$(EW_DIR)/header/tgemm.h: tools/amalgamate.py $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(AMALG_CPU) > $@
$(EW_DIR)/header/%/test_elementwise: $(EW_TEST) $(EW_REF) $(EW_DIR)/header/tgemm.h
	@mkdir -p $(dir $@)
	$(ew_cc_$*) $(filter-out $(if $(findstring gxx,$*),-Wstrict-prototypes),$(WARN)) -O2 -g \
	    -I$(EW_DIR)/header -DTGEMM_EW_HEADER $< -lm -o $@

test-elementwise-header: $(EW_HDR_BUILDS:%=$(EW_DIR)/header/%/test_elementwise)
	@for b in $(EW_HDR_BUILDS); do \
	    $(EW_RUN) $(EW_DIR)/header/$$b/test_elementwise $(foreach f,$(X86_FAMILIES),"TGEMM_ARCH=$(f)") \
	        | tail -n 1 | sed "s/^/$$b: /"; \
	done | awk '{print} / passed, / {p += $$2; f += $$4} END {print p " passed, " f " failed"; exit f > 0}'

# ---- CUDA ----
ifeq ($(HAVE_NVCC),yes)
$(EW_DIR)/test_cuda_elementwise: tests/elementwise/test_cuda_elementwise.cu $(BUILD)/libtgemm_cuda.a \
	    cuda/elementwise/tgemm_elementwise.h tests/elementwise/act_ref.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Icuda -Icommon -o $@ $< $(BUILD)/libtgemm_cuda.a $(CUDA_LIBS)

# Not a test: GPU bandwidth against a device-to-device copy (tests/elementwise/gpu_session.sh runs it).
$(EW_DIR)/bench_cuda_elementwise: tests/elementwise/bench_cuda_elementwise.cu $(BUILD)/libtgemm_cuda.a \
	    cuda/elementwise/tgemm_elementwise.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Icuda -Icommon -o $@ $< $(BUILD)/libtgemm_cuda.a $(CUDA_LIBS)

test-cuda-elementwise: $(EW_DIR)/test_cuda_elementwise
	@$(EW_DIR)/test_cuda_elementwise
test-cuda: test-cuda-elementwise
# On a GPU machine: the > 2^31-element case (~8.6 GB of device memory).
test-cuda-large: $(EW_DIR)/test_cuda_elementwise
	@$(EW_DIR)/test_cuda_elementwise --large
else
test-cuda-elementwise:
	@echo "CUDA elementwise tests skipped: nvcc not found (looked for $(NVCC))"
	@echo "0 passed, 0 failed, 1 skipped"
endif

# ---- the CUDA kernels on the CPU emulation: a C++17 compiler, no CUDA needed ----
# Each .cu is copied with its kernel<<<...>>>(args) launches rewritten to tg__emu_launch, as cuda.mk
# does for the ladder.
EW_EMU       := $(EW_DIR)/emu
EW_EMU_FLAGS := -std=c++17 -O1 -g -Wall -Wextra -Wshadow -Werror -Wno-unknown-pragmas \
		-Itests/elementwise/emu -Itests/cuda/emu -Itests/elementwise -Icuda/elementwise -Icuda -Icommon
EW_EMU_SRCS  := cuda/elementwise/elementwise.cu tests/elementwise/test_cuda_elementwise.cu

$(EW_EMU)/%.cpp: %.cu
	@mkdir -p $(dir $@)
	{ echo '#line 1 "$<"'; sed -E 's/^(\s*)(.+)<<<(.+)>>>\((.*)\);/\1tg__emu_launch(\2, \3, \4);/' $<; } > $@

EW_EMU_DEPS  := $(EW_EMU_SRCS:%.cu=$(EW_EMU)/%.cpp) $(BUILD)/libtgemm.a $(wildcard tests/elementwise/emu/*.h) \
		$(wildcard tests/cuda/emu/*.h) cuda/elementwise/tgemm_elementwise.h cpu/elementwise.h \
		tests/elementwise/act_ref.h

$(EW_EMU)/test_emulated: $(EW_EMU_DEPS)
	$(CXX) $(EW_EMU_FLAGS) -o $@ $(EW_EMU_SRCS:%.cu=$(EW_EMU)/%.cpp) $(BUILD)/libtgemm.a -fopenmp -lm

# The same with a grid of one block at most: the small cases go round the grid-stride loops many
# times, as on a GPU only arrays past 2^25 elements do.
$(EW_EMU)/test_emulated_1block: $(EW_EMU_DEPS)
	$(CXX) $(EW_EMU_FLAGS) -DTG__EWD_MAX_BLOCKS=1 -o $@ $(EW_EMU_SRCS:%.cu=$(EW_EMU)/%.cpp) $(BUILD)/libtgemm.a -fopenmp -lm

# And once more under AddressSanitizer + UBSan (in test-asan): the kernels' loads and stores against
# the bounds of the emulated device buffers. (ASan warns once that it does not fully support the
# fibers' swapcontext; it has reported nothing false here.)
$(EW_EMU)/test_emulated_asan: $(EW_EMU_DEPS)
	$(CXX) $(EW_EMU_FLAGS) $(SANITIZE) -DTG__EWD_MAX_BLOCKS=1 -o $@ $(EW_EMU_SRCS:%.cu=$(EW_EMU)/%.cpp) \
	    $(BUILD)/libtgemm.a -fopenmp -lm

test-asan-cuda-elementwise-emulated: $(EW_EMU)/test_emulated_asan
	@ASAN_OPTIONS=detect_stack_use_after_return=0 $< --tiny

test-cuda-elementwise-emulated: $(EW_EMU)/test_emulated $(EW_EMU)/test_emulated_1block
	@{ $< --tiny && $(EW_EMU)/test_emulated_1block --tiny | sed 's/^/one block: /'; } | \
	    awk '{print} / passed, / {n++; p += $$(NF-5); f += $$(NF-3); k += $$(NF-1)} \
	    END {if (n < 2) f++; print p " passed, " f " failed, " k " skipped"; exit f > 0}'
