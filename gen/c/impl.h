/* The implementation interface: one C function per JVM TI function, which a
 * VM (or the runtime core) writes and the generated trampolines call once
 * every check has passed. Shared by the header emitter and `fill`. */
#ifndef JVMTIGEN_IMPL_H
#define JVMTIGEN_IMPL_H

#include "model/model.h"

/* Prefix of implementation function names: jvmti_impl_GetThreadState. */
#define IMPL_PREFIX "jvmti_impl_"

/* Whether the function has an entry in the function table (and so an
 * implementation function): the JDK leaves out functions marked hide. */
bool function_in_table(const Function *f);

/* Whether any function of the category is in the table. */
bool category_in_table(const Category *c);
/* The highest slot number of the table (0 if there is no function). */
int max_table_num(const Spec *s);
/* The table's functions by slot, [0..max_table_num+1] (NULL: reserved);
 * free() it. */
const Function **table_slots(const Spec *s);
/* The comment line that opens a category's functions ("---- LABEL ----"). */
void category_banner_append(Buf *b, const Category *c);
/* Whether calls may be traced (the spec's impl="... notrace" says not). */
bool function_traceable(const Function *f);

/* "(jvmtiEnv *env, T1 name1, ...)": the C parameter list of f. */
void impl_params_append(Buf *b, const Function *f);
/* "(env, name1, ...)": the arguments passed on to another function. */
void call_args_append(Buf *b, const Function *f);

/* "jvmtiError jvmti_impl_NAME(jvmtiEnv *env, ...)", no ';' or newline.
 * sep goes between the return type and the name (" " or "\n"). */
void impl_signature_append(Buf *b, const Function *f, const char *sep);

/* One line per guarantee the trampoline gives before calling the
 * implementation ("phase: live", "thread_state_ptr is not NULL", ...), each
 * prefixed by indent and ended by '\n'. */
void impl_guarantees_append(Buf *b, const Function *f, const char *indent);

/* One line per parameter the trampoline passes on unchecked although the
 * spec gives it an error (a jthread with impl="noconvert": the
 * implementation resolves it, e.g. with jvmtirt_resolve_thread), in the
 * form of impl_guarantees_append. Returns how many. */
size_t impl_unchecked_append(Buf *b, const Function *f, const char *indent);

#endif
