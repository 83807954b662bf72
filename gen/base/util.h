/* Small building blocks shared by every stage: an arena that owns the model,
 * a growable byte buffer for emitters, a pointer vector, and a string map. */
#ifndef JVMTIGEN_UTIL_H
#define JVMTIGEN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* XML's white space (the S production), which the spec's text is laid out
 * with and man page text is made of. */
static inline bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Everything the model points to lives in one arena and is freed at once. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);    /* zeroed */
char *arena_strdup(Arena *a, const char *s); /* NULL stays NULL */
char *arena_strndup(Arena *a, const char *s, size_t n);

/* Growable, always NUL-terminated byte buffer. */
typedef struct Buf {
    char *data;
    size_t len, cap;
} Buf;
void buf_init(Buf *b);
void buf_free(Buf *b);
void buf_reset(Buf *b);
void buf_grow(Buf *b, size_t extra); /* room for EXTRA more bytes and the NUL */
/* Inline: the emitters append a few bytes at a time, a million in all. */
static inline void buf_put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        buf_grow(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }
static inline void buf_putc(Buf *b, char c)
{
    if (b->len + 2 > b->cap)
        buf_grow(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);

/* Vector of pointers, malloc-backed while it grows; vec_freeze copies it into
 * the arena (NULL-terminated) so the model holds plain arrays. */
typedef struct Vec {
    void **items;
    size_t n, cap;
} Vec;
void vec_push(Vec *v, void *item);
void **vec_freeze(Vec *v, Arena *a, size_t *n_out);
void vec_free(Vec *v);

/* A sorted copy of a list of pointers (free() it); the list is untouched. */
void **sorted_copy(void *const *items, size_t n, int (*cmp)(const void *, const void *));

/* String -> pointer map (open addressing); keys are borrowed, not copied. */
typedef struct StrMap {
    const char **keys;
    void **vals;
    size_t n, cap;
} StrMap;
void strmap_init(StrMap *m);
void strmap_free(StrMap *m);
void *strmap_get(const StrMap *m, const char *key);
/* Inserts key unless present; returns the previous value or NULL. */
void *strmap_put(StrMap *m, const char *key, void *val);
uint64_t hash_str(const char *s); /* as the map hashes its keys */

/* Out of memory: says so and exits with EXIT_IO (base/status.h). The
 * allocators below call it; so does code whose library returned NULL. */
_Noreturn void die_out_of_memory(void);
/* malloc, calloc, realloc and strdup that never return NULL (a size of 0
 * still gets a block of its own). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* The last component of a path ("dir/jvmti.xml" -> "jvmti.xml"). */
const char *path_base_name(const char *path);
/* Appends the directory of a path ("dir/jvmti.xml" -> "dir", "/x" -> "/",
 * "x" -> "."). */
void path_dir_name(const char *path, Buf *out);

/* Appends s as valid UTF-8: each byte that does not start a well-formed
 * sequence (a file name may hold any) becomes U+FFFD, as in Python's
 * errors="replace". For outputs that must be UTF-8: jvmti.html, JSON. */
void buf_put_utf8(Buf *b, const char *s);

/* Whole-file helpers; both return 0 on success and set errno otherwise. */
/* read_file's own errno values, beyond the system's: */
#define READ_NOT_REGULAR (-1000) /* a FIFO, device or socket: refused unread */
#define READ_TOO_BIG (-1001)     /* above READ_MAX_BYTES */
#define READ_MAX_BYTES ((long long)64 << 20)
int read_file(const char *path, Buf *out);
/* read_file with a lower limit than READ_MAX_BYTES (READ_TOO_BIG above it). */
int read_file_max(const char *path, Buf *out, long long max);
struct stat;
/* Opens path for reading as read_file does (never waiting on a FIFO): the
 * descriptor of a regular file, or -1 with errno (READ_NOT_REGULAR, EISDIR
 * or the system's). */
int open_regular(const char *path, struct stat *st);
/* The message for errno after a failed read_file. */
const char *read_file_error(int err);

bool is_c_identifier(const char *s);
/* A C or C++ keyword (the header is read by both). */
bool is_c_keyword(const char *s);
/* Parses a C integer literal (decimal, 0x hex, optional leading '-');
 * false if s is not one, does not fit in a long long, or is decimal with a
 * leading 0 (C would read 010 as octal). */
bool parse_c_integer(const char *s, long long *out);
/* What to add to "'%s' is not an integer" for s: why, when the reason is a
 * leading 0 ("" otherwise). */
const char *integer_hint(const char *s);

#endif
