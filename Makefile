# jvmtigen -- see README.md. `make` builds bin/jvmtigen and generates out/ from
# spec/jvmti.xml; `make check` runs every test.

CC ?= cc
PKG_CONFIG ?= pkg-config
SPEC ?= spec/jvmti.xml
OUT ?= out
# Extra generator flags, e.g. JVMTIGEN_FLAGS=--jvmti-version=25
JVMTIGEN_FLAGS ?=
# Where `make install` puts things (DESTDIR is prepended to every path).
PREFIX ?= /usr/local
DESTDIR ?=
# A make that has nothing to do starts no process: what needs a command is
# worked out the first time a recipe asks for it (and then kept), never
# while the Makefile is read; files are read with $(file <).
# once VAR,COMMAND: VAR is COMMAND's output, run at most once.
once = $(eval $1 := $$(shell $2))$($1)
# The release, one line in the file VERSION (jvmtigen --version, the
# pkg-config files).
VERSION := $(strip $(file <VERSION))

XML_CFLAGS = $(call once,XML_CFLAGS,$(PKG_CONFIG) --cflags libxml-2.0 libxslt)
XML_LIBS = $(call once,XML_LIBS,$(PKG_CONFIG) --libs libxml-2.0 libxslt)
# libjvmticheck's extension entries and variadic calls (check/extensions.c).
FFI_CFLAGS = $(call once,FFI_CFLAGS,$(PKG_CONFIG) --cflags libffi)
FFI_LIBS = $(call once,FFI_LIBS,$(PKG_CONFIG) --libs libffi)

# ---- what the build needs: deps/debian.txt lists it, `make deps` installs
# it (DEPS=build: only what make needs). Checked once, when the first
# compiler runs (so a make with nothing to do still starts no process): the
# first thing missing stops make with one line naming what to install.
hash := \#
# deps_pkg NAME: the Debian package deps/debian.txt gives NAME in.
deps_pkg = $(shell awk '{ sub(/$(hash).*/, "") } { for (i = 3; i <= NF; i++) if ($$i == "$1") print $$2 }' deps/debian.txt)
DEPS_HINT = (`make deps` installs all that the build and the tests need)
# jni.h: $JAVA_HOME's, else Debian's OpenJDK 17, else any JDK's.
JNI_INCLUDE ?= $(patsubst %/jni.h,%,$(firstword $(wildcard $(if $(JAVA_HOME),$(JAVA_HOME)/include/jni.h) \
    /usr/lib/jvm/java-17-openjdk-*/include/jni.h /usr/lib/jvm/*/include/jni.h)))
# The first of the compiler, pkg-config and its modules that is not there.
DEPS_MISSING = $(call once,DEPS_MISSING,command -v $(firstword $(CC)) >/dev/null || { echo CC; exit; }; \
    command -v $(PKG_CONFIG) >/dev/null || { echo pkg-config; exit; }; \
    for m in libxml-2.0 libxslt libffi; do $(PKG_CONFIG) --exists $$$$m || { echo $$$$m; exit; }; done)
DEPS_CHECK = $(if $(DEPS_MISSING),$(error $(DEPS_MISSING_$(if $(filter CC pkg-config,$(DEPS_MISSING)),$(DEPS_MISSING),pc)) $(DEPS_HINT)))$(if \
    $(wildcard $(JNI_INCLUDE)/jni.h),,$(error no jni.h in $(if $(JAVA_HOME),$$JAVA_HOME/include ($(JAVA_HOME)/include) or )/usr/lib/jvm/*/include: set JAVA_HOME or install $(call deps_pkg,jni.h) $(DEPS_HINT)))
DEPS_MISSING_CC = no C compiler: $(firstword $(CC)) is not on PATH: set CC or install $(or $(call deps_pkg,$(notdir $(firstword $(CC)))),$(call deps_pkg,cc))
DEPS_MISSING_pkg-config = $(PKG_CONFIG) is not on PATH: install $(call deps_pkg,pkg-config)
DEPS_MISSING_pc = pkg-config knows no $(DEPS_MISSING): install $(call deps_pkg,$(DEPS_MISSING)), its development files

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS ?= -O2 -g
# valgrind 3.19 cannot read clang 14's DWARF 5 (memcheck would fail on a
# clang build): clang's debug information is DWARF 4.
IS_CLANG = $(call once,IS_CLANG,$(CC) --version 2>/dev/null | grep -q clang && echo yes)
DEBUG_FORMAT = $(if $(IS_CLANG),$(if $(filter -g%,$(CFLAGS)),-gdwarf-4))
ALL_CFLAGS = $(DEPS_CHECK)-std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(DEBUG_FORMAT) $(XML_CFLAGS) -Igen

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
# Every compiler has its own objects, but bin/ and lib/ are shared: a file
# naming the compiler that linked them last makes `make` after `make
# CC=clang` link gcc's objects again, instead of keeping clang's binaries.
# It is rewritten only when something is linked.
LINKED_BY ?= build/linked-by-$(subst /,-,$(BINDIR))
ifneq ($(file <$(LINKED_BY)),$(VARIANT))
.PHONY: $(LINKED_BY)
endif

GEN_SRCS := $(wildcard gen/*.c gen/*/*.c)
GEN_OBJS := $(GEN_SRCS:gen/%.c=$(OBJDIR)/%.o)

.PHONY: all objs generate runtime check check-build conformance coverage bench fuzz fuzz-build fuzz-coverage clean distclean install uninstall
.DELETE_ON_ERROR:

all: $(JVMTIGEN) generate runtime

# Installs the Debian packages of deps/debian.txt that are missing (with
# sudo when not root) and the docs tests' node packages; DEPS=build: only
# what make needs.
.PHONY: deps
deps:
	deps/install $(DEPS)

$(OBJDIR)/%.o: gen/%.c | $(OBJDIR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

objs: $(GEN_OBJS)

$(JVMTIGEN): $(GEN_OBJS) $(LINKED_BY) | $(BINDIR)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(GEN_OBJS) $(XML_LIBS)
ifneq ($(SANITIZE),)
	@# jvmtigen finds its templates at BIN/../templates, its default spec at BIN/../spec
	ln -sfn ../../templates build/$(VARIANT)/templates
	ln -sfn ../../spec build/$(VARIANT)/spec
endif

$(OBJDIR) $(BINDIR):
	mkdir -p $@
$(LINKED_BY):
	@mkdir -p $(@D) && echo '$(VARIANT)' >$@

# A path as one shell word, whatever it holds (PREFIX="/opt/my tools"):
# single quotes, each ' in it written '\''.
shq = '$(subst ','\'',$(1))'
# A C string literal of a path (" and \ escaped).
cstr = "$(subst ",\",$(subst \,\\,$(1)))"

# The installed templates' directory is compiled in (the last place jvmtigen
# looks, after those relative to its executable). The stamp is rewritten
# (when make reads this file) only when PREFIX changes, and only then is
# datadir.o rebuilt.
DATADIR_STAMP := $(OBJDIR)/datadir
ifneq ($(file <$(DATADIR_STAMP)),$(PREFIX)/share/jvmtigen)
$(shell mkdir -p $(OBJDIR))
$(file >$(DATADIR_STAMP),$(PREFIX)/share/jvmtigen)
endif
$(OBJDIR)/main.o: VERSION
$(OBJDIR)/main.o: ALL_CFLAGS += -DJVMTIGEN_VERSION='"$(VERSION)"'
$(OBJDIR)/docs/datadir.o: $(DATADIR_STAMP)
$(OBJDIR)/docs/datadir.o: ALL_CFLAGS += -DJVMTIGEN_DATADIR=$(call shq,$(call cstr,$(PREFIX)/share/jvmtigen))

-include $(GEN_OBJS:.o=.d)

# Generation is driven by jvmtigen's own dependency file, so a second `make`
# with nothing changed runs nothing. The stamp records the last run (-MT
# makes it the depfile's target); jvmtigen leaves unchanged outputs alone, so
# what depends on them is rebuilt only when they change.
# The stamp (an empty file) is also included as a makefile: make brings it
# up to date before anything else and then reads everything again, so it
# sees the outputs' new times and the outputs need no rule of their own
# against the stamp (one with an empty recipe made `make -q` and `make -n`
# always find work). A missing output forces a run. Goals that need no
# out/ do not generate it.
GEN_STAMP := $(OUT)/.jvmtigen-stamp
# The spec and the flags of the last run, written once it succeeded: a make
# with another SPEC (older than the stamp, or at another path) or other
# JVMTIGEN_FLAGS generates again instead of keeping the old outputs.
GEN_ARGS := $(OUT)/.jvmtigen-args
GEN_ARGS_NOW = $(abspath $(SPEC)) $(strip $(JVMTIGEN_FLAGS))
GEN_OUTPUTS := $(addprefix $(OUT)/,jvmti.h jvmtigen_entry.c jvmtigen_tables.c jvmtigen_tables.h \
    jvmtigen_post.c jvmtigen_post.h jvmtigen_defaults.c jvmtigen_impl.h jvmticheck_forward.c)
NO_GENERATE_GOALS := clean distclean uninstall deps objs fuzz fuzz-build fuzz-coverage checker-from
ifneq ($(wildcard $(SPEC)),)
generate: $(GEN_STAMP)
$(GEN_STAMP): $(SPEC) $(JVMTIGEN)
	$(JVMTIGEN) -q -MD -MT $@ -o $(OUT) $(JVMTIGEN_FLAGS) $(SPEC)
	@printf '%s\n' $(call shq,$(GEN_ARGS_NOW)) >$(GEN_ARGS) && touch $@
ifneq ($(filter-out $(wildcard $(GEN_OUTPUTS)),$(GEN_OUTPUTS)),)
$(GEN_STAMP): FORCE
endif
ifneq ($(file <$(GEN_ARGS)),$(GEN_ARGS_NOW))
$(GEN_STAMP): FORCE
endif
-include $(OUT)/jvmtigen.d
ifneq ($(if $(MAKECMDGOALS),$(filter-out $(NO_GENERATE_GOALS),$(MAKECMDGOALS)),all),)
-include $(GEN_STAMP)
endif
else
generate:
	@echo "make: $(SPEC) is not here yet (the project's own spec is still to come);"
	@echo "      generate from another spec with: make SPEC=path/to/jvmti.xml"
endif

# ---- the runtime core (runtime/) with the generated C (out/): libjvmtirt,
# and bin/jvmti-host, the small VM that runs agents on it (host/) ----
# runtime/'s folders, its layers from the bottom (runtime/README.md): the
# installed headers, then base, the areas, the lifecycle. Objects are named
# after their sources, which have unique names.
RT_DIRS := include base envs objects threads classes lifecycle
RT_CFLAGS = $(DEPS_CHECK)-std=c11 -D_POSIX_C_SOURCE=200809L $(filter-out -Wstrict-prototypes,$(WARN)) \
    $(CFLAGS) $(DEBUG_FORMAT) -fPIC -pthread -I$(OUT) $(RT_DIRS:%=-Iruntime/%) -I$(JNI_INCLUDE) -I$(JNI_INCLUDE)/linux
RT_GENERATED := jvmtigen_entry jvmtigen_tables jvmtigen_post jvmtigen_defaults
RTDIR := build/$(VARIANT)/rt
RT_OBJS := $(patsubst %.c,$(RTDIR)/%.o,$(notdir $(wildcard $(RT_DIRS:%=runtime/%/*.c)))) \
    $(RT_GENERATED:%=$(RTDIR)/%.o)
# host/ is the reference VM; host/scaffold/ the test scaffolding linked into
# bin/jvmti-host beside it (host/scaffold/README.md). Objects are named
# host-NAME.o after their sources, which have unique names.
HOST_OBJS := $(patsubst %.c,$(RTDIR)/host-%.o,$(notdir $(wildcard host/*.c host/scaffold/*.c)))
RT_LIB := $(LIBDIR)/libjvmtirt.a
RT_SO := $(LIBDIR)/libjvmtirt.so
JVMTI_HOST := $(BINDIR)/jvmti-host
# What the host loads before a JDK's own agent (host/placeholders/README.md).
HOST_PLACEHOLDERS := $(LIBDIR)/jvmti-host/libjvm.so $(LIBDIR)/jvmti-host/libjava.so

ifneq ($(wildcard $(SPEC)),)
runtime: $(RT_LIB) $(RT_SO) $(JVMTI_HOST) $(HOST_PLACEHOLDERS)
else
runtime:
endif

# One jvmtigen run writes them all, before make looks at them (the stamp is
# included above).
$(GEN_OUTPUTS): ;
.PHONY: FORCE
FORCE:

define RT_DIR_RULE
$$(RTDIR)/%.o: runtime/$(1)/%.c $$(OUT)/jvmti.h | $$(RTDIR)
	$$(CC) $$(RT_CFLAGS) $$(SAN_FLAGS) -MMD -MP -c -o $$@ $$<
endef
$(foreach d,$(RT_DIRS),$(eval $(call RT_DIR_RULE,$(d))))
# Depfiles written before runtime/ had folders name runtime/NAME.c: such a
# source counts as changed, so the object is built again from its folder.
$(addprefix runtime/,$(notdir $(wildcard $(RT_DIRS:%=runtime/%/*.c)))): ;
$(RTDIR)/%.o: $(OUT)/%.c | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
# The core owns raw monitors: each raw monitor function decodes its handle
# and answers JVMTI_ERROR_INVALID_MONITOR itself (runtime/threads/monitor.c),
# where the trampoline's hook would, so its trampolines do not decode it
# first (an indirect call and a table walk on every RawMonitorEnter and Exit).
$(RTDIR)/jvmtigen_entry.o: RT_CFLAGS += '-DJVMTIGEN_CHECK_MONITOR(env, m)=JVMTI_ERROR_NONE'
# The scaffolding's rule first: a depfile written before host/scaffold/
# existed names host/NAME.c (soak.c), which counts as changed.
$(RTDIR)/host-%.o: host/scaffold/%.c $(OUT)/jvmti.h | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(addprefix host/,$(notdir $(wildcard host/scaffold/*.c))): ;
$(RTDIR)/host-%.o: host/%.c $(OUT)/jvmti.h | $(RTDIR)
	$(CC) $(RT_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

$(RT_LIB): $(RT_OBJS) $(LINKED_BY) | $(LIBDIR)
	rm -f $@
	ar rcs $@ $(RT_OBJS)
$(RT_SO): $(RT_OBJS) $(LINKED_BY) | $(LIBDIR)
	$(CC) -shared -Wl,-soname,libjvmtirt.so.0 $(SAN_FLAGS) $(LDFLAGS) -o $@.0 $(RT_OBJS) -ldl -pthread
	ln -sf libjvmtirt.so.0 $@
$(JVMTI_HOST): $(HOST_OBJS) $(RT_LIB) $(LINKED_BY) | $(BINDIR)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(HOST_OBJS) $(RT_LIB) -ldl -pthread
# -agentlib's default JDK: the one whose jni.h the host is built with.
$(RTDIR)/host-javahome.o: RT_CFLAGS += '-DHOST_JAVA_HOME="$(patsubst %/include,%,$(JNI_INCLUDE))"'
$(LIBDIR)/jvmti-host/lib%.so: host/placeholders/libjvm.c host/placeholders/libjvm.map
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -I$(JNI_INCLUDE) -I$(JNI_INCLUDE)/linux -shared -fPIC \
	    -Wl,-soname,lib$*.so -Wl,--version-script=host/placeholders/libjvm.map $(LDFLAGS) -o $@ $<

$(RTDIR) $(LIBDIR):
	mkdir -p $@

-include $(RT_OBJS:.o=.d) $(HOST_OBJS:.o=.d)

# ---- lib/libjvmticheck.so: the agent that wraps another and checks its
# JVM TI calls (check/, with out/jvmticheck_forward.c, the tables and the
# tracer; only the Agent_ entry points are exported) ----
CHECK_SO := $(LIBDIR)/libjvmticheck.so
CHECKDIR := build/$(VARIANT)/check
CHECK_OBJS := $(patsubst check/%.c,$(CHECKDIR)/%.o,$(wildcard check/*.c)) \
    $(CHECKDIR)/jvmticheck_forward.o $(CHECKDIR)/jvmtigen_tables.o $(CHECKDIR)/trace.o
CHECK_CFLAGS = $(RT_CFLAGS) $(FFI_CFLAGS) -Icheck -fvisibility=hidden
ifneq ($(wildcard $(SPEC)),)
runtime: $(CHECK_SO)
endif
$(CHECKDIR)/%.o: check/%.c $(OUT)/jvmti.h | $(CHECKDIR)
	$(CC) $(CHECK_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
# The SARIF report names the release.
$(CHECKDIR)/output.o: VERSION
$(CHECKDIR)/output.o: CHECK_CFLAGS += -DJVMTIGEN_VERSION='"$(VERSION)"'
$(CHECKDIR)/%.o: $(OUT)/%.c | $(CHECKDIR)
	$(CC) $(CHECK_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(CHECKDIR)/trace.o: runtime/base/trace.c $(OUT)/jvmti.h | $(CHECKDIR)
	$(CC) $(CHECK_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(CHECK_SO): $(CHECK_OBJS) $(LINKED_BY) | $(LIBDIR)
	$(CC) -shared $(SAN_FLAGS) $(LDFLAGS) -o $@ $(CHECK_OBJS) $(FFI_LIBS) -ldl -pthread
$(CHECKDIR):
	mkdir -p $@
-include $(CHECK_OBJS:.o=.d)
# The checker alone, built from another spec in a folder of its own (the
# jvmticheck suite builds one from the JDK 17 spec to run on a newer VM):
#   make checker-from CHECKER_SPEC=FILE CHECKER_DIR=DIR [CHECKER_FLAGS=--jvmti-version=17]
# writes DIR/out (the C outputs), DIR/obj and DIR/libjvmticheck.so.
.PHONY: checker-from
checker-from:
	$(MAKE) --no-print-directory SPEC=$(CHECKER_SPEC) OUT=$(CHECKER_DIR)/out \
	    JVMTIGEN_FLAGS="--no-docs $(CHECKER_FLAGS)" CHECKDIR=$(CHECKER_DIR)/obj \
	    CHECK_SO=$(CHECKER_DIR)/libjvmticheck.so $(CHECKER_DIR)/libjvmticheck.so

# Every object of the runtime, the host and the checker, linked into nothing
# (tests/build compiles them with each compiler).
.PHONY: rt-objs
rt-objs: $(RT_OBJS) $(HOST_OBJS) $(CHECK_OBJS)
# Installed beside libjvmtirt, with its man page (docs/jvmticheck.7) and
# the suppressions of what JDWP keeps on purpose (check/jdwp.supp).
.PHONY: install-jvmticheck uninstall-jvmticheck
install: install-jvmticheck
install-jvmticheck: all
	$(INSTALL) -d $(call shq,$(DESTDIR)$(libdir)) $(call shq,$(DESTDIR)$(mandir)/man7) \
	    $(call shq,$(DESTDIR)$(datadir)/jvmticheck)
	$(INSTALL) -m 755 $(CHECK_SO) $(call shq,$(DESTDIR)$(libdir)/libjvmticheck.so)
	$(INSTALL) -m 644 docs/jvmticheck.7 $(call shq,$(DESTDIR)$(mandir)/man7/jvmticheck.7)
	$(INSTALL) -m 644 check/jdwp.supp $(call shq,$(DESTDIR)$(datadir)/jvmticheck/jdwp.supp)
uninstall: uninstall-jvmticheck
uninstall-jvmticheck:
	$(call rm_in,$(libdir),libjvmticheck.so)
	$(call rm_in,$(mandir)/man7,jvmticheck.7)
	$(call rm_in,$(datadir)/jvmticheck,jdwp.supp)
	rmdir $(call D,$(datadir)/jvmticheck) 2>/dev/null || true

# ---- make install / make uninstall (PREFIX, DESTDIR) ----
# jvmtigen, its man page, templates and the project's spec (with its DTD:
# the default SPEC); libjvmtirt (static, and shared with its soname), the
# headers a VM includes, jvmtirt.pc for pkg-config (with jvmtirt-lib.pc: see
# runtime/include/jvmtirt.pc.in) and its man page (docs/jvmtirt.3); jvmti-host;
# the reference of the spec (jvmti.html, and its man3 pages) and the runtime's
# README as documentation.
# jni.h is the JDK's: the VM puts it on the include path itself.
bindir := $(PREFIX)/bin
libdir := $(PREFIX)/lib
includedir := $(PREFIX)/include
datadir := $(PREFIX)/share/jvmtigen
mandir := $(PREFIX)/share/man
docdir := $(PREFIX)/share/doc/jvmtigen
pkgconfigdir := $(libdir)/pkgconfig
# The reference VM's sources, with a Makefile that builds them with pkg-config.
exampledir := $(datadir)/examples/jvmti-host
# The example is the reference VM alone: host/scaffold/ is not installed.
HOST_EXAMPLE := $(wildcard host/*.c host/*.h) host/README.md
HOST_PLACEHOLDER_SOURCES := $(wildcard host/placeholders/*)
INSTALL ?= install
SO_REAL = libjvmtirt.so.$(VERSION)
RT_HEADERS := runtime/include/jvmtirt.h runtime/include/jvmtigen_hooks.h \
    runtime/include/jvmtigen_post_support.h runtime/include/jvmtigen_trace.h
GEN_HEADERS := jvmti.h jvmtigen_impl.h jvmtigen_post.h jvmtigen_tables.h
TEMPLATES := $(wildcard templates/*.xsl)
RT_PCS := build/$(VARIANT)/jvmtirt.pc build/$(VARIANT)/jvmtirt-lib.pc

# In a .pc file a space or a quote in a value is written "\ ", "\'"
# (pkg-config splits flags as a shell does); for sed's replacement \ & |
# are escaped too.
pc_prefix = $(subst |,\|,$(subst &,\&,$(subst \,\\,$(subst ',\',$(subst $(space),\ ,$(PREFIX))))))
space := $(subst ,, )
build/$(VARIANT)/%.pc: runtime/include/%.pc.in Makefile $(DATADIR_STAMP)
	sed -e $(call shq,s|@PREFIX@|$(pc_prefix)|) -e 's|@VERSION@|$(VERSION)|' $< > $@

# Every installed path is quoted: PREFIX and DESTDIR may hold spaces.
D = $(call shq,$(DESTDIR)$(1))
install: all $(RT_PCS)
	$(INSTALL) -d $(call D,$(bindir)) $(call D,$(mandir)/man1) $(call D,$(mandir)/man3) \
	    $(call D,$(datadir)/templates) $(call D,$(docdir)) \
	    $(call D,$(libdir)) $(call D,$(includedir)/jvmtigen) $(call D,$(pkgconfigdir))
	$(INSTALL) -m 755 $(JVMTIGEN) $(call D,$(bindir)/jvmtigen)
	$(INSTALL) -m 755 $(JVMTI_HOST) $(call D,$(bindir)/jvmti-host)
	$(INSTALL) -m 644 docs/jvmtigen.1 $(call D,$(mandir)/man1/jvmtigen.1)
	$(INSTALL) -m 644 $(OUT)/man/man3/*.3 $(call D,$(mandir)/man3)
	$(INSTALL) -m 644 docs/jvmtirt.3 $(call D,$(mandir)/man3/jvmtirt.3)
	$(INSTALL) -m 644 $(TEMPLATES) $(call D,$(datadir)/templates)
	$(INSTALL) -m 644 spec/jvmti.xml spec/jvmti.dtd $(call D,$(datadir))
	$(INSTALL) -m 644 $(OUT)/jvmti.html $(call D,$(docdir)/jvmti.html)
	$(INSTALL) -m 644 runtime/README.md $(call D,$(docdir)/runtime.md)
	$(INSTALL) -m 644 $(RT_LIB) $(call D,$(libdir)/libjvmtirt.a)
	$(INSTALL) -m 755 $(RT_SO).0 $(call D,$(libdir)/$(SO_REAL))
	ln -sf $(SO_REAL) $(call D,$(libdir)/libjvmtirt.so.0)
	ln -sf libjvmtirt.so.0 $(call D,$(libdir)/libjvmtirt.so)
	$(INSTALL) -m 644 $(RT_HEADERS) $(GEN_HEADERS:%=$(OUT)/%) $(call D,$(includedir)/jvmtigen)
	$(INSTALL) -m 644 $(RT_PCS) $(call D,$(pkgconfigdir))
	$(INSTALL) -d $(call D,$(exampledir))
	$(INSTALL) -m 644 $(HOST_EXAMPLE) $(call D,$(exampledir))
	$(INSTALL) -m 644 host/example.mk $(call D,$(exampledir)/Makefile)
	$(INSTALL) -d $(call D,$(exampledir)/placeholders) $(call D,$(libdir)/jvmti-host)
	$(INSTALL) -m 644 $(HOST_PLACEHOLDER_SOURCES) $(call D,$(exampledir)/placeholders)
	$(INSTALL) -m 755 $(HOST_PLACEHOLDERS) $(call D,$(libdir)/jvmti-host)

# Removes exactly the files install puts in place, and the directories that
# are jvmtigen's own; shared ones (bin, lib, man1, ...) stay. The man3 pages
# are those of $(OUT) (the spec installed).
# rm_in DIR,NAMES: DIR may hold spaces, the names do not.
rm_in = rm -f $(foreach f,$(2),$(call D,$(1)/$(f)))
uninstall:
	$(call rm_in,$(bindir),jvmtigen jvmti-host)
	$(call rm_in,$(mandir)/man1,jvmtigen.1)
	$(call rm_in,$(mandir)/man3,$(notdir $(wildcard $(OUT)/man/man3/*.3)) jvmtirt.3)
	$(call rm_in,$(datadir)/templates,$(notdir $(TEMPLATES)))
	$(call rm_in,$(datadir),jvmti.xml jvmti.dtd)
	$(call rm_in,$(docdir),jvmti.html runtime.md)
	$(call rm_in,$(libdir),libjvmtirt.a $(SO_REAL) libjvmtirt.so.0 libjvmtirt.so)
	$(call rm_in,$(includedir)/jvmtigen,$(notdir $(RT_HEADERS)) $(GEN_HEADERS))
	$(call rm_in,$(pkgconfigdir),jvmtirt.pc jvmtirt-lib.pc)
	$(call rm_in,$(exampledir),$(notdir $(HOST_EXAMPLE)) Makefile)
	$(call rm_in,$(exampledir)/placeholders,$(notdir $(HOST_PLACEHOLDER_SOURCES)))
	$(call rm_in,$(libdir)/jvmti-host,$(notdir $(HOST_PLACEHOLDERS)))
	rmdir $(call D,$(exampledir)/placeholders) $(call D,$(libdir)/jvmti-host) \
	    $(call D,$(exampledir)) $(call D,$(datadir)/examples) \
	    $(call D,$(datadir)/templates) $(call D,$(datadir)) $(call D,$(docdir)) \
	    $(call D,$(includedir)/jvmtigen) 2>/dev/null || true

# Unit tests link the generator's objects, all but main.
UNITS := build/$(VARIANT)/test-units
$(UNITS): tests/unit/units.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

# Writes the test driver of the generated trampolines (tests/trampolines).
GEN_DRIVER := build/$(VARIANT)/gen-driver
$(GEN_DRIVER): tests/trampolines/gen_driver.c $(filter-out $(OBJDIR)/main.o,$(GEN_OBJS))
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(XML_LIBS)

# What make check runs on, as a target of its own: .ci/run builds it with
# `make -j2 check-build` (both processors), then runs `make check` without -j
# (a -j would hand make's job slots to the suites' own makes).
check-build: $(JVMTIGEN) $(UNITS) $(GEN_DRIVER) runtime
check: check-build
	@JVMTIGEN=$(JVMTIGEN) UNITS=$(UNITS) GEN_DRIVER=$(GEN_DRIVER) CC="$(CC)" \
	    SANITIZE="$(SANITIZE)" RT_LIB=$(RT_LIB) RT_SO=$(RT_SO) RT_OBJDIR=$(RTDIR) JVMTI_HOST=$(JVMTI_HOST) \
	    RT_OUT=$(OUT) RT_SPEC=$(SPEC) JNI_INCLUDE=$(JNI_INCLUDE) PREFIX=$(PREFIX) MAKE="$(MAKE)" \
	    ./tests/run-all

# ---- line coverage of the trampolines: tests/trampolines/coverage.mk (make coverage) ----
include tests/trampolines/coverage.mk

# One agent in HotSpot and in jvmti-host, answers compared case by case
# (tests/conformance; needs a JDK 17 java). Ends with the summary line.
# JAVA=, VM_CMD= and DIFFERENCES= (passed on in the environment) point it
# at other VMs: tests/conformance/README.md.
CONFORMANCE_DIR := build/$(VARIANT)/conformance
conformance: $(JVMTIGEN) runtime
	@JVMTIGEN=$(JVMTIGEN) JVMTI_HOST=$(JVMTI_HOST) RT_OUT=$(OUT) JNI_INCLUDE=$(JNI_INCLUDE) \
	    CC="$(CC)" SPEC=$(SPEC) ./tests/conformance/run $(CONFORMANCE_DIR) --min 300

bench: $(JVMTIGEN) runtime
	@JVMTIGEN=$(JVMTIGEN) JVMTI_HOST=$(JVMTI_HOST) RT_LIB=$(RT_LIB) RT_OUT=$(OUT) \
	    JNI_INCLUDE=$(JNI_INCLUDE) CC="$(CC)" ./tests/bench/run

# ---- fuzzing: tests/fuzz/fuzz.mk (make fuzz, fuzz-build, fuzz-coverage) ----
include tests/fuzz/fuzz.mk

clean:
	rm -rf build bin lib $(OUT)

distclean: clean
