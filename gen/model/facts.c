#include "model/facts.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const NamedVersion named_versions[] = {
    {"JVMTI_VERSION_1", 0x30010000, 1, 0},   {"JVMTI_VERSION_1_0", 0x30010000, 1, 0},
    {"JVMTI_VERSION_1_1", 0x30010100, 1, 1}, {"JVMTI_VERSION_1_2", 0x30010200, 1, 2},
    {"JVMTI_VERSION_9", 0x30090000, 9, 0},   {"JVMTI_VERSION_11", 0x300B0000, 11, 0},
    {"JVMTI_VERSION_19", 0x30130000, 19, 0}, {"JVMTI_VERSION_21", 0x30150000, 21, 0},
};
const int n_named_versions = (int)(sizeof named_versions / sizeof *named_versions);

/* Found in the JDK headers of 8 (1.2.1) and 17, issue 38's count of 11's, the
 * stylesheets of 9, of a JDK 15 tree and of 17, and JDK-8254364 (the tags'
 * removal, in 16); docs/cli.md has the table and says what is inferred. */
static const HeaderStyle header_styles[] = {
    {1, 0, true, false},  /* JDK 5 to 12: "struct _X", "(0 * 0x100)" */
    {13, 0, true, true},  /* 13: the version from the build, "( 0 * 0x100)" */
    {16, 0, false, true}, /* 16: "struct X" */
};

bool version_at_least(const JvmtiVersion *v, int major, int minor)
{
    return v->major > major || (v->major == major && v->minor >= minor);
}

const HeaderStyle *header_style(const JvmtiVersion *v)
{
    const HeaderStyle *found = &header_styles[0];
    for (size_t i = 1; i < sizeof header_styles / sizeof *header_styles; i++) {
        const HeaderStyle *h = &header_styles[i];
        if (version_at_least(v, h->since_major, h->since_minor))
            found = h;
    }
    return found;
}

const char *const doc_section_anchors[] = {
    "FunctionSection", "FunctionTable", "EventSection",  "EventIndex",
    "ErrorSection",    "DataSection",   "ChangeHistory", NULL,
};

static bool parse_part(const char **s, int max, int *out)
{
    const char *p = *s;
    long v = 0;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > max)
            return false;
    }
    *out = (int)v;
    *s = p;
    return true;
}

bool version_parse(const char *s, JvmtiVersion *out)
{
    JvmtiVersion v = {0, 0, 0};
    if (!s || !parse_part(&s, 0xFFF, &v.major))
        return false;
    if (*s == '.') {
        s++;
        if (!parse_part(&s, 0xFF, &v.minor))
            return false;
        if (*s == '.') {
            s++;
            if (!parse_part(&s, 0xFF, &v.micro))
                return false;
        }
    }
    if (*s)
        return false;
    *out = v;
    return true;
}

bool version_valid(const char *s)
{
    JvmtiVersion v;
    return version_parse(s, &v);
}

int version_cmp(const char *a, const char *b)
{
    JvmtiVersion x, y;
    version_parse(a, &x);
    version_parse(b, &y);
    if (x.major != y.major)
        return x.major < y.major ? -1 : 1;
    if (x.minor != y.minor)
        return x.minor < y.minor ? -1 : 1;
    return x.micro < y.micro ? -1 : x.micro > y.micro;
}

/* Primary weight as Java's collator orders identifier characters:
 * punctuation before digits before letters, letters without case. */
static int fold(int c)
{
    if (c == 0)
        return 0;
    if (c == '_')
        return 1;
    if (c >= '0' && c <= '9')
        return 2 + (c - '0');
    if (c >= 'a' && c <= 'z')
        return 20 + (c - 'a');
    if (c >= 'A' && c <= 'Z')
        return 20 + (c - 'A');
    return 100 + c;
}

int collate_ids(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t i = 0;
    for (; x[i] && fold(x[i]) == fold(y[i]); i++)
        ;
    if (x[i] || y[i])
        return fold(x[i]) < fold(y[i]) ? -1 : 1;
    /* Equal but for case: the first case difference decides, lower first. */
    for (i = 0; x[i]; i++)
        if (x[i] != y[i])
            return x[i] >= 'a' && x[i] <= 'z' ? -1 : 1;
    return 0;
}
