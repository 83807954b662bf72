/* The rule ids: one stable name per kind of finding, for format=json,
 * the SARIF report and suppressions (docs/jvmticheck.7 lists them). A
 * finding's id comes from the error the VM returns for it and, where two
 * kinds share an error, from its rule's text (the generated code's, and
 * overrides.c's and memory.c's). The ids never change; a new kind of
 * finding gets a new one. */
#include <string.h>

#include "output.h"

const jvmticheck_rule jvmticheck_rules[] = {
    {"wrong-phase", "JVMTI_ERROR_WRONG_PHASE", "The function was called in a phase it may not be called in"},
    {"unattached-thread", "JVMTI_ERROR_UNATTACHED_THREAD", "The function was called on a thread the VM does not know"},
    {"invalid-environment", "JVMTI_ERROR_INVALID_ENVIRONMENT",
     "The environment is NULL, made up, or used after DisposeEnvironment"},
    {"missing-capability", "JVMTI_ERROR_MUST_POSSESS_CAPABILITY",
     "The function needs a capability the environment does not possess"},
    {"null-pointer", "JVMTI_ERROR_NULL_POINTER", "A pointer parameter that must not be NULL is NULL"},
    {"null-handle", NULL, "A thread, class, method, field or raw monitor parameter that must not be NULL is NULL"},
    {"below-minimum", "JVMTI_ERROR_ILLEGAL_ARGUMENT", "An integer parameter (a depth, a count) is below its minimum"},
    {"unknown-monitor", "JVMTI_ERROR_INVALID_MONITOR",
     "A raw monitor the agent did not create, or has destroyed (not forwarded)"},
    {"monitor-not-held", NULL, "A raw monitor exited, waited on or notified by a thread that does not hold it"},
    {"monitor-held-elsewhere", NULL, "A raw monitor destroyed while another thread holds it"},
    {"bad-deallocate", NULL,
     "Deallocate of memory JVM TI did not hand out, or already deallocated (not forwarded)"},
    {"leak", NULL, "Buffers JVM TI handed out that were never deallocated (leaks=results or all)"},
    {"other", NULL, "A finding of a kind this version has no id for"},
};
const size_t jvmticheck_n_rules = sizeof jvmticheck_rules / sizeof *jvmticheck_rules;

static const char *id(const char *name)
{
    for (size_t i = 0; i < jvmticheck_n_rules; i++)
        if (strcmp(jvmticheck_rules[i].id, name) == 0)
            return jvmticheck_rules[i].id;
    return "other";
}

const char *jvmticheck_rule_of(int error, const char *text)
{
    switch (error) {
    case JVMTI_ERROR_WRONG_PHASE: return id("wrong-phase");
    case JVMTI_ERROR_UNATTACHED_THREAD: return id("unattached-thread");
    case JVMTI_ERROR_INVALID_ENVIRONMENT: return id("invalid-environment");
    case JVMTI_ERROR_MUST_POSSESS_CAPABILITY: return id("missing-capability");
    case JVMTI_ERROR_NULL_POINTER: return id("null-pointer");
    case JVMTI_ERROR_ILLEGAL_ARGUMENT: return id("below-minimum");
    case JVMTI_ERROR_INVALID_THREAD:
    case JVMTI_ERROR_INVALID_CLASS:
    case JVMTI_ERROR_INVALID_METHODID:
    case JVMTI_ERROR_INVALID_FIELDID: return id("null-handle");
    case JVMTI_ERROR_INVALID_MONITOR:
        return id(strstr(text, "not NULL") ? "null-handle" : "unknown-monitor");
    case JVMTI_ERROR_NONE: break;
    default: return "other";
    }
    /* A finding with no error of its own. */
    if (strstr(text, "never deallocated"))
        return id("leak");
    if (strstr(text, "not allocated by JVM TI"))
        return id("bad-deallocate");
    if (strstr(text, "held by the calling thread"))
        return id("monitor-not-held");
    if (strstr(text, "while another thread holds it"))
        return id("monitor-held-elsewhere");
    return "other";
}
