/* The generated tables of JDK 25, against facts read off its spec and
 * header by hand. NCAPS (the number of 1-bit fields of jvmtiCapabilities
 * in the generated header) comes from the test script. */
#include <stdio.h>
#include <string.h>

#include "jvmtigen_tables.h"

static int failures;

#define EXPECT(cond, what)                                               \
    do {                                                                 \
        if (!(cond)) {                                                   \
            failures++;                                                  \
            printf("# FAIL tables: %s (line %d)\n", (what), __LINE__);   \
        }                                                                \
    } while (0)

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int main(void)
{
    /* errors */
    EXPECT(streq(jvmtigen_error_name(JVMTI_ERROR_NONE), "JVMTI_ERROR_NONE"), "NONE");
    EXPECT(streq(jvmtigen_error_name(JVMTI_ERROR_INVALID_THREAD), "JVMTI_ERROR_INVALID_THREAD"),
           "INVALID_THREAD is 10");
    EXPECT(streq(jvmtigen_error_name(JVMTI_ERROR_MAX), "JVMTI_ERROR_INVALID_ENVIRONMENT"),
           "the highest error");
    EXPECT(jvmtigen_error_name((jvmtiError)5) == NULL, "no error has number 5");
    EXPECT(jvmtigen_error_name((jvmtiError)-1) == NULL, "negative");
    EXPECT(jvmtigen_error_name((jvmtiError)(JVMTI_ERROR_MAX + 1)) == NULL, "past the end");

    /* capabilities, in header order */
    EXPECT(JVMTIRT_CAPABILITY_COUNT == NCAPS, "capability count = bit-fields in jvmti.h");
    EXPECT(jvmtigen_capability_bit("can_tag_objects") == 0, "first capability");
    EXPECT(jvmtigen_capability_bit("can_generate_field_modification_events") == 1, "second");
    EXPECT(jvmtigen_capability_bit("can_support_virtual_threads") == NCAPS - 1, "last (jdk25)");
    EXPECT(jvmtigen_capability_bit("can_fly") == -1, "unknown name");
    for (int i = 0; i < JVMTIRT_CAPABILITY_COUNT; i++) {
        jvmtiCapabilities c;
        memset(&c, 0, sizeof c);
        jvmtirt_capability_set(&c, i, 1);
        int set = 0;
        for (int k = 0; k < JVMTIRT_CAPABILITY_COUNT; k++)
            set += jvmtirt_capability_get(&c, k) ? (k == i ? 1 : 100) : 0;
        EXPECT(set == 1 && jvmtigen_capabilities[i].bit == i, "set/get one bit");
    }
    {
        jvmtiCapabilities c, want;
        memset(&c, 0, sizeof c);
        memset(&want, 0, sizeof want);
        want.can_get_line_numbers = 1;
        jvmtirt_capability_set(&c, jvmtigen_capability_bit("can_get_line_numbers"), 1);
        EXPECT(memcmp(&c, &want, sizeof c) == 0, "set by name = the named field");
        jvmtirt_capability_set(&c, jvmtigen_capability_bit("can_get_line_numbers"), 0);
        memset(&want, 0, sizeof want);
        EXPECT(memcmp(&c, &want, sizeof c) == 0, "clear");
    }

    /* events */
    const jvmtigen_event_info *e = jvmtigen_event(JVMTI_EVENT_SINGLE_STEP);
    EXPECT(e && streq(e->name, "SingleStep") && e->num == 60 && e->per_thread, "SingleStep");
    EXPECT(e && e->capability == jvmtigen_capability_bit("can_generate_single_step_events"),
           "SingleStep needs can_generate_single_step_events");
    e = jvmtigen_event(JVMTI_EVENT_VM_INIT);
    EXPECT(e && !e->per_thread && e->capability == -1 && streq(e->const_name, "JVMTI_EVENT_VM_INIT"),
           "VMInit: global, no capability");
    e = jvmtigen_event(JVMTI_EVENT_VM_START);
    EXPECT(e && e->phase == JVMTIGEN_RULE_START, "VMStart is sent in the start phase");
    e = jvmtigen_event(JVMTI_EVENT_CLASS_FILE_LOAD_HOOK);
    EXPECT(e && e->phase == JVMTIGEN_RULE_ANY, "ClassFileLoadHook: any phase");
    EXPECT(jvmtigen_event((jvmtiEvent)49) == NULL, "below the first event");
    EXPECT(jvmtigen_event((jvmtiEvent)72) == NULL, "72 is reserved");

    /* functions */
    const jvmtigen_function_info *f = &jvmtigen_functions_info[17];
    EXPECT(streq(f->name, "GetThreadState") && f->phase == JVMTIGEN_RULE_LIVE && f->traceable,
           "slot 17");
    f = &jvmtigen_functions_info[70];
    EXPECT(streq(f->name, "GetLineNumberTable") && f->phase == JVMTIGEN_RULE_START &&
               f->n_required == 1 && f->required[0] == jvmtigen_capability_bit("can_get_line_numbers"),
           "GetLineNumberTable needs can_get_line_numbers");
    f = &jvmtigen_functions_info[33];
    EXPECT(streq(f->name, "RawMonitorEnter") && !f->traceable && f->callback_safe &&
               f->phase == JVMTIGEN_RULE_ANY, "RawMonitorEnter: notrace, callback-safe, any");
    EXPECT(jvmtigen_functions_info[1].name == NULL, "slot 1 is reserved");
    EXPECT(jvmtigen_functions_info[132].phase == JVMTIGEN_RULE_ONLOAD_ONLY, "SetSystemProperty");

    /* constants */
    EXPECT(streq(jvmtigen_constant_name(&jvmtigen_constants_jvmtiEventMode, JVMTI_DISABLE),
                 "JVMTI_DISABLE"), "event mode name");
    EXPECT(jvmtigen_constant_name(&jvmtigen_constants_jvmtiEventMode, 7) == NULL, "no such mode");
    EXPECT(jvmtigen_constants_jvmtiThreadState.is_bits &&
               !jvmtigen_constants_jvmtiEventMode.is_bits, "bits vs enum");
    EXPECT(streq(jvmtigen_constant_name(&jvmtigen_constants_jvmtiEvent, JVMTI_EVENT_BREAKPOINT),
                 "JVMTI_EVENT_BREAKPOINT"), "events are a group too");

    /* phases */
    EXPECT(jvmtigen_phase_allows(JVMTIGEN_RULE_ONLOAD, JVMTI_PHASE_LIVE) &&
               !jvmtigen_phase_allows(JVMTIGEN_RULE_ONLOAD, JVMTI_PHASE_START) &&
               jvmtigen_phase_allows(JVMTIGEN_RULE_START, JVMTI_PHASE_LIVE) &&
               !jvmtigen_phase_allows(JVMTIGEN_RULE_LIVE, JVMTI_PHASE_DEAD) &&
               jvmtigen_phase_allows(JVMTIGEN_RULE_ANY, JVMTI_PHASE_DEAD), "phase rules");

    printf("%s - trampolines: tables of jdk25\n", failures ? "not ok" : "ok");
    return failures != 0;
}
