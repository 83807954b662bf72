/* Each checking environment's own function table, and the JVM TI versions
 * the checker stands for.
 *
 * An agent may write into the table its environment points to (profilers
 * hook RetransformClasses so; HotSpot's table is writable and nothing in
 * the spec forbids it): each environment has a copy, so a patch touches
 * neither the generated tables nor another agent, and the entry it
 * replaced, which the agent keeps and calls, still checks.
 *
 * No slot of that copy is NULL: where the spec reserves the slot, or the
 * VM's own table has no function (a VM of an older version than the
 * spec's, or one that leaves a slot empty), the slot gets the generated
 * entry that reports the call and answers JVMTI_ERROR_NOT_AVAILABLE,
 * instead of a jump to address 0. A version newer than the spec's is
 * refused at GetEnv: its functions and events are ones the checker cannot
 * check or hand on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"
#include "jvmtigen_tables.h"

#define MAJOR_MINOR(v) ((v) & (JVMTI_VERSION_MASK_MAJOR | JVMTI_VERSION_MASK_MINOR))
#define MAJOR(v) (((v)&JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR)
#define MINOR(v) (((v)&JVMTI_VERSION_MASK_MINOR) >> JVMTI_VERSION_SHIFT_MINOR)
#define MICRO(v) (((v)&JVMTI_VERSION_MASK_MICRO) >> JVMTI_VERSION_SHIFT_MICRO)

/* The VM's JVM TI version, asked once at the first load (agents are
 * loaded one at a time); the spec's until then, or if the VM does not
 * answer. Read by GetEnv and the empty entries on any thread: atomic. */
static jint vm_version = JVMTI_VERSION;
static int versions_known;
#define VM_VERSION() __atomic_load_n(&vm_version, __ATOMIC_RELAXED)

/* A function's since="1.1" or "21" as a version number. */
static jint version_of(const char *since)
{
    char *end;
    long major = strtol(since ? since : "1", &end, 10);
    long minor = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
    return JVMTI_VERSION_INTERFACE_JVMTI + (jint)(major << JVMTI_VERSION_SHIFT_MAJOR) +
           (jint)(minor << JVMTI_VERSION_SHIFT_MINOR);
}

void jvmticheck_versions(jvmticheck_agent *a)
{
    jint v;
    if (versions_known)
        return;
    versions_known = 1;
    if ((*jvmticheck_self)->GetVersionNumber(jvmticheck_self, &v) != JVMTI_ERROR_NONE)
        return;
    __atomic_store_n(&vm_version, v, __ATOMIC_RELAXED);
    if (MAJOR_MINOR(v) <= MAJOR_MINOR(JVMTI_VERSION))
        return;
    char text[400];
    snprintf(text, sizeof text,
             "the VM's JVM TI is %d.%d.%d, newer than the %d.%d.%d this checker was built from: "
             "GetEnv refuses the versions after %d.%d (JNI_EVERSION)\n",
             MAJOR(v), MINOR(v), MICRO(v), MAJOR(JVMTI_VERSION), MINOR(JVMTI_VERSION),
             MICRO(JVMTI_VERSION), MAJOR(JVMTI_VERSION), MINOR(JVMTI_VERSION));
    jvmticheck_say(a, text);
}

int jvmticheck_version_refused(jint version)
{
    return (version & JVMTI_VERSION_MASK_INTERFACE_TYPE) == JVMTI_VERSION_INTERFACE_JVMTI &&
           MAJOR_MINOR(version) > MAJOR_MINOR(JVMTI_VERSION);
}

/* Slot num (1-based, as the spec numbers them) of a table, read and
 * written as bytes: the struct mixes function pointers and void *. */
#define SLOT(table, num) ((const char *)(table) + ((size_t)(num)-1) * sizeof(void *))
#define N_SLOTS (sizeof(struct jvmtiInterface_1_) / sizeof(void *))

void jvmticheck_table_init(jvmticheck_env *e, const struct jvmtiInterface_1_ *from)
{
    const struct jvmtiInterface_1_ *vm = *e->real;
    memcpy(&e->table, from, sizeof e->table);
    for (size_t num = 1; num <= N_SLOTS && num < JVMTIGEN_FUNCTION_SLOTS; num++) {
        const jvmtigen_function_info *f = &jvmtigen_functions_info[num];
        void *theirs = NULL;
        /* The VM's table reaches a slot only if its version has it. */
        int empty = !f->name || MAJOR_MINOR(VM_VERSION()) < MAJOR_MINOR(version_of(f->since));
        if (!empty) {
            memcpy(&theirs, SLOT(vm, num), sizeof theirs);
            empty = theirs == NULL;
        }
        if (empty) {
            jvmticheck_empty_entry *entry = jvmticheck_empty_entries[num];
            memcpy((char *)SLOT(&e->table, num), &entry, sizeof entry);
        }
    }
}

static void version_text(char *out, size_t n, jint v)
{
    snprintf(out, n, "%d.%d.%d", MAJOR(v), MINOR(v), MICRO(v));
}

/* Read no further than a VM of the newest version could (events are
 * numbered up to 88 in JVM TI 25, from 50); a larger size is the agent's
 * own error, which the VM does not read either. */
#define MAX_CALLBACKS 64

void jvmticheck_newer_callbacks(jvmtiEnv *env, const jvmtiEventCallbacks *callbacks, jint size)
{
    size_t from = sizeof(jvmtiEventCallbacks) / sizeof(void *), to = (size_t)size / sizeof(void *);
    int set = 0;
    for (size_t i = from; i < to && i < MAX_CALLBACKS; i++) {
        void *cb;
        memcpy(&cb, (const char *)callbacks + i * sizeof cb, sizeof cb);
        set += cb != NULL;
    }
    if (!set)
        return;
    char text[300], ours[32];
    version_text(ours, sizeof ours, JVMTI_VERSION);
    snprintf(text, sizeof text,
             "sets %d callback%s after the last event of JVM TI %s, the version this checker was "
             "built from: never delivered",
             set, set == 1 ? "" : "s", ours);
    jvmticheck_report(env, "SetEventCallbacks", "callbacks", text);
}

jvmtiError jvmticheck_empty_slot(jvmtiEnv *env, int num)
{
    const jvmtigen_function_info *f = &jvmtigen_functions_info[num];
    char name[64], text[300], ours[32], vm[32];
    version_text(ours, sizeof ours, JVMTI_VERSION);
    version_text(vm, sizeof vm, VM_VERSION());
    if (!f->name) {
        snprintf(name, sizeof name, "reserved%d", num);
        snprintf(text, sizeof text,
                 "slot %d is reserved in JVM TI %s, the version this checker was built from", num,
                 ours);
    } else if (MAJOR_MINOR(VM_VERSION()) < MAJOR_MINOR(version_of(f->since))) {
        snprintf(name, sizeof name, "%s", f->name);
        snprintf(text, sizeof text, "the VM's JVM TI %s has no such function (it came in %s)", vm,
                 f->since);
    } else {
        snprintf(name, sizeof name, "%s", f->name);
        snprintf(text, sizeof text, "the VM's function table has nothing in slot %d", num);
    }
    jvmticheck_broke(env, name, NULL, text, JVMTI_ERROR_NOT_AVAILABLE);
    return JVMTI_ERROR_NOT_AVAILABLE;
}
