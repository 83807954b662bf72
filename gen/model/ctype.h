/* C spellings of spec types, shared by every emitter of C. */
#ifndef JVMTIGEN_CTYPE_H
#define JVMTIGEN_CTYPE_H

#include "model/model.h"

/* "const jthread*", "jvmtiFrameInfo*", "char**", ... (no name). */
void ctype_append(Buf *b, const Type *t);

/* Whether a parameter appears in C signatures: a jclass that only names the
 * class of a method parameter (method="...") is a documentation-only legacy. */
bool param_in_signature(const Param *p);
/* Whether it is passed on in a call (also not the "..." of varargs). */
bool param_in_call(const Param *p);

/* "TYPE name"; for varargs " ..." as the JDK writes it. */
void cparam_append(Buf *b, const Param *p);

/* Appends params that appear in signatures, separated by sep. */
void cparams_append(Buf *b, Param **ps, size_t n, const char *sep);

/* Text made safe inside a C comment: nothing in it can end the comment
 * early (a star and a slash, also split by a line-ending backslash or the
 * trigraph ??/) or look like a nested one. */
void comment_text_append(Buf *b, const char *s);

#endif
