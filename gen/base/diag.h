/* Compiler-style diagnostics: "FILE:LINE: error: message".
 * Messages are queued and printed sorted by file and line (stable), so a run
 * reports every problem, in source order, whatever order the checks ran in. */
#ifndef JVMTIGEN_DIAG_H
#define JVMTIGEN_DIAG_H

#include <stdio.h>

typedef struct Loc {
    const char *file;
    int line; /* 0: no line (the whole file) */
} Loc;

typedef enum { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } DiagLevel;

void diag(DiagLevel level, const Loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define error_at(loc, ...) diag(DIAG_ERROR, (loc), __VA_ARGS__)
#define warn_at(loc, ...) diag(DIAG_WARNING, (loc), __VA_ARGS__)

/* Prints and clears the queue; returns the number of errors printed. */
int diag_flush(void);
/* Errors queued or printed since the last diag_reset(). */
int diag_error_count(void);
void diag_reset(void);
/* Where diagnostics go (stderr by default); quiet drops warnings and notes. */
void diag_set_stream(FILE *f);
void diag_set_quiet(int quiet);
/* At most max error lines are printed (0: all), counted from the last
 * diag_reset(); each flush that holds some back ends with a note saying
 * how many. The count of errors is unchanged. */
void diag_set_max_errors(int max);

#endif
