/* A small JSON writer for the commands that print JSON (`model`, `diff`):
 * two-space indentation, one member or element a line, empty containers as
 * "[]" / "{}", a newline nowhere but between items (the caller ends the
 * document). It places the commas; the caller says what comes next. */
#ifndef JVMTIGEN_JSON_H
#define JVMTIGEN_JSON_H

#include <stdbool.h>

#include "base/util.h"

typedef struct Json {
    Buf *o;
    int depth;
    bool first;     /* nothing written yet in the innermost open container */
    bool after_key; /* a key was written; its value follows on the same line */
} Json;

/* A writer appending to out, before the document's first value. */
Json json_writer(Buf *out);

/* Appends s as a JSON string literal ("null" for NULL): '"' and '\\'
 * escaped, bytes below 0x20 as \u00XX, everything else (UTF-8 included)
 * as it is. */
void json_string_append(Buf *out, const char *s);

void json_begin(Json *j, char bracket); /* '{' or '[' */
void json_end(Json *j, char bracket);   /* '}' or ']' */
void json_key(Json *j, const char *k);  /* a member's key; its value comes next */
void json_str(Json *j, const char *s);  /* a string, or null for NULL */
void json_int(Json *j, long long v);
void json_bool(Json *j, bool v);
void json_null(Json *j);

/* A member: key and value. */
void json_kstr(Json *j, const char *k, const char *s);
void json_kint(Json *j, const char *k, long long v);
void json_kbool(Json *j, const char *k, bool v);
void json_knull(Json *j, const char *k);

#endif
