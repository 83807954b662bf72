/* The few facts a generator needs that the spec XML does not state.
 * Everything else is derived from the spec. Keep this file small; each fact
 * says where it comes from. */
#ifndef JVMTIGEN_FACTS_H
#define JVMTIGEN_FACTS_H

#include <stdbool.h>

/* Ranges of numbers (checked when the model is built). Function numbers are
 * 1-based slots of jvmtiInterface_1 and event numbers index the callback
 * table, so an absurd number would make an absurd table (one line and one
 * pointer per slot, empty ones too). The largest number is derived from the
 * spec: TABLE_SLOTS_PER_ITEM for each function (event) it defines, and at
 * least TABLE_NUM_FLOOR, so a table is at most 8 times as long as it is
 * full; the real specs use 1..1000 for 160 functions and 50..88 for 39
 * events, a spec repeated 16 times 1..16000 and 50..1442. Error numbers are
 * jvmtiError values (0..116 today). */
#define FUNCTION_NUM_MIN 1
#define EVENT_NUM_MIN 1
#define TABLE_NUM_FLOOR 1024
#define TABLE_SLOTS_PER_ITEM 8
#define ERROR_NUM_MIN 0
#define ERROR_NUM_MAX 4095

/* A JVM TI version: MAJOR[.MINOR[.MICRO]], as in <change version="17.0.0">
 * and --jvmti-version. The header encodes it as 0x30000000 + MAJOR << 16 +
 * MINOR << 8 + MICRO, so the parts are limited to 0xFFF, 0xFF and 0xFF. */
typedef struct JvmtiVersion {
    int major, minor, micro;
} JvmtiVersion;
bool version_parse(const char *s, JvmtiVersion *out);
bool version_valid(const char *s);
int version_cmp(const char *a, const char *b); /* both valid */
/* v is release major.minor or later (micro aside). */
bool version_at_least(const JvmtiVersion *v, int major, int minor);

/* The named JVMTI_VERSION_* constants are a per-release list kept by the JDK,
 * not in the XML. A constant appears in the header of every release from the
 * one that introduced it on. */
typedef struct NamedVersion {
    const char *name;
    unsigned value;
    int since_major, since_minor; /* first release that has it */
} NamedVersion;
extern const NamedVersion named_versions[];
extern const int n_named_versions;

/* How the JDK's own jvmti.h spells the same spec facts, release by release:
 * its stylesheet (jvmtiH.xsl) changed while the facts stayed. Each row holds
 * the style of the releases from since_major.since_minor on; the rows are in
 * ascending order and the first starts at 1.0. docs/cli.md tables them with
 * the JDK headers and stylesheets read to find them. */
typedef struct HeaderStyle {
    int since_major, since_minor; /* first release written this way */
    /* Tag a struct or union typedef X as "struct _X" (pre-declaration and
     * body). The tag is part of a C++ symbol's mangled name. */
    bool underscore_tags;
    /* Write the minor version as "( N * 0x100)": the stylesheet put a literal
     * " 0" there once the spec lost its minorversion attribute; before, the
     * attribute's value followed "(" directly. */
    bool spaced_minor;
} HeaderStyle;
const HeaderStyle *header_style(const JvmtiVersion *v);

/* Order of the event-callback typedefs in jvmti.h. The JDK sorts them with
 * Java's locale collation: letters compare case-insensitively first (so
 * "VirtualThreadEnd" < "VMDeath"), '_' before digits before letters; only
 * then does case decide, lower before upper. The order is total. */
int collate_ids(const char *a, const char *b);

/* Anchors the documentation defines besides item ids and "Owner.member"
 * (a field, parameter or capability); links in the prose may target them. */
extern const char *const doc_section_anchors[];

#endif
