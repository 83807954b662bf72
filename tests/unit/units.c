/* Unit tests for the generator's building blocks. Prints "ok - ..." or
 * "not ok - ..." per assertion, as tests/run-all expects. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <libxslt/transform.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "base/cscan.h"
#include "docs/state.h"
#include "c/core.h"
#include "model/ctype.h"
#include "model/errors.h"
#include "model/facts.h"
#include "tools/model_json.h"
#include "tools/udiff.h"
#include "base/util.h"

static int failures;

#define EXPECT(cond, ...)                                      \
    do {                                                       \
        printf((cond) ? "ok - unit: " : "not ok - unit: ");    \
        printf(__VA_ARGS__);                                   \
        printf("\n");                                          \
        if (!(cond))                                           \
            failures++;                                        \
    } while (0)

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_collation(void)
{
    EXPECT(collate_ids("VirtualThreadEnd", "VMDeath") < 0, "collation: case is ignored first");
    EXPECT(collate_ids("VMDeath", "VMInit") < 0, "collation: then letters decide");
    EXPECT(collate_ids("abc", "ABC") < 0 && collate_ids("ABC", "abc") > 0,
           "collation: equal but for case: lower case first");
    EXPECT(collate_ids("Same", "Same") == 0, "collation: equal ids compare equal");
    EXPECT(collate_ids("A_b", "A1b") < 0 && collate_ids("A1b", "Ab") < 0,
           "collation: '_' before digits before letters");
    EXPECT(collate_ids("Class", "ClassLoad") < 0, "collation: a prefix sorts first");
    const char *ids[] = {"A", "a", "B", "b", "a1", "A_", "ab", "AB"};
    int antisymmetric = 1;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            if (sign(collate_ids(ids[i], ids[j])) != -sign(collate_ids(ids[j], ids[i])))
                antisymmetric = 0;
    EXPECT(antisymmetric, "collation: the order is antisymmetric");
}

static void test_versions(void)
{
    JvmtiVersion v;
    EXPECT(version_parse("17", &v) && v.major == 17 && v.minor == 0 && v.micro == 0,
           "version: MAJOR alone");
    EXPECT(version_parse("1.2.3", &v) && v.major == 1 && v.minor == 2 && v.micro == 3,
           "version: MAJOR.MINOR.MICRO");
    EXPECT(version_parse("4095.255.255", &v), "version: the largest encodable version");
    EXPECT(!version_parse("4096", &v) && !version_parse("1.256", &v) &&
               !version_parse("1.0.256", &v),
           "version: parts beyond the header's bit fields are refused");
    EXPECT(!version_parse("", &v) && !version_parse("1.", &v) && !version_parse("1.2.3.4", &v) &&
               !version_parse("-1", &v) && !version_parse("1.x", &v) &&
               !version_parse("99999999999999999999", &v),
           "version: malformed text is refused");
    EXPECT(version_cmp("9.0.0", "17") < 0 && version_cmp("17.0.0", "17") == 0 &&
               version_cmp("1.2", "1.1.9") > 0,
           "version: compared numerically, part by part");
}

static void test_integers(void)
{
    long long v;
    EXPECT(parse_c_integer("0", &v) && v == 0, "integer: zero");
    EXPECT(parse_c_integer("0x7FFFFFFF", &v) && v == INT_MAX, "integer: hex");
    EXPECT(parse_c_integer("-12", &v) && v == -12, "integer: negative");
    EXPECT(parse_c_integer("9223372036854775807", &v) && v == LLONG_MAX, "integer: LLONG_MAX");
    EXPECT(!parse_c_integer("9223372036854775808", &v), "integer: overflow is refused");
    EXPECT(!parse_c_integer("010", &v) && !parse_c_integer("-07", &v) && !parse_c_integer("00", &v) &&
               parse_c_integer("0x010", &v) && v == 16,
           "integer: a leading 0 on a decimal is refused (C reads it as octal)");
    EXPECT(!parse_c_integer("", &v) && !parse_c_integer("0x", &v) && !parse_c_integer("12a", &v) &&
               !parse_c_integer("1 2", &v) && !parse_c_integer("-", &v),
           "integer: malformed text is refused");
    EXPECT(is_c_identifier("jvmtiEnv") && is_c_identifier("_x1") && !is_c_identifier("1x") &&
               !is_c_identifier("a-b") && !is_c_identifier("") && !is_c_identifier(NULL),
           "identifier: C rules");
}

static void test_ctype(void)
{
    Type leaf = {.kind = TK_JTHREAD}, uchar = {.kind = TK_UCHAR};
    Type name = {.kind = TK_STRUCT, .name = "jvmtiFrameInfo"};
    struct { TypeKind kind; Type *elem; const char *want; } cases[] = {
        {TK_INBUF, &leaf, "const jthread*"},   {TK_OUTPTR, &leaf, "jthread*"},
        {TK_ALLOCBUF, &uchar, "unsigned char**"}, {TK_ALLOCALLOCBUF, &leaf, "jthread***"},
        {TK_PTRTYPE, &name, "jvmtiFrameInfo"},  {TK_OUTBUF, &name, "jvmtiFrameInfo*"},
        {TK_VMBUF, &uchar, "const unsigned char*"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Type t = {.kind = cases[i].kind, .elem = cases[i].elem};
        Buf b;
        buf_init(&b);
        ctype_append(&b, &t);
        EXPECT(strcmp(b.data, cases[i].want) == 0, "ctype: <%s> spells %s (got %s)",
               type_kinds[cases[i].kind].xml, cases[i].want, b.data);
        buf_free(&b);
    }
    Type frame = {.kind = TK_JFRAMEID}, va = {.kind = TK_VARARGS};
    Type cls = {.kind = TK_JCLASS, .method = "method"};
    Param pf = {.name = "depth", .type = &frame}, pv = {.name = "...", .type = &va};
    Param pc = {.name = "klass", .type = &cls};
    Buf b;
    buf_init(&b);
    cparam_append(&b, &pf);
    buf_puts(&b, "|");
    cparam_append(&b, &pv);
    EXPECT(strcmp(b.data, "jint depth| ...") == 0, "ctype: jframeID is a jint; varargs is ' ...'");
    EXPECT(!param_in_signature(&pc) && !param_in_call(&pv) && param_in_call(&pf),
           "ctype: a method's class and varargs stay out of calls");
    buf_reset(&b);
    comment_text_append(&b, "a */ b");
    EXPECT(strcmp(b.data, "a * / b") == 0, "ctype: comment text cannot close the comment");
    /* C joins a line ending in a backslash (gcc: and spaces) to the next
     * before it finds comments; ??/ is a backslash in C89. */
    const char *spliced[][2] = {
        {"a *\\\n/ b", "a *\\.\n/ b"}, {"a *\\  \n/ b", "a *\\.  \n/ b"},
        {"a *\\\r\n/", "a *\\.\r\n/"}, {"ends in \\", "ends in \\."},
        {"a *?" "?/\n/ b", "a *? ?/\n/ b"}, {"a /* b", "a / * b"},
        {"a \\ b", "a \\ b"}, {"what?", "what?"},
    };
    for (size_t i = 0; i < sizeof spliced / sizeof *spliced; i++) {
        buf_reset(&b);
        comment_text_append(&b, spliced[i][0]);
        EXPECT(strcmp(b.data, spliced[i][1]) == 0,
               "ctype: comment text cannot be spliced into a comment's end (case %zu)", i);
    }
    buf_free(&b);
}

static void test_containers(void)
{
    StrMap m;
    strmap_init(&m);
    static char keys[2000][8];
    int fine = 1;
    for (int i = 0; i < 2000; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        if (strmap_put(&m, keys[i], &keys[i]) != NULL)
            fine = 0;
    }
    for (int i = 0; i < 2000; i++)
        if (strmap_get(&m, keys[i]) != &keys[i])
            fine = 0;
    EXPECT(fine && m.n == 2000, "strmap: 2000 keys survive growth");
    EXPECT(strmap_put(&m, "k7", NULL) == &keys[7], "strmap: a second put returns the first value");
    EXPECT(strmap_get(&m, "absent") == NULL, "strmap: absent keys read NULL");
    strmap_free(&m);

    Buf b;
    buf_init(&b);
    for (int i = 0; i < 1000; i++)
        buf_printf(&b, "%d,", i);
    EXPECT(b.len == strlen(b.data) && strncmp(b.data + b.len - 4, "999,", 4) == 0,
           "buf: printf appends and keeps the terminator");
    buf_free(&b);

    /* buf_printf formats into the room left and again only when it did not
     * fit: every length around the capacity (256, 512) against the text
     * built by hand. */
    static char want[1200], text[600];
    memset(text, 'x', sizeof text - 1);
    int same = 1;
    for (int pre = 0; pre < 520 && same; pre += 7)
        for (int n = 0; n < 560 && same; n++) {
            buf_init(&b);
            for (int i = 0; i < pre; i++)
                buf_putc(&b, 'p');
            buf_printf(&b, "%.*s!", n, text);
            memset(want, 'p', (size_t)pre);
            memset(want + pre, 'x', (size_t)n);
            strcpy(want + pre + n, "!");
            same = b.len == (size_t)(pre + n + 1) && strcmp(b.data, want) == 0;
            buf_free(&b);
        }
    EXPECT(same, "buf: printf of every length around the capacity: the text, its length, the terminator");

    /* The conversions buf_printf writes itself, at their extremes, and
     * formats it hands to vsnprintf, against libc's snprintf. */
    static char libc[256];
#define SAME_AS_LIBC(...)                                                                          \
    do {                                                                                           \
        buf_init(&b);                                                                              \
        buf_puts(&b, "<");                                                                         \
        buf_printf(&b, __VA_ARGS__);                                                               \
        libc[0] = '<';                                                                             \
        snprintf(libc + 1, sizeof libc - 1, __VA_ARGS__);                                          \
        if (b.len != strlen(libc) || strcmp(b.data, libc) != 0) {                                  \
            same = 0;                                                                              \
            fprintf(stderr, "# buf_printf wrote '%s', snprintf '%s'\n", b.data, libc);             \
        }                                                                                          \
        buf_free(&b);                                                                              \
    } while (0)
    same = 1;
    SAME_AS_LIBC("%d %d %d %d", 0, -1, INT_MIN, INT_MAX);
    SAME_AS_LIBC("%u|%u|%u", 0u, 7u, UINT_MAX);
    SAME_AS_LIBC("%ld %lu %ld", LONG_MIN, ULONG_MAX, 42L);
    SAME_AS_LIBC("%lld%llu%lld", LLONG_MIN, ULLONG_MAX, -9LL);
    SAME_AS_LIBC("%zu,%zu", (size_t)0, SIZE_MAX);
    SAME_AS_LIBC("%c%c%%%s%%", 'a', '{', "mid");
    SAME_AS_LIBC("[%.*s][%.*s][%.*s]", 3, "abcdef", 0, "x", -1, "whole");
    SAME_AS_LIBC("%.*s", 10, "short");
    SAME_AS_LIBC("no conversions at all");
    SAME_AS_LIBC("%s%s", "", "");
    SAME_AS_LIBC("%3d|%-5s|%04x|%08X|%p", 7, "ab", 255u, 48879u, (void *)0);
    SAME_AS_LIBC("%s and %5s", "simple", "width");
    SAME_AS_LIBC("%lx %hd %.2s", 255UL, (short)-3, "xyz");
    /* widths on %d and %u, written by buf_printf itself */
    SAME_AS_LIBC("/* %3d */ %3d|%1d|%2d|%10d|%3u|%12d", 1, -12, 123, -5, INT_MIN, UINT_MAX, 4567);
    SAME_AS_LIBC("%3d%%%20u%3s", 1000, 0u, "s");
#undef SAME_AS_LIBC
    EXPECT(same, "buf: printf's own conversions and vsnprintf's write what snprintf writes");
    const char *keywords[] = {"int", "_Bool", "co_await", "xor_eq", "reinterpret_cast", "alignas",
                              "_Thread_local", "while"};
    const char *names[] = {"thread", "Int", "", "_bool", "zz", "int_", "co_", "_", "whilst"};
    int right = 1;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        right &= is_c_keyword(keywords[i]);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        right &= !is_c_keyword(names[i]);
    EXPECT(right, "is_c_keyword: C and C++ keywords, first, last and between; not names like them");
    buf_init(&b);
    buf_printf(&b, "%s", "");
    EXPECT(b.data && b.len == 0 && b.data[0] == '\0', "buf: printf of nothing leaves an empty string");
    buf_free(&b);

    Arena *a = arena_new();
    char *big = arena_alloc(a, 200000);
    char *small = arena_strdup(a, "after");
    big[199999] = 'x';
    EXPECT(strcmp(small, "after") == 0 && big[0] == 0, "arena: big blocks, zeroed memory");
    arena_free(a);
}

/* "name@line name@line ..." of the definitions cscan finds, or "error@line: what". */
static void scan_summary(const char *text, Buf *out)
{
    CScan s;
    buf_reset(out);
    if (!cscan(&s, text, strlen(text))) {
        buf_printf(out, "error@%d: %s", s.error_line, s.error);
    } else {
        for (size_t i = 0; i < s.n_defs; i++) {
            const CTok *t = &s.toks[s.defs[i].name];
            buf_printf(out, "%s%.*s@%d", i ? " " : "", (int)t->len, text + t->off, t->line);
        }
    }
    cscan_free(&s);
}

/* The signature key of the only definition in text. */
static void key_of(const char *text, Buf *out)
{
    CScan s;
    buf_reset(out);
    if (cscan(&s, text, strlen(text)) && s.n_defs == 1)
        cscan_signature_key(&s, &s.defs[0], out);
    else
        buf_puts(out, "(no single definition)");
    cscan_free(&s);
}

static void test_cscan(void)
{
    Buf b, k;
    buf_init(&b);
    buf_init(&k);
    scan_summary("#include \"x.h\"\n"
                 "#define OPEN { \\\n"
                 "    int f(void) {\n"
                 "int proto(int a);\n"
                 "static int helper(void) { return '}' + sizeof \"{\"; } /* } */\n"
                 "// int fake(void) { \\\n"
                 "   still the comment {\n"
                 "jvmtiError\n"
                 "jvmti_impl_A (jvmtiEnv *env, /* ) { */ jint x)\n"
                 "{\n"
                 "    if (x) { return 0; }\n"
                 "    return 1'000;\n"
                 "}\n"
                 "struct S { int a; } s = { 1 };\n"
                 "int tab[] = { 1, 2 };\n"
                 "static void attr(void) __attribute__((unused)) {}\n"
                 "extern \"C\" {\n"
                 "int inside(void) { return 0; }\n"
                 "}\n",
                 &b);
    EXPECT(strcmp(b.data, "helper@5 jvmti_impl_A@9 attr@16 inside@18") == 0,
           "cscan: definitions past directives, comments, literals, prototypes (got %s)", b.data);
    scan_summary("int f(void) {\n  /* never closed }\n", &b);
    EXPECT(strcmp(b.data, "error@2: unterminated comment") == 0, "cscan: unterminated comment (got %s)",
           b.data);
    scan_summary("int f(void) {\n}\n\nchar *s = \"no end;\n", &b);
    EXPECT(strcmp(b.data, "error@4: unterminated string literal") == 0,
           "cscan: unterminated string (got %s)", b.data);
    scan_summary("char c = 'x;\n", &b);
    EXPECT(strcmp(b.data, "error@1: unterminated character constant") == 0,
           "cscan: unterminated character constant (got %s)", b.data);
    scan_summary("int f(void) {\n  return 0;\n}\n}\n", &b);
    EXPECT(strcmp(b.data, "error@4: '}' without a matching '{'") == 0,
           "cscan: a stray '}' (got %s)", b.data);
    scan_summary("int f(void)\n{\n  if (1) {\n}\nint g(void) { return 0; }\n", &b);
    EXPECT(strcmp(b.data, "error@2: '{' without a matching '}'") == 0,
           "cscan: an unclosed body is reported at its '{' (got %s)", b.data);
    scan_summary("#if 1 /* a comment\n   over lines */\nint f(void) { return 0; }\n#endif\n", &b);
    EXPECT(strcmp(b.data, "f@3") == 0, "cscan: a comment inside a directive (got %s)", b.data);

    Buf k2;
    buf_init(&k2);
    key_of("jvmtiError jvmti_impl_X(jvmtiEnv *env, const jthread* list, jint) {}", &k);
    key_of("extern jvmtiError\njvmti_impl_X ( jvmtiEnv* /* c */ e ,\n  const jthread *  // x\n"
           "  other_name, jint\n)\n{\n}\n", &k2);
    EXPECT(strcmp(k.data, "jvmtiError ( jvmtiEnv * , const jthread * , jint )") == 0 &&
               strcmp(k.data, k2.data) == 0,
           "cscan: signature keys ignore names, comments, layout, extern (got '%s' and '%s')",
           k.data, k2.data);
    key_of("jvmtiError jvmti_impl_X(jvmtiEnv *env, jlong depth) {}", &k2);
    key_of("jvmtiError jvmti_impl_X(jvmtiEnv *env, jint depth) {}", &k);
    EXPECT(strcmp(k.data, k2.data) != 0, "cscan: a changed parameter type changes the key");
    key_of("static jvmtiError jvmti_impl_X(jvmtiEnv *env, jint depth) {}", &k2);
    EXPECT(strcmp(k.data, k2.data) != 0, "cscan: a changed return type changes the key");
    key_of("void f(unsigned int, char * const, void (*cb)(int), ...) {}", &k);
    EXPECT(strcmp(k.data, "void ( unsigned int , char * const , void ( * cb ) ( int ) , ... )") == 0,
           "cscan: type keywords and a function pointer's parts are not names (got %s)", k.data);
    buf_free(&k2);
    buf_free(&k);
    buf_free(&b);
}

static void json_of(const char *s, Buf *b)
{
    buf_reset(b);
    json_string_append(b, s);
}

static void test_json_strings(void)
{
    Buf b;
    buf_init(&b);
    json_of(NULL, &b);
    EXPECT(strcmp(b.data, "null") == 0, "json: NULL is null (got %s)", b.data);
    json_of("", &b);
    EXPECT(strcmp(b.data, "\"\"") == 0, "json: the empty string (got %s)", b.data);
    json_of("a \"b\" \\ c/", &b);
    EXPECT(strcmp(b.data, "\"a \\\"b\\\" \\\\ c/\"") == 0,
           "json: quotes and backslashes are escaped, '/' is not (got %s)", b.data);
    json_of("\n\t\r\x01\x1f ", &b);
    EXPECT(strcmp(b.data, "\"\\u000a\\u0009\\u000d\\u0001\\u001f \"") == 0,
           "json: control characters as \\u00XX (got %s)", b.data);
    json_of("caf\xc3\xa9 \xe2\x82\xac \x7f", &b);
    EXPECT(strcmp(b.data, "\"caf\xc3\xa9 \xe2\x82\xac \x7f\"") == 0,
           "json: UTF-8 and DEL pass through as they are");
    buf_free(&b);
}

/* buf_put_utf8: well-formed UTF-8 of every length kept, each byte of a
 * malformed sequence one U+FFFD (what Python's errors="replace" and the
 * Unicode standard's "maximal subpart" practice differ on is not asked). */
static void expect_utf8(const char *in, const char *want, const char *desc)
{
    Buf b;
    buf_init(&b);
    buf_put_utf8(&b, in);
    EXPECT(strcmp(b.data ? b.data : "", want) == 0, "utf8: %s", desc);
    buf_free(&b);
}

#define FFFD "\xef\xbf\xbd"
static void test_utf8(void)
{
    expect_utf8("", "", "the empty string");
    expect_utf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z", "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z",
                "1- to 4-byte characters kept");
    expect_utf8("a\xffz", "a" FFFD "z", "a stray byte replaced");
    expect_utf8("a\x80z", "a" FFFD "z", "a lone continuation byte replaced");
    expect_utf8("\xc0\xaf", FFFD FFFD, "an overlong '/' replaced byte by byte");
    expect_utf8("\xed\xa0\x80", FFFD FFFD FFFD, "a surrogate replaced");
    expect_utf8("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD, "above U+10FFFF replaced");
    expect_utf8("a\xe2\x82", "a" FFFD FFFD, "a sequence cut at the end replaced");
    expect_utf8("\xe2\x82z", FFFD FFFD "z", "a sequence cut before an ASCII byte replaced");
}

/* ---- udiff: hunks by hand, then random texts against a patch applier and
 * an O(NM) longest common subsequence, both written here ---- */

static const char *hunks_of(const char *a, const char *b, Buf *out)
{
    buf_reset(out);
    buf_puts(out, ""); /* allocated, even when nothing follows */
    udiff_hunks(a, strlen(a), b, strlen(b), 3, out);
    return out->data;
}

static void expect_hunks(const char *a, const char *b, const char *want, const char *desc)
{
    Buf h;
    buf_init(&h);
    hunks_of(a, b, &h);
    EXPECT(strcmp(h.data, want) == 0, "udiff: %s", desc);
    if (strcmp(h.data, want) != 0)
        printf("# expected:\n%s# got:\n%s", want, h.data);
    buf_free(&h);
}

static void test_udiff_by_hand(void)
{
    expect_hunks("x\ny\n", "x\ny\n", "", "equal texts, no hunk");
    expect_hunks("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nV\n6\n7\n8\n9\n",
                 "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+V\n 6\n 7\n 8\n",
                 "one line changed, three lines of context each side");
    expect_hunks("", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b\n",
                 "from nothing, the empty range names line 0");
    expect_hunks("a\n", "", "@@ -1 +0,0 @@\n-a\n",
                 "to nothing; a one-line range is its number alone");
    expect_hunks("a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
                 "a missing last newline is a difference, and marked");
    expect_hunks("0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", "X\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\nY\n",
                 "@@ -1,4 +1,4 @@\n-0\n+X\n 1\n 2\n 3\n@@ -9,4 +9,4 @@\n 8\n 9\n 10\n-11\n+Y\n",
                 "changes 10 lines apart are two hunks");
    expect_hunks("0\n1\n2\n3\n4\n5\n6\n7\n", "X\n1\n2\n3\n4\n5\n6\nY\n",
                 "@@ -1,8 +1,8 @@\n-0\n+X\n 1\n 2\n 3\n 4\n 5\n 6\n-7\n+Y\n",
                 "changes 6 lines apart share one hunk");
    expect_hunks("a\nb\nc\n", "a\nc\n", "@@ -1,3 +1,2 @@\n a\n-b\n c\n", "a deleted line");
}

/* Applies hunks to a; false if they do not fit it. */
static bool apply_hunks(const char *a, const char *hunks, Buf *out)
{
    buf_reset(out);
    buf_puts(out, "");
    const char *p = hunks, *ap = a;
    long aline = 1;
    while (*p) {
        long s1, c1 = 1, s2, c2 = 1;
        int used = 0;
        if (sscanf(p, "@@ -%ld,%ld +%ld,%ld @@%n", &s1, &c1, &s2, &c2, &used) != 4 || !used) {
            used = 0;
            c1 = c2 = 1;
            if (sscanf(p, "@@ -%ld +%ld,%ld @@%n", &s1, &s2, &c2, &used) != 3 || !used) {
                used = 0;
                if (sscanf(p, "@@ -%ld,%ld +%ld @@%n", &s1, &c1, &s2, &used) != 3 || !used) {
                    used = 0;
                    if (sscanf(p, "@@ -%ld +%ld @@%n", &s1, &s2, &used) != 2 || !used)
                        return false;
                }
            }
        }
        p = strchr(p, '\n') + 1;
        long first = c1 ? s1 : s1 + 1; /* the first line the hunk covers */
        while (aline < first) {        /* copy up to it */
            const char *nl = strchr(ap, '\n');
            size_t n = nl ? (size_t)(nl - ap) + 1 : strlen(ap);
            if (!n)
                return false;
            buf_put(out, ap, n);
            ap += n;
            aline++;
        }
        while (*p && *p != '@') {
            char mark = *p++;
            const char *nl = strchr(p, '\n');
            size_t n = (size_t)(nl - p) + 1;
            bool nonl = nl[1] == '\\';
            size_t len = nonl ? n - 1 : n;
            if (mark == ' ' || mark == '-') {
                if (strncmp(ap, p, len) != 0)
                    return false;
                ap += len;
                aline++;
            }
            if (mark == ' ' || mark == '+')
                buf_put(out, p, len);
            p += n;
            if (nonl)
                p = strchr(p, '\n') + 1;
        }
    }
    buf_puts(out, ap);
    return true;
}

static size_t split_into(const char *s, const char **lines, size_t *lens)
{
    size_t n = 0;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
        lines[n] = s;
        lens[n++] = len;
        s += len;
    }
    return n;
}

static size_t lcs_length(const char *a, const char *b)
{
    static const char *la[64], *lb[64];
    static size_t na_len[64], nb_len[64], t[65][65];
    size_t na = split_into(a, la, na_len), nb = split_into(b, lb, nb_len);
    for (size_t i = 0; i <= na; i++)
        for (size_t j = 0; j <= nb; j++) {
            if (!i || !j)
                t[i][j] = 0;
            else if (na_len[i - 1] == nb_len[j - 1] && !memcmp(la[i - 1], lb[j - 1], na_len[i - 1]))
                t[i][j] = t[i - 1][j - 1] + 1;
            else
                t[i][j] = t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
        }
    return t[na][nb];
}

static void random_text(Buf *t, unsigned *seed, int alphabet)
{
    buf_reset(t);
    int n = (int)(rand_r(seed) % 40);
    for (int i = 0; i < n; i++)
        buf_printf(t, "%c\n", 'a' + (int)(rand_r(seed) % (unsigned)alphabet));
    if (n && rand_r(seed) % 8 == 0)
        t->data[--t->len] = '\0'; /* no newline at the end */
}

static void test_udiff_random(void)
{
    Buf a, b, h, out;
    buf_init(&a);
    buf_init(&b);
    buf_init(&h);
    buf_init(&out);
    unsigned seed = 12345;
    int bad_apply = 0, not_minimal = 0, runs = 4000;
    for (int r = 0; r < runs; r++) {
        int alphabet = 2 + r % 5;
        random_text(&a, &seed, alphabet);
        if (r % 3 == 0) { /* b: a with a few edits */
            buf_reset(&b);
            buf_puts(&b, a.data);
            for (int e = 0; e < 3 && b.len > 2; e++)
                b.data[rand_r(&seed) % (b.len - 1) / 2 * 2] = (char)('a' + alphabet);
        } else {
            random_text(&b, &seed, alphabet);
        }
        hunks_of(a.data, b.data, &h);
        if (!apply_hunks(a.data, h.data, &out) || strcmp(out.data, b.data) != 0) {
            if (!bad_apply++)
                printf("# a:\n%s\n# b:\n%s\n# hunks:\n%s\n", a.data, b.data, h.data);
            continue;
        }
        size_t na = 0, nb = 0, minus = 0, plus = 0;
        for (const char *p = a.data; *p; p++)
            na += *p == '\n' || !p[1];
        for (const char *p = b.data; *p; p++)
            nb += *p == '\n' || !p[1];
        for (const char *p = h.data; *p; p = strchr(p, '\n') + 1) {
            minus += *p == '-';
            plus += *p == '+';
        }
        size_t lcs = lcs_length(a.data, b.data);
        if (minus != na - lcs || plus != nb - lcs)
            not_minimal++;
    }
    EXPECT(bad_apply == 0, "udiff: %d random pairs: the hunks turn the first into the second (%d do not)",
           runs, bad_apply);
    EXPECT(not_minimal == 0, "udiff: %d random pairs: as few lines removed and added as the longest "
           "common subsequence allows (%d more)", runs, not_minimal);
    buf_free(&a);
    buf_free(&b);
    buf_free(&h);
    buf_free(&out);
}

/* What a function can return, and which of it the trampoline checks: a
 * required capability and the checked parameters on entry; a jthread the
 * spec leaves unconverted, a frame's existence and an event type by the
 * implementation; a method's class pseudo-parameter nothing. */
static void test_fn_errors(void)
{
    Type thread = {.kind = TK_JTHREAD, .impl = "noconvert"};
    Type maybe = {.kind = TK_JTHREAD, .started = "maybe"};
    Type depth = {.kind = TK_JFRAMEID};
    Type cls = {.kind = TK_JCLASS, .method = "method"};
    Type jint_ = {.kind = TK_JINT}, jint_min = {.kind = TK_JINT, .min = "1", .min_value = 1};
    Type out = {.kind = TK_OUTPTR, .elem = &jint_};
    Type outok = {.kind = TK_OUTPTR, .elem = &jint_, .nullok = true};
    Type ev = {.kind = TK_ENUM, .name = "jvmtiEvent"}, mode = {.kind = TK_ENUM, .name = "jvmtiEventMode"};
    Param ps[] = {{"t", &thread, {0}}, {"m", &maybe, {0}}, {"depth", &depth, {0}},
                  {"klass", &cls, {0}}, {"n", &jint_min, {0}}, {"e", &ev, {0}},
                  {"mode", &mode, {0}}, {"out", &out, {0}}, {"opt", &outok, {0}}};
    Param *pp[sizeof ps / sizeof *ps];
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++)
        pp[i] = &ps[i];
    NameRef cap = {.id = "can_x"}, own = {.id = "JVMTI_ERROR_OPAQUE_FRAME"};
    NameRef *caps[] = {&cap}, *owns[] = {&own};
    Function f = {.id = "F", .required = caps, .n_required = 1, .params = pp,
                  .n_params = sizeof ps / sizeof *ps, .errors = owns, .n_errors = 1};
    static const struct { const char *error, *param; bool on_entry; } want[] = {
        {"JVMTI_ERROR_MUST_POSSESS_CAPABILITY", NULL, true},
        {"JVMTI_ERROR_INVALID_THREAD", "t", false},
        {"JVMTI_ERROR_THREAD_NOT_ALIVE", "t", false},
        {"JVMTI_ERROR_INVALID_THREAD", "m", true},
        {"JVMTI_ERROR_ILLEGAL_ARGUMENT", "depth", true},
        {"JVMTI_ERROR_NO_MORE_FRAMES", "depth", false},
        {"JVMTI_ERROR_ILLEGAL_ARGUMENT", "n", true},
        {"JVMTI_ERROR_INVALID_EVENT_TYPE", "e", false},
        {"JVMTI_ERROR_ILLEGAL_ARGUMENT", "mode", false},
        {"JVMTI_ERROR_NULL_POINTER", "out", true},
        {"JVMTI_ERROR_OPAQUE_FRAME", NULL, false},
    };
    FnErrors fe = fn_errors_of(&f);
    size_t n = sizeof want / sizeof *want;
    EXPECT(fe.n == n, "errors: %zu errors (got %zu)", n, fe.n);
    for (size_t i = 0; i < n && i < fe.n; i++) {
        const FnError *x = &fe.items[i];
        const char *param = x->param ? x->param->name : NULL;
        EXPECT(strcmp(x->error, want[i].error) == 0 && x->on_entry == want[i].on_entry &&
                   (param == want[i].param || (param && want[i].param && !strcmp(param, want[i].param))),
               "errors: #%zu is %s of %s, %s", i, want[i].error, want[i].param ? want[i].param : "F",
               want[i].on_entry ? "on entry" : "by the implementation");
    }
    /* Every check a trampoline makes is an error the docs list on entry. */
    size_t unmatched = 0;
    for (size_t g = 0; g < fe.n_guards; g++) {
        bool found = fe.guards[g].kind < G_CAPABILITY;
        for (size_t i = 0; i < fe.n && !found; i++)
            found = fe.items[i].on_entry && (fe.items[i].guard == &fe.guards[g] ||
                                             (fe.guards[g].kind == G_CAPABILITY && fe.items[i].cap));
        unmatched += !found;
    }
    EXPECT(unmatched == 0, "errors: every guard is an error checked on entry (%zu not)", unmatched);
    fn_errors_free(&fe);
}

/* The core's list is searched with bsearch: out of order, a function the
 * core implements would get a weak default too (two merges once put
 * GetLocal* before GetLocalVariableTable's neighbours unsorted). */
static void test_core_list(void)
{
    size_t n;
    const char *const *list = core_function_list(&n);
    size_t unsorted = 0, missed = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(list[i - 1], list[i]) >= 0)
            unsorted++;
        if (!core_implements(list[i]))
            missed++;
    }
    EXPECT(n > 0 && unsorted == 0, "core: the core's %zu functions are in strcmp order (%zu out)", n,
           unsorted);
    EXPECT(missed == 0, "core: core_implements finds each of them (%zu missed)", missed);
    EXPECT(!core_implements("GetClassLoader") && !core_implements(""),
           "core: and no other (GetClassLoader is the VM's)");
}

/* gen/docs/xslns.c: every declaration of the XSLT namespace in a compiled
 * stylesheet, its included and imported files' too, points at libxslt's
 * own copy of the name while shared, and at its own again after; the
 * transformation's result is the same. */
static void collect_xslt_ns(xmlNodePtr n, Vec *out)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (xmlNsPtr ns = n->nsDef; ns; ns = ns->next)
            if (xmlStrEqual(ns->href, BAD_CAST "http://www.w3.org/1999/XSL/Transform"))
                vec_push(out, ns);
        collect_xslt_ns(n->children, out);
    }
}

static void collect_style_ns(xsltStylesheetPtr style, Vec *out)
{
    for (; style; style = style->next) {
        collect_xslt_ns(style->doc->children, out);
        for (xsltDocumentPtr d = style->docList; d; d = d->next)
            collect_xslt_ns(d->doc->children, out);
        collect_style_ns(style->imports, out);
    }
}

static bool write_text(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

static void test_xslt_ns_share(void)
{
    if (!xslt_ns_constant()) {
        printf("skip - unit: xslns: libxslt holds the XSLT namespace's name not exactly once\n");
        return;
    }
    char dir[] = "/tmp/jvmtigen-units-XXXXXX";
    if (!mkdtemp(dir)) {
        EXPECT(false, "xslns: a scratch folder");
        return;
    }
    /* the name declared on the root, again on an inner element with
     * another prefix, and in an included and an imported file */
    bool written =
        write_text(dir, "main.xsl",
                   "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'>\n"
                   "<xsl:import href='imp.xsl'/><xsl:include href='inc.xsl'/>\n"
                   "<xsl:output method='text'/>\n"
                   "<xsl:template match='/'><t:for-each select='//i' "
                   "xmlns:t='http://www.w3.org/1999/XSL/Transform'>"
                   "<t:choose><t:when test='@n = 2'><t:call-template name='two'/></t:when>"
                   "<t:otherwise><t:apply-templates select='.'/></t:otherwise></t:choose>"
                   "</t:for-each></xsl:template>\n"
                   "</xsl:stylesheet>\n") &&
        write_text(dir, "inc.xsl",
                   "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'>\n"
                   "<xsl:template name='two'><xsl:text>[two]</xsl:text></xsl:template>\n"
                   "</xsl:stylesheet>\n") &&
        write_text(dir, "imp.xsl",
                   "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'>\n"
                   "<xsl:template match='i'><xsl:value-of select='concat(\"(\", @n, \")\")'/></xsl:template>\n"
                   "</xsl:stylesheet>\n");
    char path[512];
    snprintf(path, sizeof path, "%s/main.xsl", dir);
    xsltStylesheetPtr style = written ? xsltParseStylesheetFile(BAD_CAST path) : NULL;
    xmlDocPtr src = xmlReadMemory("<r><i n='1'/><i n='2'/><i n='3'/></r>", 37, "r.xml", NULL, 0);
    EXPECT(style && src, "xslns: the stylesheet compiles");
    if (style && src) {
        Vec ns = {0}, before = {0};
        collect_style_ns(style, &ns);
        for (size_t i = 0; i < ns.n; i++)
            vec_push(&before, (void *)((xmlNsPtr)ns.items[i])->href);
        XsltNsShare share = {0};
        xslt_ns_share(&share, style);
        const xmlChar *name = xslt_ns_constant();
        size_t shared = 0;
        for (size_t i = 0; i < ns.n; i++)
            shared += ((xmlNsPtr)ns.items[i])->href == name && name != before.items[i];
        EXPECT(ns.n == 4 && shared == ns.n,
               "xslns: the 4 declarations (root, inner, included, imported) share libxslt's name "
               "(%zu of %zu)", shared, ns.n);
        xmlDocPtr res = xsltApplyStylesheet(style, src, NULL);
        xmlChar *text = NULL;
        int len = 0;
        if (res)
            xsltSaveResultToString(&text, &len, res, style);
        EXPECT(text && strcmp((char *)text, "(1)[two](3)") == 0,
               "xslns: the transformation runs as before: (1)[two](3) (got %s)",
               text ? (char *)text : "nothing");
        xmlFree(text);
        xmlFreeDoc(res);
        xslt_ns_unshare(&share);
        size_t back = 0;
        for (size_t i = 0; i < ns.n; i++)
            back += ((xmlNsPtr)ns.items[i])->href == before.items[i];
        EXPECT(back == ns.n && share.kept.n == 0,
               "xslns: unshared, each declaration has its own name again (%zu of %zu)", back, ns.n);
        vec_free(&ns);
        vec_free(&before);
    }
    /* freeing the trees frees each name: ASan and valgrind see a wrong one */
    if (style)
        xsltFreeStylesheet(style);
    xmlFreeDoc(src);
    for (const char *const *f = (const char *const[]){"main.xsl", "inc.xsl", "imp.xsl", NULL}; *f; f++) {
        snprintf(path, sizeof path, "%s/%s", dir, *f);
        unlink(path);
    }
    rmdir(dir);
}

/* gen/docs/memlimit.c: the templates' small blocks from the arena, larger
 * ones and those after the templates malloc's; a block grown keeps its
 * bytes, and one freed after the templates goes back where it came from. */
static void test_template_blocks(void)
{
    start_memory_limit("templates");
    char *small = xmlMalloc(40), *other = xmlMalloc(40), *big = xmlMalloc(5000);
    bool got = small && other && big;
    if (got) {
        memset(small, 'a', 40);
        memset(other, 'b', 40);
        small = xmlRealloc(small, 2000); /* past the arena's largest size */
        got = small != NULL;
    }
    size_t kept = 0;
    for (int i = 0; got && i < 40; i++)
        kept += small[i] == 'a' && other[i] == 'b';
    char *again = got ? xmlMalloc(40) : NULL; /* small's old block */
    stop_memory_limit();
    char *after = xmlMalloc(24); /* malloc's: free() takes it */
    EXPECT(got && again && after && kept == 40,
           "memlimit: blocks from the templates' arena and malloc, grown with their bytes (%zu of 40)",
           kept);
    xmlFree(small);
    xmlFree(other);
    xmlFree(big);
    xmlFree(again);
    free(after);
    xmlChar *s = xmlStrdup(BAD_CAST "after the templates");
    EXPECT(s && strcmp((char *)s, "after the templates") == 0,
           "memlimit: after the templates, blocks are made and freed as before");
    xmlFree(s);
}

int main(void)
{
    test_collation();
    test_versions();
    test_integers();
    test_ctype();
    test_containers();
    test_cscan();
    test_json_strings();
    test_utf8();
    test_udiff_by_hand();
    test_udiff_random();
    test_fn_errors();
    test_core_list();
    test_xslt_ns_share();
    test_template_blocks();
    return failures != 0;
}
