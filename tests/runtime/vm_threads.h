/* vm_threads.h: the threads of the test VMs of stacks.c, metadata.c and
 * groups.c.
 * Each is started in the core (jvmtirt_thread_start) on an OS thread of its
 * own, one after the other so that their start order is known (GetAllThreads
 * lists them in it), and stays until vm_threads_stop: the core's record of a
 * thread belongs to the thread that started it. */
#ifndef RUNTIME_VM_THREADS_H
#define RUNTIME_VM_THREADS_H

#include <pthread.h>
#include <stdint.h>

#include "jvmtirt.h"

typedef struct vm_thread {
    uintptr_t id;
    jvmtirt_thread_kind kind;
} vm_thread;

#define VM_THREADS_MAX 8
static pthread_t vm_threads_os[VM_THREADS_MAX];
static int vm_threads_n, vm_threads_started, vm_threads_stopping;
static pthread_mutex_t vm_threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vm_threads_cond = PTHREAD_COND_INITIALIZER;

static void *vm_thread_body(void *arg)
{
    const vm_thread *t = arg;
    jvmtirt_thread_start(t->id, t->kind);
    pthread_mutex_lock(&vm_threads_lock);
    vm_threads_started++;
    pthread_cond_broadcast(&vm_threads_cond);
    while (!vm_threads_stopping)
        pthread_cond_wait(&vm_threads_cond, &vm_threads_lock);
    pthread_mutex_unlock(&vm_threads_lock);
    jvmtirt_thread_end();
    return NULL;
}

/* Starts the n threads of t (which must outlive them), in order. */
static void vm_threads_start(const vm_thread *t, int n)
{
    vm_threads_stopping = 0;
    vm_threads_started = 0;
    vm_threads_n = n < VM_THREADS_MAX ? n : VM_THREADS_MAX;
    for (int i = 0; i < vm_threads_n; i++) {
        pthread_create(&vm_threads_os[i], NULL, vm_thread_body, (void *)&t[i]);
        pthread_mutex_lock(&vm_threads_lock);
        while (vm_threads_started < i + 1)
            pthread_cond_wait(&vm_threads_cond, &vm_threads_lock);
        pthread_mutex_unlock(&vm_threads_lock);
    }
}

static void vm_threads_stop(void)
{
    pthread_mutex_lock(&vm_threads_lock);
    vm_threads_stopping = 1;
    pthread_cond_broadcast(&vm_threads_cond);
    pthread_mutex_unlock(&vm_threads_lock);
    for (int i = 0; i < vm_threads_n; i++)
        pthread_join(vm_threads_os[i], NULL);
}

#endif
