/* The typed model of a JVM TI specification.
 *
 * build.c fills it from the XML tree, check.c validates it, and every emitter
 * reads it and nothing else. Each item carries the source line it came from.
 * Items inside <elide> are not in the model (only their names, in `elided`,
 * so that a link to one can be reported). All memory belongs to spec->arena.
 * Lists keep document order unless a comment says otherwise. */
#ifndef JVMTIGEN_MODEL_H
#define JVMTIGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/util.h"

/* ---- types of parameters and fields ---- */

/* clang-format off */
typedef enum TypeKind {
    /* leaves: the element names of the spec's base types */
    TK_JMETHODID, TK_JFIELDID, TK_JFRAMEID, TK_JRAWMONITORID, TK_JCLASS, TK_JTHREAD,
    TK_JTHREADGROUP, TK_JOBJECT, TK_JVALUE, TK_JCHAR, TK_JINT, TK_JLONG, TK_JFLOAT,
    TK_JDOUBLE, TK_JLOCATION, TK_JBOOLEAN, TK_CHAR, TK_UCHAR, TK_SIZE_T, TK_VOID,
    TK_VARARGS,
    TK_ENUM,   /* <enum>name</enum>: a constants group, jvmtiEvent or jvmtiError */
    TK_STRUCT, /* <struct>name</struct>: a typedef, union, callback or base type */
    /* wrappers around one element type: how memory and direction work */
    TK_PTRTYPE,       /* the element type itself, already a pointer (callbacks, jvmtiEnv) */
    TK_OUTPTR,        /* T*: the callee stores one value */
    TK_OUTBUF,        /* T*: caller-allocated array the callee fills */
    TK_ALLOCFIELDBUF, /* T* in a struct field: callee-allocated array */
    TK_INPTR,         /* const T*: one value passed in */
    TK_INBUF,         /* const T*: array passed in */
    TK_VMBUF,         /* const T*: VM-owned array */
    TK_ALLOCBUF,      /* T**: callee allocates an array (free with Deallocate) */
    TK_AGENTBUF,      /* T**: agent-owned array */
    TK_ALLOCALLOCBUF, /* T***: callee allocates an array of allocated arrays */
    TK_COUNT
} TypeKind;
/* clang-format on */

typedef struct TypeKindInfo {
    const char *xml; /* element name in the spec */
    const char *c;   /* leaves: C spelling ("" for varargs; NULL for enum/struct) */
    bool wrapper;
    const char *prefix; /* wrappers: "const " or "" */
    int stars;          /* wrappers: pointer levels added */
    /* Who owns the memory a parameter of this kind points to, in words a
     * binding acts on (`jvmtigen model`, README.md): "value", "caller-in",
     * "caller-storage", "callee-allocated", "callee-allocated-nested",
     * "vm-owned", "agent-owned". */
    const char *ownership;
} TypeKindInfo;

extern const TypeKindInfo type_kinds[TK_COUNT];
/* TK_COUNT if name is not a type element. */
TypeKind type_kind_from_xml(const char *name);

typedef struct Type {
    TypeKind kind;
    Loc loc;
    struct Type *elem; /* wrappers: the wrapped type */
    const char *name;  /* TK_ENUM / TK_STRUCT: the named type */
    /* wrapper attributes (NULL when absent) */
    const char *incount;  /* parameter holding the element count passed in */
    const char *outcount; /* parameter receiving the element count */
    bool nullok;          /* NULL is a valid argument */
    /* leaf attributes (NULL when absent), as written in the spec */
    const char *min;     /* jint: smallest valid value */
    const char *null;    /* jthread: "current" = NULL means the calling thread */
    const char *started; /* jthread: "maybe"/"no" = need not be started */
    const char *frame;   /* jthread/jobject: the depth parameter it goes with */
    const char *impl;    /* implementation hints ("noconvert", "nonullcheck") */
    const char *class_;  /* jmethodID/jfieldID: the class parameter */
    const char *native;  /* jmethodID: "error" = native methods are rejected */
    const char *method;  /* jclass: the method parameter (legacy pair; not in C) */
    const char *field;   /* jclass: the field parameter it goes with */
    const char *thread;  /* jframeID: the thread parameter */
    long long min_value; /* parsed min, valid when min != NULL */
} Type;

typedef struct Param {
    const char *name;
    Type *type;
    Loc loc;
} Param;

typedef struct NameRef {
    const char *id;
    Loc loc;
} NameRef;

/* clang-format off */
typedef enum Phase {
    PHASE_DEFAULT = 0, /* attribute absent: functions are live-phase, events by spec */
    PHASE_ONLOAD, PHASE_ONLOAD_ONLY, PHASE_START, PHASE_LIVE, PHASE_ANY
} Phase;
/* clang-format on */
const char *phase_name(Phase p); /* spelling in the spec; "" for PHASE_DEFAULT */

/* ---- items ---- */

typedef struct Category Category;

typedef struct Typedef {
    const char *id;
    const char *label;
    const char *since;
    bool is_union;
    Param **fields; /* a field is shaped like a parameter */
    size_t n_fields;
    Loc loc;
} Typedef;

typedef struct Function {
    const char *id;
    int num;
    Phase phase;
    bool callbacksafe; /* callbacksafe="safe" */
    const char *impl;  /* e.g. "innative notrace", or NULL */
    bool hide;         /* hide="..." present: not in the function table */
    const char *jkernel;
    const char *since;
    const char *synopsis;
    const char *origin;
    bool eventcapabilities; /* <eventcapabilities/>: needs the event's capability */
    NameRef **required;     /* capabilities needed to call it */
    size_t n_required;
    NameRef **optional; /* capabilities that add behaviour */
    size_t n_optional;
    Param **params;
    size_t n_params;
    NameRef **errors; /* function-specific errors */
    size_t n_errors;
    Category *category;
    Loc loc;
} Function;

typedef struct Callback {
    const char *id;
    const char *since;
    const char *synopsis;
    Type *ret;
    Param **params;
    size_t n_params;
    Category *category;
    Loc loc;
} Callback;

struct Category {
    const char *id;
    const char *label;
    Function **functions;
    size_t n_functions;
    Callback **callbacks;
    size_t n_callbacks;
    Loc loc;
};

typedef enum Filtered { FILTER_DEFAULT = 0, FILTER_THREAD, FILTER_GLOBAL } Filtered;

typedef struct Event {
    const char *id;
    const char *label;
    const char *const_name; /* JVMTI_EVENT_... */
    int num;
    Phase phase; /* PHASE_DEFAULT, ONLOAD, START, LIVE or ANY */
    Filtered filtered;
    const char *since;
    NameRef **required;
    size_t n_required;
    NameRef **optional;
    size_t n_optional;
    Param **params;
    size_t n_params;
    Loc loc;
} Event;

typedef struct CapabilityField {
    const char *id;
    const char *disp1, *disp2;
    const char *since;
    Loc loc;
} CapabilityField;

typedef struct Capabilities {
    const char *id; /* jvmtiCapabilities */
    const char *label;
    CapabilityField **fields;
    size_t n_fields;
    Loc loc;
} Capabilities;

typedef enum ConstKind { CONST_ENUM, CONST_BITS, CONST_CONST } ConstKind;

typedef struct Constant {
    const char *id;
    const char *num; /* as written: a number or an expression of constants */
    bool numeric;    /* num is a plain integer literal */
    long long value; /* valid when numeric */
    Loc loc;
} Constant;

typedef struct ConstantGroup {
    const char *id;
    const char *label;
    ConstKind kind;
    const char *since;
    Constant **constants;
    size_t n_constants;
    Loc loc;
} ConstantGroup;

typedef struct ErrorDef {
    const char *id;
    int num;
    const struct ErrorCategory *category;
    Loc loc;
} ErrorDef;

typedef struct ErrorCategory {
    const char *id;
    const char *label;
    ErrorDef **errors;
    size_t n_errors;
    Loc loc;
} ErrorCategory;

typedef struct BaseType {
    const char *id;
    const char *name;       /* optional display name */
    const char *definition; /* C text the header carries, or NULL */
    Loc loc;
} BaseType;

typedef struct BaseTypeGroup {
    const char *id;
    const char *label;
    BaseType **types;
    size_t n_types;
    Loc loc;
} BaseTypeGroup;

typedef struct Intro {
    const char *id; /* may be NULL */
    const char *label;
    Loc loc;
} Intro;

/* clang-format off */
typedef enum LinkKind {
    LINK_FUNCTION, LINK_EVENT, LINK_TYPE, LINK_DATA, LINK_FIELD, LINK_PARAM, LINK_ERROR,
    LINK_INTERNAL, LINK_EXTERNAL, LINK_COUNT
} LinkKind;
/* clang-format on */
extern const char *const link_kind_names[LINK_COUNT]; /* "functionlink", ... */

typedef struct Link {
    LinkKind kind;
    const char *id;
    const char *struct_; /* fieldlink: the struct */
    const char *owner;   /* paramlink: function/event/callback it sits in, or NULL */
    Param **owner_params;
    size_t n_owner_params;
    Loc loc;
} Link;

typedef struct Change {
    const char *date;
    const char *version; /* may be NULL */
    Loc loc;
} Change;

typedef struct Elided {
    const char *kind; /* "function", "event", ... */
    const char *id;
    Loc loc;
} Elided;

typedef struct Spec {
    Arena *arena;
    const char *file;
    const char *label;
    const char *title;
    const char **copyright; /* "Copyright" lines of the leading comment, trimmed */
    size_t n_copyright;

    Intro **intros; /* every <intro> with an id or label, any depth */
    size_t n_intros;
    Category **categories;
    size_t n_categories;
    Function **functions;
    size_t n_functions;
    Callback **callbacks;
    size_t n_callbacks;
    Typedef **typedefs; /* structs and unions wherever they appear */
    size_t n_typedefs;
    Capabilities *capabilities;
    Event **events;
    size_t n_events;
    ErrorCategory **error_categories;
    size_t n_error_categories;
    ErrorDef **errors;
    size_t n_errors;
    ConstantGroup **constant_groups; /* wherever they appear */
    size_t n_constant_groups;
    BaseTypeGroup **basetype_groups;
    size_t n_basetype_groups;
    BaseType **basetypes;
    size_t n_basetypes;
    Link **links;
    size_t n_links;
    Change **changes;
    size_t n_changes;
    Elided **elided;
    size_t n_elided;
    /* The JVM TI version the spec states: <specification majorversion=
     * minorversion= microversion=> where present (JDK 8's spec has them),
     * else the highest <change version=>; NULL if neither. version_loc is
     * where it was stated. */
    const char *version;
    Loc version_loc;
} Spec;

void spec_free(Spec *spec);

/* qsort comparators of ErrorDef* and Event* by number. */
int error_num_cmp(const void *a, const void *b);
int event_num_cmp(const void *a, const void *b);

/* Whether a space-separated attribute value (impl="innative notrace")
 * contains word; NULL contains nothing. */
bool attr_has_word(const char *list, const char *word);

/* What a required attribute reads as when it is missing (already reported);
 * compare by address: an attribute that is present but empty is "" too. */
extern const char missing_attr[];
static inline bool is_missing(const char *s) { return s == missing_attr; }

/* The parameter (or field) of ps named name, or NULL (also for a NULL name). */
const Param *param_named(Param *const *ps, size_t n, const char *name);

#endif
