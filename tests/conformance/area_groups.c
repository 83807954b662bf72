/* The groups area: thread groups (runtime/threads/groups.c over the VM's
 * enumeration) and RunAgentThread's argument checks, in the live phase.
 * Only what both VMs must agree on is printed: the one top group and its
 * facts, the VMInit thread's group and where it sits, that group among the
 * top group's children and the thread among its group's (not their
 * numbers: HotSpot has threads and groups of its own). No agent thread is
 * started: HotSpot would run one on the AllocObject'd Thread the kit has
 * (c->unstarted) with its fields unset, where libjdwp calls a constructor. */
#include <stdio.h>
#include <string.h>

#include "conformance.h"

void conf_area_groups(int stage, const conf_area_env *a);

static void JNICALL never_run(jvmtiEnv *env, JNIEnv *jni, void *arg)
{
    (void)env, (void)jni, (void)arg;
}

/* A group's name ("-" when GetThreadGroupInfo fails), its parent in *parent. */
static void group_facts(jvmtiEnv *e, jthreadGroup g, char *name, size_t n, jthreadGroup *parent)
{
    jvmtiThreadGroupInfo info;
    memset(&info, 0, sizeof info);
    if ((*e)->GetThreadGroupInfo(e, g, &info) != JVMTI_ERROR_NONE) {
        snprintf(name, n, "-");
        return;
    }
    snprintf(name, n, "%s", info.name ? info.name : "");
    if (parent)
        *parent = info.parent;
    (*e)->Deallocate(e, (unsigned char *)info.name);
}

void conf_area_groups(int stage, const conf_area_env *a)
{
    if (stage != CONF_LIVE)
        return;
    jvmtiEnv *e = a->full;
    JNIEnv *jni = a->jni;
    const conf_ctx *c = a->ctx;

    jint n = -1;
    jthreadGroup *top = NULL;
    jvmtiError err = (*e)->GetTopThreadGroups(e, &n, &top);
    conf_say("groups.top.count", "%s %d", conf_err_name(err), (int)n);
    jthreadGroup system = err == JVMTI_ERROR_NONE && n == 1 ? top[0] : NULL;
    (*e)->Deallocate(e, (unsigned char *)top);
    jvmtiThreadGroupInfo info;
    memset(&info, 0, sizeof info);
    err = (*e)->GetThreadGroupInfo(e, system, &info);
    conf_say("groups.top.info", "%s name %s parent %s max_priority %d daemon %d",
             conf_err_name(err), info.name ? info.name : "-", info.parent ? "set" : "NULL",
             (int)info.max_priority, (int)info.is_daemon);
    (*e)->Deallocate(e, (unsigned char *)info.name);

    /* The VMInit thread's group, and its parent. */
    jvmtiThreadInfo ti;
    memset(&ti, 0, sizeof ti);
    err = (*e)->GetThreadInfo(e, NULL, &ti);
    char name[64] = "-", parent_name[64] = "-";
    jthreadGroup parent = NULL;
    if (err == JVMTI_ERROR_NONE && ti.thread_group)
        group_facts(e, ti.thread_group, name, sizeof name, &parent);
    if (parent)
        group_facts(e, parent, parent_name, sizeof parent_name, NULL);
    conf_say("groups.current.group", "%s %s in %s (the top group: %d)", conf_err_name(err), name,
             parent_name, parent && system && (*jni)->IsSameObject(jni, parent, system));
    (*e)->Deallocate(e, (unsigned char *)ti.name);

    /* The thread among its group's threads; the group among the top's. */
    jint nt = 0, ng = 0;
    jthread *threads = NULL;
    jthreadGroup *groups = NULL;
    int found = 0;
    err = ti.thread_group ? (*e)->GetThreadGroupChildren(e, ti.thread_group, &nt, &threads, &ng,
                                                          &groups)
                          : JVMTI_ERROR_INVALID_THREAD_GROUP;
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < nt; i++)
        found += (*jni)->IsSameObject(jni, threads[i], c->thread);
    conf_say("groups.current.among-children", "%s, listed %d time(s)", conf_err_name(err), found);
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)groups);
    found = 0;
    err = system ? (*e)->GetThreadGroupChildren(e, system, &nt, &threads, &ng, &groups)
                 : JVMTI_ERROR_INVALID_THREAD_GROUP;
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < ng; i++)
        found += ti.thread_group && (*jni)->IsSameObject(jni, groups[i], ti.thread_group);
    conf_say("groups.top.children", "%s, the current thread's group listed %d time(s)",
             conf_err_name(err), found);
    (*e)->Deallocate(e, (unsigned char *)threads);
    (*e)->Deallocate(e, (unsigned char *)groups);

    /* RunAgentThread's checks, none of which starts a thread: a started
     * thread is refused before its priority is looked at. */
    conf_result("groups.run-agent-thread.started-thread",
                (*e)->RunAgentThread(e, c->thread, never_run, NULL, 5));
    conf_result("groups.run-agent-thread.priority-0",
                (*e)->RunAgentThread(e, c->unstarted, never_run, NULL, 0));
    conf_result("groups.run-agent-thread.priority-11",
                (*e)->RunAgentThread(e, c->unstarted, never_run, NULL, 11));
    conf_result("groups.run-agent-thread.null-thread",
                (*e)->RunAgentThread(e, NULL, never_run, NULL, 5));
}
