/* redefine.c: RetransformClasses, RedefineClasses and IsModifiableClass in
 * the core (runtime/classes/redefine.c) through real function tables, with
 * jvmtirt_class_file_load at load time. The ClassFileLoadHook chain in the
 * spec's order: A and C lack can_retransform_classes, B (created between
 * them) has it; A rewrites a class file starting "AAAA" to "BBBB" (the
 * incapable environment's load-time work), B appends "+B". A
 * retransformation must restart from A and C's load-time output and call B
 * only (B sees "BBBB", as in HotSpot 17, not "AAAA"); a redefinition runs
 * all three over the new bytes. Then the errors, a VM that refuses the
 * bytes, a VM without the operations, and (section "race") retransforms
 * racing class loading and unloading on other threads, for TSan. This
 * program plays the VM; expected values are written by hand from the spec. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"

#define TAP_PREFIX "redefine: "
#include "tap.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

static void expect_str(const char *got, const char *want, const char *what)
{
    if (strcmp(got, want) == 0)
        tap_line(1, "%s", what);
    else
        tap_line(0, "%s (expected \"%s\", got \"%s\")", what, want, got);
}

/* ---- the VM's classes: a jclass is the address of one of these ---- */

enum { X, Y, FIXED, ANY, NO_BYTES, INVALID, N_CLASSES, N_RACE = 64 };
typedef struct vm_class {
    const char *name;
    int modifiable; /* JVMTIRT_* */
    char installed[64];
} vm_class;
static vm_class classes[N_CLASSES] = {
    [X] = {"p/X", JVMTIRT_MODIFIABLE, ""},
    [Y] = {"p/Y", JVMTIRT_MODIFIABLE, ""},
    [FIXED] = {"p/Fixed", JVMTIRT_UNMODIFIABLE, ""},
    [ANY] = {"java/lang/Any", JVMTIRT_MODIFIABLE_ANY, ""},
    [NO_BYTES] = {"p/NoBytes", JVMTIRT_MODIFIABLE, ""},
    [INVALID] = {"-", 0, ""},
};
static vm_class race_classes[N_RACE]; /* loaded and unloaded by the race's threads */
#define C(i) ((jclass)(void *)&classes[i])

static int is_class(const void *p)
{
    const vm_class *c = p;
    return (c >= classes && c < classes + N_CLASSES && c != &classes[INVALID]) ||
           (c >= race_classes && c < race_classes + N_RACE);
}

static jvmtiError check_class(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)env, (void)of_member;
    return is_class(klass) ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_CLASS;
}

static char jni_env; /* what class_modifiable hands over as the thread's JNIEnv */
static long modifiable_calls; /* atomic */

static jvmtiError class_modifiable(jclass klass, jvmtirt_class_origin *out)
{
    __atomic_fetch_add(&modifiable_calls, 1, __ATOMIC_RELAXED);
    out->modifiable = ((vm_class *)(void *)klass)->modifiable;
    out->jni = (JNIEnv *)(void *)&jni_env;
    return JVMTI_ERROR_NONE;
}

static pthread_mutex_t vm_lock = PTHREAD_MUTEX_INITIALIZER;
static int installs, last_n, last_retransform;

/* All or none: a class file starting "BAD" is refused, and then no class
 * changes. */
static jvmtiError install_classes(jint n, const jvmtiClassDefinition *defs, int retransform)
{
    pthread_mutex_lock(&vm_lock);
    installs++;
    last_n = n;
    last_retransform = retransform;
    jvmtiError err = JVMTI_ERROR_NONE;
    for (jint i = 0; i < n; i++)
        if (defs[i].class_byte_count >= 3 && memcmp(defs[i].class_bytes, "BAD", 3) == 0)
            err = JVMTI_ERROR_INVALID_CLASS_FORMAT;
    for (jint i = 0; i < n && err == JVMTI_ERROR_NONE; i++) {
        vm_class *c = (vm_class *)(void *)defs[i].klass;
        snprintf(c->installed, sizeof c->installed, "%.*s", (int)defs[i].class_byte_count,
                 (const char *)defs[i].class_bytes);
    }
    pthread_mutex_unlock(&vm_lock);
    return err;
}

/* ---- the agents ---- */

static char log_text[2048];
static int quiet; /* the race: agents do not log */

static void log_add(jvmtiEnv *env, jclass being_redefined, jint len, const unsigned char *data)
{
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    size_t n = strlen(log_text);
    const char *cbr = !being_redefined ? "-" : ((vm_class *)(void *)being_redefined)->name;
    snprintf(log_text + n, sizeof log_text - n, "%c(%.*s,%s);", (char)(intptr_t)letter, (int)len,
             (const char *)data, cbr);
}

static void expect_log(const char *want, const char *what)
{
    expect_str(log_text, want, what);
    log_text[0] = '\0';
}

static void replace(jvmtiEnv *env, const char *text, jint *new_len, unsigned char **new_data)
{
    size_t n = strlen(text);
    unsigned char *mem = NULL;
    if ((*env)->Allocate(env, (jlong)n, &mem) != JVMTI_ERROR_NONE)
        return;
    memcpy(mem, text, n);
    *new_data = mem;
    *new_len = (jint)n;
}

/* A class the VM loads while A's hook for p/Nest runs (the hook needed
 * it): the inner chain must not disturb the outer one's groups. */
static const char *load(int i, const char *bytes);
static void nested_load(void) { load(Y, "AAAAn"); }

static void JNICALL on_class_file(jvmtiEnv *env, JNIEnv *jni, jclass being_redefined,
                                  jobject loader, const char *name, jobject pd, jint len,
                                  const unsigned char *data, jint *new_len,
                                  unsigned char **new_data)
{
    (void)jni, (void)loader, (void)name, (void)pd;
    if (!quiet)
        log_add(env, being_redefined, len, data);
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    char text[128];
    if ((char)(intptr_t)letter == 'A' && name && strcmp(name, "p/Nest") == 0) {
        nested_load();
        return;
    }
    if ((char)(intptr_t)letter == 'A' && len >= 4 && memcmp(data, "AAAA", 4) == 0) {
        snprintf(text, sizeof text, "BBBB%.*s", (int)len - 4, (const char *)data + 4);
        replace(env, text, new_len, new_data);
    } else if ((char)(intptr_t)letter == 'B') {
        snprintf(text, sizeof text, "%.*s+B", (int)len, (const char *)data);
        replace(env, text, new_len, new_data);
    }
}

static jvmtiEnv *env_new(char letter, int retransform, int redefine, int any)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        tap_line(0, "jvmtirt_get_env gives an environment");
        exit(1);
    }
    jvmtiEnv *e = p;
    (*e)->SetEnvironmentLocalStorage(e, (const void *)(intptr_t)letter);
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    c.can_retransform_classes = (unsigned)retransform;
    c.can_redefine_classes = (unsigned)redefine;
    c.can_retransform_any_class = (unsigned)any;
    c.can_redefine_any_class = (unsigned)any;
    if ((*e)->AddCapabilities(e, &c) != JVMTI_ERROR_NONE)
        tap_line(0, "AddCapabilities for environment %c", letter);
    return e;
}

static void listen(jvmtiEnv *e)
{
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassFileLoadHook = on_class_file;
    (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
}

static void core_up(int with_ops, int retransform_potential)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.potential.can_retransform_classes = (unsigned)retransform_potential;
    cfg.potential.can_redefine_classes = 1;
    cfg.potential.can_retransform_any_class = 1;
    cfg.potential.can_redefine_any_class = 1;
    cfg.check_class = check_class;
    if (with_ops) {
        cfg.class_modifiable = class_modifiable;
        cfg.install_classes = install_classes;
    }
    if (jvmtirt_init(&cfg) != JVMTI_ERROR_NONE) {
        tap_line(0, "jvmtirt_init");
        exit(1);
    }
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* Loads a class as a VM does: the chain, define from its result, then hand
 * the core what it kept. Returns what the class was defined with. */
static const char *load(int i, const char *bytes)
{
    jint new_len = (jint)strlen(bytes);
    unsigned char *new_bytes = NULL;
    jvmtirt_class_file *kept =
        jvmtirt_class_file_load(NULL, NULL, classes[i].name, NULL, (jint)strlen(bytes),
                                (const unsigned char *)bytes, &new_len, &new_bytes);
    if (new_bytes)
        snprintf(classes[i].installed, sizeof classes[i].installed, "%.*s", (int)new_len,
                 (const char *)new_bytes);
    else
        snprintf(classes[i].installed, sizeof classes[i].installed, "%s", bytes);
    jvmtirt_post_deallocate(new_bytes);
    jvmtirt_class_defined(C(i), kept);
    return classes[i].installed;
}

static jvmtiError retransform(jvmtiEnv *e, jint n, const jclass *k)
{
    return (*e)->RetransformClasses(e, n, k);
}

static jvmtiError redefine(jvmtiEnv *e, int i, const char *bytes)
{
    jvmtiClassDefinition d = {C(i), (jint)strlen(bytes), (const unsigned char *)bytes};
    return (*e)->RedefineClasses(e, 1, &d);
}

/* ---- the chain ---- */

static void section_chain(void)
{
    core_up(1, 1);
    jvmtiEnv *A = env_new('A', 0, 1, 0), *B = env_new('B', 1, 1, 0), *Cx = env_new('C', 0, 0, 0);
    listen(A), listen(B), listen(Cx);

    expect_str(load(X, "AAAAx"), "BBBBx+B", "load: the class is defined with the chain's end");
    expect_log("A(AAAAx,-);C(BBBBx,-);B(BBBBx,-);",
               "load: incapable A and C first, then capable B; class_being_redefined NULL");

    jclass x = C(X);
    EXPECT(retransform(B, 1, &x), JVMTI_ERROR_NONE, "RetransformClasses succeeds");
    expect_log("B(BBBBx,p/X);",
               "RetransformClasses: only the capable B, from the incapable ones' load-time output "
               "(BBBB, not AAAA), class_being_redefined set");
    expect_str(classes[X].installed, "BBBBx+B", "RetransformClasses: the VM installs B's bytes");
    EXPECT(last_retransform, 1, "RetransformClasses: install_classes told it is a retransformation");
    EXPECT(retransform(A, 1, &x), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "RetransformClasses without can_retransform_classes");
    EXPECT(retransform(B, 1, &x), JVMTI_ERROR_NONE, "RetransformClasses again");
    expect_log("B(BBBBx,p/X);", "RetransformClasses again starts over from the same bytes");

    EXPECT(redefine(A, X, "AAAAy"), JVMTI_ERROR_NONE, "RedefineClasses succeeds");
    expect_log("A(AAAAy,p/X);C(BBBBy,p/X);B(BBBBy,p/X);",
               "RedefineClasses: every environment, incapable ones first, over the new bytes");
    expect_str(classes[X].installed, "BBBBy+B", "RedefineClasses: the chain's end is installed");
    EXPECT(last_retransform, 0, "RedefineClasses: install_classes told it is a redefinition");
    EXPECT(retransform(B, 1, &x), JVMTI_ERROR_NONE, "RetransformClasses after a redefinition");
    expect_log("B(BBBBy,p/X);",
               "RetransformClasses restarts from the incapable ones' output at the redefinition");

    /* The VM refuses: its error, the class as it was, nothing kept. */
    EXPECT(redefine(A, X, "BADz"), JVMTI_ERROR_INVALID_CLASS_FORMAT,
           "RedefineClasses the VM refuses: the VM's error");
    expect_log("A(BADz,p/X);C(BADz,p/X);B(BADz,p/X);", "the refused bytes went through the chain");
    expect_str(classes[X].installed, "BBBBy+B", "a refused RedefineClasses leaves the class as it was");
    EXPECT(retransform(B, 1, &x), JVMTI_ERROR_NONE, "RetransformClasses after a refused redefinition");
    expect_log("B(BBBBy,p/X);", "a refused redefinition does not replace what retransformation starts from");

    /* Several classes: one install, all or none. */
    load(Y, "AAAAw");
    log_text[0] = '\0';
    jclass xy[] = {C(X), C(Y)};
    int before = installs;
    EXPECT(retransform(B, 2, xy), JVMTI_ERROR_NONE, "RetransformClasses of two classes");
    EXPECT(installs - before, 1, "two classes: one install_classes call");
    EXPECT(last_n, 2, "two classes: both handed over at once");
    expect_log("B(BBBBy,p/X);B(BBBBw,p/Y);", "two classes: each through the chain, in order");
    jvmtiClassDefinition two[] = {{C(X), 5, (const unsigned char *)"AAAAv"},
                                  {C(Y), 4, (const unsigned char *)"BADv"}};
    EXPECT((*A)->RedefineClasses(A, 2, two), JVMTI_ERROR_INVALID_CLASS_FORMAT,
           "RedefineClasses of two, the second refused");
    expect_str(classes[X].installed, "BBBBy+B", "the first of two is not changed either");
    log_text[0] = '\0';

    EXPECT(retransform(B, 0, xy), JVMTI_ERROR_NONE, "RetransformClasses of no class");

    /* A class loaded inside an environment's hook: the outer chain goes on
     * in its own group (B, capable, once, after C). */
    const char *was = classes[X].name;
    classes[X].name = "p/Nest";
    jint nl = 4;
    unsigned char *nb = NULL;
    jvmtirt_class_file *kept = jvmtirt_class_file_load(NULL, NULL, "p/Nest", NULL, 4,
                                                       (const unsigned char *)"nest", &nl, &nb);
    jvmtirt_post_deallocate(nb);
    jvmtirt_class_defined(NULL, kept);
    classes[X].name = was;
    expect_log("A(nest,-);A(AAAAn,-);C(BBBBn,-);B(BBBBn,-);C(nest,-);B(nest,-);",
               "a class loaded inside a hook: both chains keep their groups and order");
    (*A)->DisposeEnvironment(A);
    (*B)->DisposeEnvironment(B);
    (*Cx)->DisposeEnvironment(Cx);
    core_down();
}

/* ---- errors and IsModifiableClass ---- */

static void section_errors(void)
{
    core_up(1, 1);
    jvmtiEnv *B = env_new('B', 1, 1, 0), *D = env_new('D', 1, 1, 1);
    listen(B);
    load(X, "AAAAx");
    load(FIXED, "f");
    load(ANY, "any");
    log_text[0] = '\0';
    jboolean yes = 2;

    jclass k[2] = {C(X), NULL};
    EXPECT(retransform(B, -1, k), JVMTI_ERROR_ILLEGAL_ARGUMENT, "RetransformClasses: count < 0");
    EXPECT(retransform(B, 1, NULL), JVMTI_ERROR_NULL_POINTER, "RetransformClasses: classes NULL");
    EXPECT(retransform(B, 2, k), JVMTI_ERROR_INVALID_CLASS, "RetransformClasses: a NULL class");
    k[1] = C(INVALID);
    EXPECT(retransform(B, 2, k), JVMTI_ERROR_INVALID_CLASS, "RetransformClasses: an invalid class");
    k[1] = C(FIXED);
    EXPECT(retransform(B, 2, k), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RetransformClasses: an unmodifiable class");
    expect_log("", "no agent sees a class while an argument is wrong (checks come first)");
    k[1] = C(ANY);
    EXPECT(retransform(B, 2, k), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RetransformClasses: a class of can_retransform_any_class, without it");
    EXPECT(retransform(D, 2, k), JVMTI_ERROR_NONE,
           "RetransformClasses: a class of can_retransform_any_class, with it");
    log_text[0] = '\0';
    k[0] = C(NO_BYTES);
    EXPECT(retransform(D, 1, k), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RetransformClasses: a class defined without jvmtirt_class_file_load");
    EXPECT(redefine(D, NO_BYTES, "new"), JVMTI_ERROR_NONE,
           "RedefineClasses: a class defined without jvmtirt_class_file_load");
    EXPECT(retransform(D, 1, k), JVMTI_ERROR_NONE, "... which is retransformable after it");
    log_text[0] = '\0';

    EXPECT((*B)->RedefineClasses(B, -1, NULL), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "RedefineClasses: count < 0");
    jvmtiClassDefinition d = {C(X), 3, NULL};
    EXPECT((*B)->RedefineClasses(B, 1, &d), JVMTI_ERROR_NULL_POINTER,
           "RedefineClasses: class_bytes NULL");
    d.klass = C(INVALID);
    d.class_bytes = (const unsigned char *)"abc";
    EXPECT((*B)->RedefineClasses(B, 1, &d), JVMTI_ERROR_INVALID_CLASS, "RedefineClasses: an invalid class");
    d.klass = C(FIXED);
    EXPECT((*B)->RedefineClasses(B, 1, &d), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RedefineClasses: an unmodifiable class");
    d.klass = C(ANY);
    EXPECT((*B)->RedefineClasses(B, 1, &d), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "RedefineClasses: a class of can_redefine_any_class, without it");
    expect_log("", "RedefineClasses: no agent sees a class while an argument is wrong");

    EXPECT((*B)->IsModifiableClass(B, C(X), &yes), JVMTI_ERROR_NONE, "IsModifiableClass");
    EXPECT(yes, JNI_TRUE, "IsModifiableClass: a modifiable class");
    (*B)->IsModifiableClass(B, C(FIXED), &yes);
    EXPECT(yes, JNI_FALSE, "IsModifiableClass: an unmodifiable class");
    (*B)->IsModifiableClass(B, C(ANY), &yes);
    EXPECT(yes, JNI_FALSE, "IsModifiableClass: a class of the any-class capabilities, without them");
    (*D)->IsModifiableClass(D, C(ANY), &yes);
    EXPECT(yes, JNI_TRUE, "IsModifiableClass: a class of the any-class capabilities, with them");
    EXPECT((*B)->IsModifiableClass(B, C(INVALID), &yes), JVMTI_ERROR_INVALID_CLASS,
           "IsModifiableClass: an invalid class");

    /* An unloaded class's bytes are freed (ASan's leak check): its identity
     * is gone from the core. */
    jvmtirt_class_unloaded((uintptr_t)C(X));
    k[0] = C(X);
    EXPECT(retransform(B, 1, k), JVMTI_ERROR_UNMODIFIABLE_CLASS,
           "after jvmtirt_class_unloaded the core keeps nothing for that identity");
    (*B)->DisposeEnvironment(B);
    (*D)->DisposeEnvironment(D);
    core_down();
}

/* ---- what a VM without the operations, or without the capability, gets ---- */

static void section_without(void)
{
    core_up(0, 1);
    jvmtiCapabilities pot;
    jvmtiEnv *B = env_new('B', 0, 0, 0);
    (*B)->GetPotentialCapabilities(B, &pot);
    EXPECT(pot.can_retransform_classes, 0, "no operations: can_retransform_classes withdrawn");
    EXPECT(pot.can_redefine_classes, 0, "no operations: can_redefine_classes withdrawn");
    jboolean yes;
    EXPECT((*B)->IsModifiableClass(B, C(X), &yes), JVMTI_ERROR_NOT_AVAILABLE,
           "no operations: IsModifiableClass answers NOT_AVAILABLE");
    (*B)->DisposeEnvironment(B);
    core_down();

    /* No environment can ever retransform: nothing is kept at load. */
    core_up(1, 0);
    jvmtirt_class_file *kept =
        jvmtirt_class_file_load(NULL, NULL, "p/X", NULL, 4, (const unsigned char *)"AAAA", NULL, NULL);
    EXPECT(kept == NULL, 1, "without can_retransform_classes potential nothing is kept at load");
    jvmtirt_class_defined(NULL, kept);
    core_down();
}

/* ---- retransforms racing class loading and unloading (for TSan) ---- */

static void *race_loader(void *arg)
{
    int first = (int)(intptr_t)arg;
    jvmtirt_thread_start(100 + (uintptr_t)first, JVMTIRT_JAVA_THREAD);
    for (int round = 0; round < 300; round++)
        for (int i = first; i < N_RACE; i += 2) {
            jint new_len = 5;
            unsigned char *new_bytes = NULL;
            jvmtirt_class_file *kept = jvmtirt_class_file_load(
                NULL, NULL, "p/R", NULL, 5, (const unsigned char *)"AAAAr", &new_len, &new_bytes);
            jvmtirt_post_deallocate(new_bytes);
            jvmtirt_class_defined((jclass)(void *)&race_classes[i], kept);
            jvmtirt_class_unloaded((uintptr_t)&race_classes[i]);
        }
    jvmtirt_thread_end();
    return NULL;
}

static void section_race(void)
{
    core_up(1, 1);
    quiet = 1;
    jvmtiEnv *A = env_new('A', 0, 1, 0), *B = env_new('B', 1, 1, 0);
    listen(A), listen(B);
    load(X, "AAAAx");
    load(Y, "AAAAy");
    for (int i = 0; i < N_RACE; i++)
        race_classes[i].modifiable = JVMTIRT_MODIFIABLE;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, race_loader, (void *)(intptr_t)i);
    jclass xy[] = {C(X), C(Y)};
    int bad = 0, rounds = 0;
    for (; rounds < 2000; rounds++) {
        if (retransform(B, 2, xy) != JVMTI_ERROR_NONE)
            bad++;
        /* A race class may be loaded or not: either answer, never a crash. */
        jclass r = (jclass)(void *)&race_classes[rounds % N_RACE];
        jvmtiError err = retransform(B, 1, &r);
        if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_UNMODIFIABLE_CLASS)
            bad++;
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    EXPECT(bad, 0, "race: %d retransforms beside two threads loading and unloading classes", rounds);
    pthread_mutex_lock(&vm_lock);
    expect_str(classes[X].installed, "BBBBx+B", "race: X still retransformed from its load-time bytes");
    pthread_mutex_unlock(&vm_lock);
    quiet = 0;
    (*A)->DisposeEnvironment(A);
    (*B)->DisposeEnvironment(B);
    core_down();
}

/* With an argument, only the sections whose names contain it. */
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } sections[] = {
        {"chain", section_chain},
        {"errors", section_errors},
        {"without", section_without},
        {"race", section_race},
    };
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
        if (argc < 2 || strstr(sections[i].name, argv[1]))
            sections[i].run();
    return tap_failures != 0;
}
