/* JVMTIGEN_TIMES=1: the wall time of each phase of a run on stderr, one
 * line each ("jvmtigen: time: html 98.1 ms"), for make bench to compare
 * the phases with a validated parse; without it, nothing. */
#ifndef JVMTIGEN_PHASES_H
#define JVMTIGEN_PHASES_H

void phase_begin(void);
void phase_end(const char *name); /* the time since phase_begin */

#endif
