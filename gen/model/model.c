#include "model/model.h"

#include <stdlib.h>
#include <string.h>

const TypeKindInfo type_kinds[TK_COUNT] = {
    [TK_JMETHODID] = {"jmethodID", "jmethodID", false, NULL, 0, "value"},
    [TK_JFIELDID] = {"jfieldID", "jfieldID", false, NULL, 0, "value"},
    [TK_JFRAMEID] = {"jframeID", "jint", false, NULL, 0, "value"}, /* a frame is named by depth */
    [TK_JRAWMONITORID] = {"jrawMonitorID", "jrawMonitorID", false, NULL, 0, "value"},
    [TK_JCLASS] = {"jclass", "jclass", false, NULL, 0, "value"},
    [TK_JTHREAD] = {"jthread", "jthread", false, NULL, 0, "value"},
    [TK_JTHREADGROUP] = {"jthreadGroup", "jthreadGroup", false, NULL, 0, "value"},
    [TK_JOBJECT] = {"jobject", "jobject", false, NULL, 0, "value"},
    [TK_JVALUE] = {"jvalue", "jvalue", false, NULL, 0, "value"},
    [TK_JCHAR] = {"jchar", "jchar", false, NULL, 0, "value"},
    [TK_JINT] = {"jint", "jint", false, NULL, 0, "value"},
    [TK_JLONG] = {"jlong", "jlong", false, NULL, 0, "value"},
    [TK_JFLOAT] = {"jfloat", "jfloat", false, NULL, 0, "value"},
    [TK_JDOUBLE] = {"jdouble", "jdouble", false, NULL, 0, "value"},
    [TK_JLOCATION] = {"jlocation", "jlocation", false, NULL, 0, "value"},
    [TK_JBOOLEAN] = {"jboolean", "jboolean", false, NULL, 0, "value"},
    [TK_CHAR] = {"char", "char", false, NULL, 0, "value"},
    [TK_UCHAR] = {"uchar", "unsigned char", false, NULL, 0, "value"},
    [TK_SIZE_T] = {"size_t", "size_t", false, NULL, 0, "value"},
    [TK_VOID] = {"void", "void", false, NULL, 0, "value"},
    [TK_VARARGS] = {"varargs", "", false, NULL, 0, "value"},
    [TK_ENUM] = {"enum", NULL, false, NULL, 0, "value"},
    [TK_STRUCT] = {"struct", NULL, false, NULL, 0, "value"},
    [TK_PTRTYPE] = {"ptrtype", NULL, true, "", 0, "value"},
    [TK_OUTPTR] = {"outptr", NULL, true, "", 1, "caller-storage"},
    [TK_OUTBUF] = {"outbuf", NULL, true, "", 1, "caller-storage"},
    [TK_ALLOCFIELDBUF] = {"allocfieldbuf", NULL, true, "", 1, "callee-allocated"},
    [TK_INPTR] = {"inptr", NULL, true, "const ", 1, "caller-in"},
    [TK_INBUF] = {"inbuf", NULL, true, "const ", 1, "caller-in"},
    [TK_VMBUF] = {"vmbuf", NULL, true, "const ", 1, "vm-owned"},
    [TK_ALLOCBUF] = {"allocbuf", NULL, true, "", 2, "callee-allocated"},
    [TK_AGENTBUF] = {"agentbuf", NULL, true, "", 2, "agent-owned"},
    [TK_ALLOCALLOCBUF] = {"allocallocbuf", NULL, true, "", 3, "callee-allocated-nested"},
};

TypeKind type_kind_from_xml(const char *name)
{
    for (int k = 0; k < TK_COUNT; k++) /* first letters first: asked of every child */
        if (type_kinds[k].xml[0] == name[0] && strcmp(type_kinds[k].xml, name) == 0)
            return (TypeKind)k;
    return TK_COUNT;
}

const char *const link_kind_names[LINK_COUNT] = {
    "functionlink", "eventlink", "typelink",     "datalink",     "fieldlink",
    "paramlink",    "errorlink", "internallink", "externallink",
};

const char *phase_name(Phase p)
{
    switch (p) {
    case PHASE_ONLOAD: return "onload";
    case PHASE_ONLOAD_ONLY: return "onloadOnly";
    case PHASE_START: return "start";
    case PHASE_LIVE: return "live";
    case PHASE_ANY: return "any";
    case PHASE_DEFAULT: break;
    }
    return "";
}

const char missing_attr[] = "";

void spec_free(Spec *spec)
{
    if (spec)
        arena_free(spec->arena); /* the Spec itself lives in its arena */
}

bool attr_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

int error_num_cmp(const void *a, const void *b)
{
    const ErrorDef *x = *(ErrorDef *const *)a, *y = *(ErrorDef *const *)b;
    return (x->num > y->num) - (x->num < y->num);
}

int event_num_cmp(const void *a, const void *b)
{
    const Event *x = *(Event *const *)a, *y = *(Event *const *)b;
    return (x->num > y->num) - (x->num < y->num);
}

const Param *param_named(Param *const *ps, size_t n, const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(ps[i]->name, name) == 0)
            return ps[i];
    return NULL;
}
