/* output.h: the findings' machine-readable forms and suppressions
 * (output.c), the rule ids (rules.c), and the record finding.c keeps of
 * each distinct finding. */
#ifndef JVMTICHECK_OUTPUT_H
#define JVMTICHECK_OUTPUT_H

#include <stddef.h>

#include "jvmticheck.h"

/* A kind of finding: its stable id, the error the VM returns for it (NULL
 * where there is none, or more than one), and what it means. */
typedef struct jvmticheck_rule {
    const char *id, *error, *text;
} jvmticheck_rule;
extern const jvmticheck_rule jvmticheck_rules[];
extern const size_t jvmticheck_n_rules;
/* The id of a finding by its error (0: none) and its rule's text. */
const char *jvmticheck_rule_of(int error, const char *text);

/* One distinct finding as it was first made. Every string is text of the
 * line as it is (escaped where it came from outside). */
typedef struct jvmticheck_finding {
    jvmticheck_agent *agent;
    const char *rule;     /* its id */
    const char *function; /* or an extension function's id */
    const char *param;    /* NULL: none */
    const char *error;    /* JVMTI_ERROR_..., or NULL */
    char message[640];    /* the rule and its detail, without the parameter */
    int has_site, has_symbol;
    char symbol[256], object[160];
    unsigned long long offset; /* of the call instruction in object */
    int has_thread;
    char thread[160]; /* the calling thread's name */
    char time[48];    /* when it was first made, UTC */
    int suppressed;
} jvmticheck_finding;

/* An option of output.c's: 1 taken, 0 wrong (said so), -1 not one of them. */
int jvmticheck_output_option(jvmticheck_agent *a, const char *key, const char *value);
int jvmticheck_output_json(jvmticheck_agent *a);
/* Fills in the calling thread's name and the time. */
void jvmticheck_output_when(jvmticheck_finding *f);
/* Whether a suppression of the agent's names the finding. */
int jvmticheck_output_suppressed(const jvmticheck_finding *f);
/* A finding's JSON line (count 0: as first made; more: the exit report's
 * repeat), with its newline, into out. */
void jvmticheck_output_json_line(const jvmticheck_finding *f, unsigned long long count, char *out, size_t n);
void jvmticheck_output_summary(jvmticheck_agent *a, unsigned long long findings, unsigned long long distinct,
                               unsigned long long suppressed);
/* At exit (or before fatal mode's abort): the SARIF report and the
 * suppressions file, of the agent's distinct findings and their counts. */
void jvmticheck_output_files(jvmticheck_agent *a, const jvmticheck_finding *const *all,
                             const unsigned long long *counts, size_t n);

/* A leak line (memory.c): count buffers of function never deallocated. */
void jvmticheck_leak(jvmticheck_agent *a, const char *function, size_t count);

#endif
