# tests/fuzz/fuzz.mk: libFuzzer targets (clang), opt-in: `make fuzz` (included by the Makefile).
#
#   fuzz   tests/fuzz/fuzz_gemm.c and fuzz_elementwise.c against the library built by clang with
#          AddressSanitizer + UBSan (errors fatal), for FUZZ_SECONDS (default 30) under each kernel
#          family this CPU runs; the GEMM also with tiny blocks (MC=12 KC=8 NC=32: every block edge at
#          small sizes). Corpora grow in build/fuzz/corpus-<fuzzer>-<family>/ (replayed first, outside
#          the time). A failure leaves its input in build/fuzz/ (crash-*), which `build/fuzz/fuzz_gemm
#          FILE` (or fuzz_elementwise) replays. Not in `make test`: a fuzzer's worth is in how long it
#          runs, and what it finds is turned into a test (as the scalars section's NaN/Inf alpha).
#          The first build is slow: clang 14 at -O1 under both sanitizers took ~25 minutes over
#          cpu/kernel_x86.c alone on the 2-core Xeon of results/intel-xeon-l3-480m-2c (its AVX-512
#          tiles inline into many large bodies; -O0 took 2.5 minutes, but then the kernels would run
#          as nothing shipped runs them); the objects are kept in build/fuzz/obj/ for later runs.

FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -std=c11 -O1 -g -fopenmp -Icommon -DTGEMM_TESTING \
		-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_OBJS    := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)

.PHONY: fuzz

$(FUZZ_DIR)/obj/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_gemm: tests/fuzz/fuzz_gemm.c tests/fuzz/fuzz_input.h common/reference.c common/reference.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer tests/fuzz/fuzz_gemm.c common/reference.c $(FUZZ_OBJS) \
	    -lm -o $@

$(FUZZ_DIR)/fuzz_elementwise: tests/fuzz/fuzz_elementwise.c tests/fuzz/fuzz_input.h \
	    tests/elementwise/ew_ref.h tests/elementwise/act_ref.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -ffp-contract=off -fsanitize=fuzzer tests/fuzz/fuzz_elementwise.c $(FUZZ_OBJS) \
	    -lm -o $@

fuzz: $(FUZZ_DIR)/fuzz_gemm $(FUZZ_DIR)/fuzz_elementwise
	@for z in fuzz_gemm fuzz_elementwise; do for f in $(X86_FAMILIES) generic; do \
	    for blocks in "" "TGEMM_MC=12 TGEMM_KC=8 TGEMM_NC=32"; do \
	    [ $$z = fuzz_elementwise ] && [ -n "$$blocks" ] && continue; \
	    echo "== $$z, TGEMM_ARCH=$$f $$blocks, $(FUZZ_SECONDS) s"; \
	    mkdir -p "$(FUZZ_DIR)/corpus-$$z-$$f"; \
	    (cd $(FUZZ_DIR) && env TGEMM_ARCH=$$f $$blocks ASAN_OPTIONS=detect_leaks=1 ./$$z \
	        -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -len_control=0 -print_final_stats=1 "corpus-$$z-$$f" 2>&1 | \
	        grep -E '^Done|fuzz:|ERROR|SUMMARY|stat::number_of_executed_units') || exit 1; \
	done; done; done
