# Included by the Makefile: the fuzzing rules (`make fuzz`, `make
# fuzz-build`, `make fuzz-coverage`), apart from the build of the tools.

# ---- fuzzing (tests/fuzz): libFuzzer targets for the loader, the whole C
# generation path and the documentation, built with clang into build/fuzz
# (not the normal build).
# `make fuzz FUZZ_SECONDS=N` replays tests/fuzz/regressions, then runs each
# target for N seconds, one process at a time. ----
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_DIR ?= build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OPT ?= -O1
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -g $(FUZZ_OPT) $(XML_CFLAGS) -Igen \
    -DFUZZ_SPEC_NAME='"$(CURDIR)/tests/fuzz/regressions/input.xml"' \
    -DFUZZ_TEMPLATES='"$(CURDIR)/templates"' -DFUZZ_OWN_SPEC='"$(CURDIR)/spec/jvmti.xml"'
FUZZ_OBJS := $(patsubst gen/%.c,$(FUZZ_DIR)/obj/%.o,$(filter-out gen/main.c,$(GEN_SRCS)))
FUZZ_TARGETS := $(FUZZ_DIR)/loader_fuzz $(FUZZ_DIR)/generate_fuzz $(FUZZ_DIR)/docs_fuzz \
    $(FUZZ_DIR)/fill_fuzz $(FUZZ_DIR)/url_fuzz $(FUZZ_DIR)/classfile_fuzz
# The runtime core's class-file reader: its one file, with the generated
# jvmti.h and the runtime's headers (no generator objects), warned as
# the runtime is (jvmti.h declares its reserved slots without prototypes).
FUZZ_RT_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(filter-out -Wstrict-prototypes,$(WARN)) -g $(FUZZ_OPT) -I$(OUT) -Iruntime/include \
    -Iruntime/classes -I$(JNI_INCLUDE) -I$(JNI_INCLUDE)/linux

$(FUZZ_DIR)/obj/%.o: gen/%.c | $(FUZZ_DIR)/obj
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FUZZ_DIR)/%_fuzz: tests/fuzz/%_fuzz.c $(wildcard tests/fuzz/*.h) $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(XML_LIBS)
$(FUZZ_DIR)/classfile_fuzz: tests/fuzz/classfile_fuzz.c runtime/classes/classfile.c \
    runtime/classes/classfile.h $(OUT)/jvmti.h | $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_RT_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ tests/fuzz/classfile_fuzz.c \
	    runtime/classes/classfile.c
$(FUZZ_DIR)/obj:
	mkdir -p $@
.SECONDARY: $(FUZZ_OBJS)
-include $(FUZZ_OBJS:.o=.d)

fuzz-build: $(FUZZ_TARGETS)
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_DIR=$(FUZZ_DIR) ./tests/fuzz/run $(FUZZ_TARGETS)

# `make fuzz-coverage`: the lines of gen/ the corpora reach. The same
# targets, built with source-based coverage instead of the sanitizers.
FUZZ_COV_DIR ?= build/fuzz-cov
fuzz-coverage:
	@$(MAKE) --no-print-directory FUZZ_DIR=$(FUZZ_COV_DIR) \
	    FUZZ_SAN='-fprofile-instr-generate -fcoverage-mapping' fuzz-build >/dev/null
	@FUZZ_DIR=$(FUZZ_DIR) FUZZ_COV_DIR=$(FUZZ_COV_DIR) ./tests/fuzz/coverage \
	    $(FUZZ_COV_DIR)/loader_fuzz $(FUZZ_COV_DIR)/generate_fuzz $(FUZZ_COV_DIR)/docs_fuzz
