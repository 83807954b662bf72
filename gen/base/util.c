#include "base/util.h"
#include "base/status.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlstring.h>

_Noreturn void die_out_of_memory(void)
{
    fputs("jvmtigen: error: out of memory\n", stderr);
    exit(EXIT_IO);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die_out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die_out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die_out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        die_out_of_memory();
    return p;
}

/* ---- arena ---- */

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    max_align_t data[];
} Chunk;

struct Arena {
    Chunk *head;
};

enum { CHUNK_SIZE = 64 * 1024 };

Arena *arena_new(void)
{
    Arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    Chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t cap = size > CHUNK_SIZE ? size : CHUNK_SIZE;
        c = xmalloc(sizeof *c + cap);
        c->used = 0;
        c->size = cap;
        /* A big block goes behind the current chunk so its free space stays usable. */
        if (a->head && size > CHUNK_SIZE) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return s ? arena_strndup(a, s, strlen(s)) : NULL; }

/* ---- buffer ---- */

void buf_init(Buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void buf_free(Buf *b)
{
    free(b->data);
    buf_init(b);
}

void buf_reset(Buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void buf_grow(Buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

/* The length of the conversion P points at (just past a '%') if
 * buf_vprintf formats it itself: %s %.*s %c %d %u %ld %lu %lld %llu %zu %%,
 * no flag; a width only on %d and %u (the function tables' slot numbers,
 * "%3d": vsnprintf there cost 2% of a --no-docs run). 0 for any other. */
static size_t simple_conversion(const char *p)
{
    size_t w = 0;
    while (p[w] >= '0' && p[w] <= '9' && (w || p[w] != '0'))
        w++;
    if (w)
        return p[w] == 'd' || p[w] == 'u' ? w + 1 : 0;
    switch (p[0]) {
    case '%':
    case 's':
    case 'c':
    case 'd':
    case 'u': return 1;
    case '.': return p[1] == '*' && p[2] == 's' ? 3 : 0;
    case 'z': return p[1] == 'u' ? 2 : 0;
    case 'l':
        if (p[1] == 'l')
            return p[2] == 'd' || p[2] == 'u' ? 3 : 0;
        return p[1] == 'd' || p[1] == 'u' ? 2 : 0;
    default: return 0;
    }
}

/* v in decimal, right-aligned in width characters (as printf's "%3d"). */
static void put_unsigned(Buf *b, unsigned long long v, bool negative, size_t width)
{
    char digits[24];
    char *d = digits + sizeof digits;
    do
        *--d = (char)('0' + v % 10);
    while (v /= 10);
    if (negative)
        *--d = '-';
    size_t n = (size_t)(digits + sizeof digits - d);
    for (; width > n; width--)
        buf_putc(b, ' ');
    buf_put(b, d, n);
}

static void put_signed(Buf *b, long long v, size_t width)
{
    put_unsigned(b, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0, width);
}

/* Writes FMT if all its conversions are simple ones, as most are: glibc's
 * vsnprintf costs about a thousand instructions a call, which was a fifth
 * of a --no-docs run. False at the first other conversion, with what came
 * before it written. */
static bool format_simple(Buf *b, const char *fmt, va_list ap)
{
    for (const char *p = fmt;;) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            buf_puts(b, p);
            return true;
        }
        buf_put(b, p, (size_t)(pct - p));
        const char *c = pct + 1;
        size_t n = simple_conversion(c);
        if (!n)
            return false;
        const char *s;
        int prec;
        size_t width = 0;
        for (; *c >= '0' && *c <= '9'; c++, n--) /* simple_conversion counted the width */
            width = width * 10 + (size_t)(*c - '0');
        switch (c[0]) {
        case '%': buf_putc(b, '%'); break;
        case 's':
        case '.': /* %s, %.*s; a negative precision counts as none */
            prec = c[0] == '.' ? va_arg(ap, int) : -1;
            s = va_arg(ap, const char *);
            s = s ? s : "(null)";
            buf_put(b, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
            break;
        case 'c': buf_putc(b, (char)va_arg(ap, int)); break;
        case 'd': put_signed(b, va_arg(ap, int), width); break;
        case 'u': put_unsigned(b, va_arg(ap, unsigned), false, width); break;
        case 'z': put_unsigned(b, va_arg(ap, size_t), false, 0); break;
        default: /* 'l': ld, lu, lld, llu; the last letter says signed or not */
            if (c[1] == 'l' && c[2] == 'd')
                put_signed(b, va_arg(ap, long long), 0);
            else if (c[1] == 'l')
                put_unsigned(b, va_arg(ap, unsigned long long), false, 0);
            else if (c[1] == 'd')
                put_signed(b, va_arg(ap, long), 0);
            else
                put_unsigned(b, va_arg(ap, unsigned long), false, 0);
            break;
        }
        p = c + n;
    }
}

/* Other formats go to vsnprintf, into the room the buffer has; only what
 * does not fit is formatted twice. */
void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
    size_t start = b->len;
    if (!b->data)
        buf_grow(b, 0); /* an empty result still leaves a NUL-terminated buffer */
    va_list simple;
    va_copy(simple, ap);
    bool done = format_simple(b, fmt, simple);
    va_end(simple);
    if (done)
        return;
    b->len = start; /* what format_simple wrote is written again below */
    b->data[start] = '\0';
    size_t room = b->cap - b->len; /* a buffer with data has room for its NUL */
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        if (room)
            b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        buf_grow(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* ---- vector ---- */

void vec_push(Vec *v, void *item)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->items = xrealloc(v->items, v->cap * sizeof *v->items);
    }
    v->items[v->n++] = item;
}

void **vec_freeze(Vec *v, Arena *a, size_t *n_out)
{
    void **out = arena_alloc(a, (v->n + 1) * sizeof *out);
    if (v->n)
        memcpy(out, v->items, v->n * sizeof *out);
    *n_out = v->n;
    vec_free(v);
    return out;
}

void vec_free(Vec *v)
{
    free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}

/* ---- string map ---- */

/* Eight bytes a step, each step folding the product's high half into its
 * low one (the map takes the low bits): a byte at a time (FNV-1a) cost 2%
 * of a --no-docs run, about five instructions a byte of the spec's names. */
uint64_t hash_str(const char *s)
{
    size_t n = strlen(s);
    uint64_t h = n * 0x9e3779b97f4a7c15ull, w = 0;
    if (n < 8) {
        memcpy(&w, s, n);
    } else {
        const char *last = s + n - 8; /* the last eight, which may overlap */
        for (; s < last; s += 8) {
            memcpy(&w, s, sizeof w);
            h = (h ^ w) * 0xff51afd7ed558ccdull;
            h ^= h >> 32;
        }
        memcpy(&w, last, sizeof w);
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull; /* every bit into the low ones */
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

void strmap_init(StrMap *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->n = m->cap = 0;
}

void strmap_free(StrMap *m)
{
    free(m->keys);
    free(m->vals);
    strmap_init(m);
}

static size_t strmap_slot(const char **keys, size_t cap, const char *key)
{
    size_t i = hash_str(key) & (cap - 1);
    while (keys[i] && strcmp(keys[i], key) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

void *strmap_get(const StrMap *m, const char *key)
{
    if (!m->cap || !key)
        return NULL;
    size_t i = strmap_slot(m->keys, m->cap, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

void *strmap_put(StrMap *m, const char *key, void *val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        const char **keys = xcalloc(cap, sizeof *keys);
        void **vals = xcalloc(cap, sizeof *vals);
        for (size_t i = 0; i < m->cap; i++) {
            if (m->keys[i]) {
                size_t j = strmap_slot(keys, cap, m->keys[i]);
                keys[j] = m->keys[i];
                vals[j] = m->vals[i];
            }
        }
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t i = strmap_slot(m->keys, m->cap, key);
    if (m->keys[i])
        return m->vals[i];
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return NULL;
}

/* ---- misc ---- */

int open_regular(const char *path, struct stat *st)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait forever. What is
     * not a regular file (a FIFO, a device such as /dev/zero, a socket) is
     * refused before a byte is read. */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int err = 0;
    if (fstat(fd, st) != 0)
        err = errno;
    else if (S_ISDIR(st->st_mode))
        err = EISDIR;
    else if (!S_ISREG(st->st_mode))
        err = READ_NOT_REGULAR;
    if (err) {
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int read_file(const char *path, Buf *out) { return read_file_max(path, out, READ_MAX_BYTES); }

int read_file_max(const char *path, Buf *out, long long max)
{
    /* A file above the limit is refused before a byte is read too. */
    struct stat st;
    int fd = open_regular(path, &st);
    if (fd < 0)
        return -1;
    int err = 0;
    if (st.st_size > max) {
        close(fd);
        errno = READ_TOO_BIG;
        return -1;
    }
    /* Read straight into the buffer, sized by fstat; a file that grows
     * meanwhile is read on in 64 KiB steps. */
    buf_grow(out, (size_t)st.st_size);
    for (;;) {
        if (out->cap - out->len < 2)
            buf_grow(out, 65536);
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = errno;
            break;
        }
        if (n == 0)
            break;
        out->len += (size_t)n;
        out->data[out->len] = '\0';
        if ((long long)out->len > max) {
            err = READ_TOO_BIG; /* it grew while read */
            break;
        }
    }
    close(fd);
    if (err) {
        errno = err;
        return -1;
    }
    if (!out->data)
        buf_put(out, "", 0);
    return 0;
}

const char *read_file_error(int err)
{
    if (err == READ_NOT_REGULAR)
        return "not a regular file (a FIFO, a device or a socket)";
    if (err == READ_TOO_BIG)
        return "larger than 64 MiB";
    return strerror(err);
}

/* Words that cannot name anything in the header: C11 keywords, and C++
 * keywords, since the header's C++ wrappers use parameter names too. */
/* clang-format off */
static const char *const keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas", "_Alignof",
    "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", NULL,
};
/* clang-format on */

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A binary search in a sorted copy, made at the first call (the checks ask
 * of every name in the spec; going through the list was 2% of a run). */
bool is_c_keyword(const char *s)
{
    enum { N = sizeof keywords / sizeof *keywords - 1 };
    static const char *sorted[N];
    static bool ready;
    if (!ready) {
        memcpy(sorted, keywords, sizeof sorted);
        qsort(sorted, N, sizeof *sorted, compare_strings);
        ready = true;
    }
    return bsearch(&s, sorted, N, sizeof *sorted, compare_strings) != NULL;
}

bool is_c_identifier(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
        return false;
    for (s++; *s; s++)
        if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

const char *integer_hint(const char *s)
{
    if (s && *s == '-')
        s++;
    return s && s[0] == '0' && s[1] >= '0' && s[1] <= '9'
               ? " (a leading 0 would make C read it as octal)"
               : "";
}

bool parse_c_integer(const char *s, long long *out)
{
    if (!s)
        return false;
    bool neg = false;
    if (*s == '-') {
        neg = true;
        s++;
    }
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && s[1] != '\0') {
        return false; /* C would read 010 as octal 8: not what a reader of 010 sees */
    }
    if (!*s)
        return false;
    unsigned long long v = 0;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            return false;
        if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
            return false;
        v = v * (unsigned)base + (unsigned)d;
    }
    if (v > (unsigned long long)LLONG_MAX + (neg ? 1u : 0u))
        return false;
    *out = neg ? (long long)(0 - v) : (long long)v;
    return true;
}

void **sorted_copy(void *const *items, size_t n, int (*cmp)(const void *, const void *))
{
    void **copy = xmalloc((n + 1) * sizeof *copy);
    if (n)
        memcpy(copy, items, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp);
    return copy;
}

const char *path_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void path_dir_name(const char *path, Buf *out)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        buf_put(out, path, slash == path ? 1 : (size_t)(slash - path));
    else
        buf_puts(out, ".");
}

void buf_put_utf8(Buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t left = strlen((const char *)p);
        int len = left < 4 ? (int)left : 4;
        int c = xmlGetUTF8Char(p, &len);
        /* libxml2 decodes; the rules it leaves to us: a lead byte of the
         * length (it takes 0x80..0xBF for one of two), no overlong form, no
         * surrogate, nothing above U+10FFFF. */
        static const unsigned char lead_mask[5] = {0, 0x80, 0xE0, 0xF0, 0xF8};
        static const unsigned char lead[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
        bool ok = c >= 0 && len >= 1 && len <= 4 && (*p & lead_mask[len]) == lead[len] &&
                  !(len == 2 && c < 0x80) && !(len == 3 && c < 0x800) &&
                  !(len == 4 && c < 0x10000) && !(c >= 0xD800 && c <= 0xDFFF) && c <= 0x10FFFF;
        if (ok) {
            buf_put(b, (const char *)p, (size_t)len);
            p += len;
        } else {
            buf_puts(b, "\xEF\xBF\xBD");
            p++;
        }
    }
}
