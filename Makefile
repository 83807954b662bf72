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
else
VARIANT := $(notdir $(CC))
BINDIR := bin
endif
OBJDIR := build/$(VARIANT)/obj
JVMTIGEN := $(BINDIR)/jvmtigen

GEN_SRCS := $(wildcard gen/*.c)
GEN_OBJS := $(GEN_SRCS:gen/%.c=$(OBJDIR)/%.o)

.PHONY: all objs generate check coverage bench clean distclean
.DELETE_ON_ERROR:

all: $(JVMTIGEN) generate

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

# Unit tests link the generator's objects, all but main.
UNITS := build/$(VARIANT)/test-units
$(UNITS): tests/unit/units.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

# Writes the test driver of the generated trampolines (tests/trampolines).
GEN_DRIVER := build/$(VARIANT)/gen-driver
$(GEN_DRIVER): tests/trampolines/gen_driver.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

check: $(JVMTIGEN) $(UNITS) $(GEN_DRIVER)
	@JVMTIGEN=$(JVMTIGEN) UNITS=$(UNITS) GEN_DRIVER=$(GEN_DRIVER) CC="$(CC)" \
	    SANITIZE="$(SANITIZE)" ./tests/run-all

# Line coverage of the generated trampolines under their generated driver.
COVERAGE_SPEC ?= $(if $(wildcard $(SPEC)),$(SPEC),../shared/spec/jdk25/jvmti.xml)
coverage: $(JVMTIGEN) $(GEN_DRIVER)
	@JVMTIGEN=$(JVMTIGEN) GEN_DRIVER=$(GEN_DRIVER) \
	    ./tests/trampolines/coverage $(COVERAGE_SPEC) build/$(VARIANT)/coverage

bench: $(JVMTIGEN)
	@JVMTIGEN=$(JVMTIGEN) ./tests/bench/run

clean:
	rm -rf build bin $(OUT)

distclean: clean
