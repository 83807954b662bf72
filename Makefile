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

.PHONY: all objs generate runtime check conformance coverage bench clean distclean
.DELETE_ON_ERROR:

all: $(JVMTIGEN) generate runtime

$(OBJDIR)/%.o: gen/%.c | $(OBJDIR)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

objs: $(GEN_OBJS)

$(JVMTIGEN): $(GEN_OBJS) | $(BINDIR)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(GEN_OBJS) $(XML_LIBS)
ifneq ($(SANITIZE),)
	@# jvmtigen finds its templates at BIN/../templates
	ln -sfn ../../templates build/$(VARIANT)/templates
endif

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

# One agent in HotSpot and in jvmti-host, answers compared case by case
# (tests/conformance; needs a JDK 17 java). Ends with the summary line.
CONFORMANCE_DIR := build/$(VARIANT)/conformance
conformance: $(JVMTIGEN) runtime
	@JVMTIGEN=$(JVMTIGEN) JVMTI_HOST=$(JVMTI_HOST) RT_OUT=$(OUT) JNI_INCLUDE=$(JNI_INCLUDE) \
	    CC="$(CC)" SPEC=$(SPEC) ./tests/conformance/run $(CONFORMANCE_DIR) --min 300

bench: $(JVMTIGEN) runtime
	@JVMTIGEN=$(JVMTIGEN) JVMTI_HOST=$(JVMTI_HOST) RT_LIB=$(RT_LIB) RT_OUT=$(OUT) \
	    JNI_INCLUDE=$(JNI_INCLUDE) CC="$(CC)" ./tests/bench/run

clean:
	rm -rf build bin lib $(OUT)

distclean: clean
