/* What the scaffolding's files offer scaffold.c, which puts them in the
 * one table of test hooks the reference VM calls (../hooks.h). Each
 * option's parser takes what follows its ':' (1: valid). */
#ifndef JVMTI_HOST_SCAFFOLD_H
#define JVMTI_HOST_SCAFFOLD_H

#include "../hooks.h"
#include "../host.h"

/* -soak:SECONDS (soak.c): extension functions registered before agents
 * load; the baseline taken before the workers start; each worker posting
 * until the time is up; the main thread sampling while workers run; the
 * checks after VMDeath (returns how many failed). */
int soak_option(const char *arg);
int soak_on(void);
void soak_setup(void);
void soak_begin(void);
void soak_work(host_thread *t);
void soak_watch(int (*running)(void));
int soak_end(void);

/* -heap:N (heap_model.c): the model's heap operations wrapped around the
 * VM's; its classes described to the core; the graph built on the main
 * thread once the VM is live (0: out of memory); its classes and objects
 * for JNI FindClass and GetObjectClass. */
int heap_model_option(const char *arg);
void heap_model_configure(jvmtirt_config *c);
void heap_model_describe(void);
int heap_model_build(host_thread *builder);
jclass heap_model_find_class(const char *name);
jclass heap_model_class_of(jobject obj);

/* -work:SECONDS (work.c): a worker runs "Java code" that long after its
 * program, passing a safe point every turn. */
int work_option(const char *arg);
void work_run(host_thread *t);

/* -dump-classes:DIR (dump.c): the bytes of each class defined or
 * redefined, written to DIR/NAME.class. */
int dump_option(const char *arg);
void dump_class(const char *name, const unsigned char *b, size_t n);

#endif
