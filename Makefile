# jvmtigen -- see README.md. `make` builds bin/jvmtigen and generates out/ from
# spec/jvmti.xml; `make check` runs every test.

CC ?= cc
PKG_CONFIG ?= pkg-config
SPEC ?= spec/jvmti.xml
OUT ?= out
# Extra generator flags, e.g. JVMTIGEN_FLAGS=--jvmti-version=25
JVMTIGEN_FLAGS ?=

XML_CFLAGS := $(shell $(PKG_CONFIG) --cflags libxml-2.0 libxslt)
XML_LIBS := $(shell $(PKG_CONFIG) --libs libxml-2.0 libxslt)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(XML_CFLAGS)

comma := ,
# `make SANITIZE=address,undefined check` builds a separate, instrumented tree.
ifneq ($(SANITIZE),)
VARIANT := $(notdir $(CC))-san-$(subst $(comma),-,$(SANITIZE))
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
BINDIR := build/$(VARIANT)/bin
LIBDIR := build/$(VARIANT)/lib
else
VARIANT := $(notdir $(CC))
BINDIR := bin
LIBDIR := lib
endif
OBJDIR := build/$(VARIANT)/obj
JVMTIGEN := $(BINDIR)/jvmtigen

GEN_SRCS := $(wildcard gen/*.c)
GEN_OBJS := $(GEN_SRCS:gen/%.c=$(OBJDIR)/%.o)

.PHONY: all objs generate runtime check coverage bench fuzz fuzz-build clean distclean
.DELETE_ON_ERROR:

all: $(JVMTIGEN) generate runtime

$(OBJDIR)/%.o: gen/%.c | $(OBJDIR)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

objs: $(GEN_OBJS)

$(JVMTIGEN): $(GEN_OBJS) | $(BINDIR)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(GEN_OBJS) $(XML_LIBS)

$(OBJDIR) $(BINDIR):
	mkdir -p $@

-include $(GEN_OBJS:.o=.d)

# Generation is driven by jvmtigen's own dependency file, so a second `make`
# with nothing changed runs nothing.
ifneq ($(wildcard $(SPEC)),)
generate: $(OUT)/jvmti.h
$(OUT)/jvmti.h: $(SPEC) $(JVMTIGEN)
	$(JVMTIGEN) -q -MD -o $(OUT) $(JVMTIGEN_FLAGS) $(SPEC)
	@touch $@
-include $(OUT)/jvmtigen.d
else
generate:
	@echo "make: $(SPEC) is not here yet (the project's own spec is still to come);"
	@echo "      generate from another spec with: make SPEC=path/to/jvmti.xml"
endif

# ---- the runtime core (runtime/) with the generated C (out/): libjvmtirt,
# and bin/jvmti-host, the small VM that runs agents on it (host/) ----
JNI_INCLUDE ?= $(patsubst %/jni.h,%,$(firstword $(wildcard \
    /usr/lib/jvm/java-17-openjdk-*/include/jni.h /usr/lib/jvm/*/include/jni.h)))
RT_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(filter-out -Wstrict-prototypes,$(WARN)) \
    $(CFLAGS) -fPIC -pthread -I$(OUT) -Iruntime -I$(JNI_INCLUDE) -I$(JNI_INCLUDE)/linux
RT_GENERATED := jvmtigen_entry jvmtigen_tables jvmtigen_post jvmtigen_defaults
RTDIR := build/$(VARIANT)/rt
RT_OBJS := $(patsubst runtime/%.c,$(RTDIR)/%.o,$(wildcard runtime/*.c)) \
    $(RT_GENERATED:%=$(RTDIR)/%.o)
HOST_OBJS := $(patsubst host/%.c,$(RTDIR)/host-%.o,$(wildcard host/*.c))
RT_LIB := $(LIBDIR)/libjvmtirt.a
RT_SO := $(LIBDIR)/libjvmtirt.so
JVMTI_HOST := $(BINDIR)/jvmti-host

ifneq ($(wildcard $(SPEC)),)
runtime: $(RT_LIB) $(RT_SO) $(JVMTI_HOST)
else
runtime:
endif

# The generated files come with jvmti.h (one jvmtigen run writes them all).
$(RT_GENERATED:%=$(OUT)/%.c) $(OUT)/jvmtigen_post.h $(OUT)/jvmtigen_impl.h \
    $(OUT)/jvmtigen_tables.h: $(OUT)/jvmti.h ;

$(RTDIR)/%.o: runtime/%.c $(OUT)/jvmti.h | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(RTDIR)/%.o: $(OUT)/%.c | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(RTDIR)/host-%.o: host/%.c $(OUT)/jvmti.h | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

$(RT_LIB): $(RT_OBJS) | $(LIBDIR)
	rm -f $@
	ar rcs $@ $(RT_OBJS)
$(RT_SO): $(RT_OBJS) | $(LIBDIR)
	$(CC) -shared -Wl,-soname,libjvmtirt.so.0 $(SAN_FLAGS) $(LDFLAGS) -o $@.0 $(RT_OBJS) -pthread
	ln -sf libjvmtirt.so.0 $@
$(JVMTI_HOST): $(HOST_OBJS) $(RT_LIB) | $(BINDIR)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(HOST_OBJS) $(RT_LIB) -ldl -pthread

$(RTDIR) $(LIBDIR):
	mkdir -p $@

-include $(RT_OBJS:.o=.d) $(HOST_OBJS:.o=.d)

# Unit tests link the generator's objects, all but main.
UNITS := build/$(VARIANT)/test-units
$(UNITS): tests/unit/units.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

# Writes the test driver of the generated trampolines (tests/trampolines).
GEN_DRIVER := build/$(VARIANT)/gen-driver
$(GEN_DRIVER): tests/trampolines/gen_driver.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

check: $(JVMTIGEN) $(UNITS) $(GEN_DRIVER) runtime
	@JVMTIGEN=$(JVMTIGEN) UNITS=$(UNITS) GEN_DRIVER=$(GEN_DRIVER) CC="$(CC)" \
	    SANITIZE="$(SANITIZE)" RT_LIB=$(RT_LIB) RT_SO=$(RT_SO) JVMTI_HOST=$(JVMTI_HOST) \
	    RT_OUT=$(OUT) JNI_INCLUDE=$(JNI_INCLUDE) ./tests/run-all

# Line coverage of the generated trampolines under their generated driver.
COVERAGE_SPEC ?= $(if $(wildcard $(SPEC)),$(SPEC),../shared/spec/jdk25/jvmti.xml)
coverage: $(JVMTIGEN) $(GEN_DRIVER)
	@JVMTIGEN=$(JVMTIGEN) GEN_DRIVER=$(GEN_DRIVER) \
	    ./tests/trampolines/coverage $(COVERAGE_SPEC) build/$(VARIANT)/coverage

bench: $(JVMTIGEN)
	@JVMTIGEN=$(JVMTIGEN) ./tests/bench/run

# ---- fuzzing (tests/fuzz): libFuzzer targets for the loader and the whole
# generation path, built with clang into build/fuzz (not the normal build).
# `make fuzz FUZZ_SECONDS=N` replays tests/fuzz/regressions, then runs each
# target for N seconds, one process at a time. ----
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OPT ?= -O1
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -g $(FUZZ_OPT) $(XML_CFLAGS) -Igen \
    -DFUZZ_SPEC_NAME='"$(CURDIR)/tests/fuzz/regressions/input.xml"'
FUZZ_OBJS := $(patsubst gen/%.c,$(FUZZ_DIR)/obj/%.o,$(filter-out gen/main.c,$(GEN_SRCS)))
FUZZ_TARGETS := $(FUZZ_DIR)/loader_fuzz $(FUZZ_DIR)/generate_fuzz

$(FUZZ_DIR)/obj/%.o: gen/%.c | $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FUZZ_DIR)/%_fuzz: tests/fuzz/%_fuzz.c $(wildcard tests/fuzz/*.h) $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(XML_LIBS)
$(FUZZ_DIR)/obj:
	mkdir -p $@
.SECONDARY: $(FUZZ_OBJS)
-include $(FUZZ_OBJS:.o=.d)

fuzz-build: $(FUZZ_TARGETS)
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_DIR=$(FUZZ_DIR) ./tests/fuzz/run $(FUZZ_TARGETS)

clean:
	rm -rf build bin lib $(OUT)

distclean: clean
