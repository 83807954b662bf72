# Builds jvmti-host, jvmtigen's reference VM, from these sources against an
# installed libjvmtirt (found with pkg-config) and the JDK's jni.h:
#
#   make JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
#   ./jvmti-host -agentpath:/path/to/agent.so -threads:2
#
# It links the static library (pkg-config --static), so the program runs
# without LD_LIBRARY_PATH. README.md says what each file holds. JAVA_HOME may
# hold spaces; pkg-config writes a space in the install prefix as "\ ".
JAVA_HOME ?= /usr/lib/jvm/default-java
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
JVMTIRT_CFLAGS := $(shell $(PKG_CONFIG) --cflags jvmtirt)
JVMTIRT_LIBS := $(shell $(PKG_CONFIG) --static --libs jvmtirt)
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -pthread $(JVMTIRT_CFLAGS) \
    -I'$(JAVA_HOME)/include' -I'$(JAVA_HOME)/include/linux' $(CFLAGS) \
    '-DHOST_JAVA_HOME="$(JAVA_HOME)"'
OBJS := $(patsubst %.c,%.o,$(wildcard *.c))
# What a JDK's own agent (libjdwp.so) needs loaded: placeholders/README.md.
# The program loads them from placeholders/ beside it.
PLACEHOLDERS := placeholders/libjvm.so placeholders/libjava.so

all: jvmti-host $(PLACEHOLDERS)

jvmti-host: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(JVMTIRT_LIBS) -ldl -pthread

javahome.o: ALL_CFLAGS += '-DHOST_PLACEHOLDER_DIR="placeholders"'

placeholders/lib%.so: placeholders/libjvm.c placeholders/libjvm.map
	$(CC) -std=c11 $(CFLAGS) -I'$(JAVA_HOME)/include' -I'$(JAVA_HOME)/include/linux' -shared -fPIC \
	    -Wl,-soname,lib$*.so -Wl,--version-script=placeholders/libjvm.map $(LDFLAGS) -o $@ $<

%.o: %.c host.h hooks.h jni_parts.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

clean:
	rm -f jvmti-host $(OBJS) $(PLACEHOLDERS)

.PHONY: all clean
