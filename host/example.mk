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

jvmti-host: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(JVMTIRT_LIBS) -ldl -pthread

%.o: %.c host.h jni_parts.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

clean:
	rm -f jvmti-host $(OBJS)

.PHONY: clean
