/* The cross-references of the templates: jg:anchor, jg:capability-field,
 * jg:capability-users, jg:release-changes, jg:type-users, jg:type-page and
 * jg:type-pages,
 * answered from one index of the spec's tree built once per run, before
 * either stylesheet runs (and before the helper is forked). They answer as
 * the xsl:key declarations they replace did (their patterns are in the
 * comments below): libxslt indexed each key of each stylesheet with a walk
 * of the whole tree per alternative of its match, the first time key() was
 * called: 33M instructions on JDK 25 for six keys, where this walk is one. */
#include "docs/state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>

/* An element named NAME in no namespace, as a name test without a prefix
 * matches it. */
static bool is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !n->ns && strcmp((const char *)n->name, name) == 0;
}

static bool inside_elide(xmlNodePtr n)
{
    for (xmlNodePtr a = n->parent; a; a = a->parent)
        if (is(a, "elide"))
            return true;
    return false;
}

/* A string that lives as long as the index. */
static const char *keep(DocsIndex *x, const char *s, size_t n)
{
    return arena_strndup(x->strings, s, n);
}

/* Appends n to the list map holds under key. */
static void add(DocsIndex *x, StrMap *map, const char *key, xmlNodePtr n)
{
    Vec *v = strmap_get(map, key);
    if (!v) {
        v = xcalloc(1, sizeof *v);
        strmap_put(map, key, v);
        vec_push(&x->lists, v);
    }
    vec_push(v, n);
}

/* The value of n's id attribute, kept: "" without one (as XPath's string
 * of an empty @id). *has says whether it has one. */
static const char *kept_id(DocsIndex *x, xmlNodePtr n, bool *has)
{
    xmlChar *copy;
    const char *id = id_value(n, &copy);
    *has = id != NULL;
    if (!copy)
        return id ? id : ""; /* the tree's own text, which outlives the run */
    const char *k = keep(x, id, strlen(id));
    xmlFree(copy);
    return k;
}

/* The first n characters of s, as XPath's substring(s, 1, n) counts them. */
static size_t chars(const char *s, int n)
{
    int size = xmlUTF8Strsize(BAD_CAST s, n);
    return size > 0 ? (size_t)size : 0;
}

/* The release key of a <change>, as html.xsl's "release" key computed it:
 * concat(substring(M, 1, 99 * (number(M) >= 9)),
 *        substring(concat(M, '.', N), 1, 99 * not(number(M) >= 9)))
 * with M = substring-before(@version, '.') and N the part between the
 * first and the second dot: "11.0.0" is 11, "1.1.47" is 1.1, "v40" is ".". */
static const char *release_key(DocsIndex *x, xmlNodePtr change)
{
    xmlChar *version = xmlGetNoNsProp(change, BAD_CAST "version");
    const char *v = version ? (const char *)version : "";
    const char *dot = strchr(v, '.');
    Buf major, b;
    buf_init(&major);
    buf_init(&b);
    buf_put(&major, v, dot ? (size_t)(dot - v) : 0);
    buf_grow(&major, 0);
    if (xmlXPathStringEvalNumber(BAD_CAST major.data) >= 9) {
        buf_put(&b, major.data, chars(major.data, 99));
    } else {
        const char *rest = dot ? dot + 1 : "";
        const char *dot2 = strchr(rest, '.');
        buf_printf(&b, "%s.", major.data);
        buf_put(&b, rest, dot2 ? (size_t)(dot2 - rest) : 0);
        b.len = chars(b.data, 99);
    }
    const char *k = keep(x, b.data ? b.data : "", b.len);
    buf_free(&b);
    buf_free(&major);
    xmlFree(version);
    return k;
}

/* The elements the keys' patterns name: each walked element's code (E_OTHER
 * for the rest and for any in a namespace, which no name test matches). */
enum {
    E_OTHER,
    E_INTRO,
    E_CATEGORY,
    E_FUNCTION,
    E_CALLBACK,
    E_EVENT,
    E_EVENTSECTION,
    E_TYPEDEF,
    E_UNIONTYPEDEF,
    E_CAPABILITIESTYPEDEF,
    E_CONSTANTS,
    E_CONSTANT,
    E_ERRORCATEGORY,
    E_ERRORID,
    E_BASETYPES,
    E_BASETYPE,
    E_CHANGEHISTORY,
    E_CHANGE,
    E_CAPABILITIES,
    E_CAPABILITYFIELD,
    E_FUNCTIONSECTION,
    E_SPECIFICATION,
    E_STRUCT,
    E_ENUM,
    E_ELIDE,
    E_DOCUMENT
};
static const char *const element_names[] = {
    [E_INTRO] = "intro",
    [E_CATEGORY] = "category",
    [E_FUNCTION] = "function",
    [E_CALLBACK] = "callback",
    [E_EVENT] = "event",
    [E_EVENTSECTION] = "eventsection",
    [E_TYPEDEF] = "typedef",
    [E_UNIONTYPEDEF] = "uniontypedef",
    [E_CAPABILITIESTYPEDEF] = "capabilitiestypedef",
    [E_CONSTANTS] = "constants",
    [E_CONSTANT] = "constant",
    [E_ERRORCATEGORY] = "errorcategory",
    [E_ERRORID] = "errorid",
    [E_BASETYPES] = "basetypes",
    [E_BASETYPE] = "basetype",
    [E_CHANGEHISTORY] = "changehistory",
    [E_CHANGE] = "change",
    [E_CAPABILITIES] = "capabilities",
    [E_CAPABILITYFIELD] = "capabilityfield",
    [E_FUNCTIONSECTION] = "functionsection",
    [E_SPECIFICATION] = "specification",
    [E_STRUCT] = "struct",
    [E_ENUM] = "enum",
    [E_ELIDE] = "elide",
};

/* Where the walk is: the codes of the element's ancestors, the document
 * first (up[0]), and for each whether it is inside an elide. */
typedef struct Walk {
    DocsIndex *x;
    StrMap codes; /* name -> code, as a pointer */
    unsigned char *up;
    size_t depth, cap;
    bool *elided;
} Walk;

static int code_of(const Walk *w, xmlNodePtr n)
{
    if (n->ns)
        return E_OTHER;
    return (int)(intptr_t)strmap_get(&w->codes, (const char *)n->name);
}

/* The code of the ancestor `back` levels up (1: the parent). */
static int up(const Walk *w, size_t back)
{
    return back <= w->depth ? w->up[w->depth - back] : E_OTHER;
}

/* One element of the tree into the index; its own code is c. */
static void index_element(Walk *w, xmlNodePtr n, int c)
{
    DocsIndex *x = w->x;
    bool elided = w->elided[w->depth - 1] || up(w, 1) == E_ELIDE;
    bool has_id;
    const char *id = kept_id(x, n, &has_id);
    int p = up(w, 1);

    /* anchor: intro|category|category/function|category/callback|
     * eventsection/event|typedef|uniontypedef|capabilitiestypedef|constants|
     * constant|errorcategory|errorid|basetypes|basetype|changehistory,
     * by @id. */
    bool anchor;
    switch (c) {
    case E_INTRO:
    case E_CATEGORY:
    case E_TYPEDEF:
    case E_UNIONTYPEDEF:
    case E_CAPABILITIESTYPEDEF:
    case E_CONSTANTS:
    case E_CONSTANT:
    case E_ERRORCATEGORY:
    case E_ERRORID:
    case E_BASETYPES:
    case E_BASETYPE:
    case E_CHANGEHISTORY: anchor = true; break;
    case E_FUNCTION:
    case E_CALLBACK: anchor = p == E_CATEGORY; break;
    case E_EVENT: anchor = p == E_EVENTSECTION; break;
    default: anchor = false;
    }
    if (anchor && has_id)
        add(x, &x->anchors, id, n);

    /* capability: any child of category/function/capabilities or of
     * eventsection/event/capabilities, and
     * /specification/functionsection/category/capabilitiestypedef/capabilityfield,
     * by concat(local-name(), ' ', @id). */
    if ((p == E_CAPABILITIES && ((up(w, 2) == E_FUNCTION && up(w, 3) == E_CATEGORY) ||
                                 (up(w, 2) == E_EVENT && up(w, 3) == E_EVENTSECTION))) ||
        (c == E_CAPABILITYFIELD && w->depth == 5 && p == E_CAPABILITIESTYPEDEF &&
         up(w, 2) == E_CATEGORY && up(w, 3) == E_FUNCTIONSECTION && up(w, 4) == E_SPECIFICATION)) {
        Buf b;
        buf_init(&b);
        buf_printf(&b, "%s %s", (const char *)n->name, id);
        add(x, &x->capabilities, keep(x, b.data, b.len), n);
        buf_free(&b);
    }

    /* release: changehistory/change, by the release it belongs to. */
    if (c == E_CHANGE && p == E_CHANGEHISTORY)
        add(x, &x->releases, release_key(x, n), n);

    /* type-users: struct|enum, by their text. */
    if (c == E_STRUCT || c == E_ENUM) {
        xmlChar *text = xmlXPathCastNodeToString(n);
        const char *t = text ? (const char *)text : "";
        add(x, &x->type_names, keep(x, t, strlen(t)), n);
        xmlFree(text);
    }

    /* type-page: typedef|uniontypedef|category/callback|constants, by
     * @id[not(ancestor::elide) or parent::callback]; all of them, with an
     * id or not: /descendant::typedef[not(ancestor::elide)]|
     * /descendant::uniontypedef[not(ancestor::elide)]|
     * /descendant::category/callback|/descendant::constants[not(ancestor::elide)]. */
    bool page = c == E_CALLBACK
                    ? p == E_CATEGORY
                    : (c == E_TYPEDEF || c == E_UNIONTYPEDEF || c == E_CONSTANTS) && !elided;
    if (page)
        vec_push(&x->all_type_pages, n);
    if (page && has_id)
        add(x, &x->type_pages, id, n);
}

/* Goes down into an element of code c. */
static void push(Walk *w, int c)
{
    if (w->depth + 1 >= w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->up = xrealloc(w->up, w->cap);
        w->elided = xrealloc(w->elided, w->cap * sizeof *w->elided);
    }
    bool elided = w->depth > 0 && (w->elided[w->depth - 1] || w->up[w->depth - 1] == E_ELIDE);
    w->up[w->depth] = (unsigned char)c;
    w->elided[w->depth] = elided;
    w->depth++;
}

void crossref_build(DocsIndex *x, xmlDocPtr doc)
{
    memset(x, 0, sizeof *x);
    x->strings = arena_new();
    strmap_init(&x->anchors);
    strmap_init(&x->capabilities);
    strmap_init(&x->releases);
    strmap_init(&x->type_names);
    strmap_init(&x->type_pages);
    Walk w = {.x = x};
    strmap_init(&w.codes);
    for (int c = E_OTHER + 1; c < E_DOCUMENT; c++)
        strmap_put(&w.codes, element_names[c], (void *)(intptr_t)c);
    push(&w, E_DOCUMENT);
    /* Every element in document order (each list is then in document
     * order), the codes of its ancestors on w's stack. */
    xmlNodePtr top = (xmlNodePtr)doc, n = doc ? doc->children : NULL;
    while (n) {
        if (n->type == XML_ELEMENT_NODE) {
            int c = code_of(&w, n);
            index_element(&w, n, c);
            if (n->children) {
                push(&w, c);
                n = n->children;
                continue;
            }
        }
        while (n && n != top && !n->next) {
            n = n->parent;
            if (n != top)
                w.depth--;
        }
        n = n && n != top ? n->next : NULL;
    }
    strmap_free(&w.codes);
    free(w.up);
    free(w.elided);
}

void crossref_free(DocsIndex *x)
{
    for (size_t i = 0; i < x->lists.n; i++) {
        vec_free(x->lists.items[i]);
        free(x->lists.items[i]);
    }
    vec_free(&x->lists);
    vec_free(&x->all_type_pages);
    strmap_free(&x->anchors);
    strmap_free(&x->capabilities);
    strmap_free(&x->releases);
    strmap_free(&x->type_names);
    strmap_free(&x->type_pages);
    if (x->strings)
        arena_free(x->strings);
    memset(x, 0, sizeof *x);
}

static const DocsIndex *index_of(xmlXPathParserContextPtr pc)
{
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    const DocsState *st = t ? t->_private : NULL;
    return st && st->index.strings ? &st->index : NULL;
}

/* Adds to out the nodes map holds under key: each list holds a node once,
 * so the first list needs no test for a node already there (a release's
 * hundred changes tested one by one cost more than the rest). */
static void add_found(xmlNodeSetPtr out, const StrMap *map, const char *key)
{
    const Vec *v = strmap_get(map, key);
    bool first = out->nodeNr == 0;
    for (size_t i = 0; v && i < v->n; i++) {
        if (first)
            xmlXPathNodeSetAddUnique(out, v->items[i]);
        else
            xmlXPathNodeSetAdd(out, v->items[i]);
    }
}

/* The frame of a lookup of one argument, as key() takes it: a node-set
 * looks up each node's string value, anything else its string; the nodes
 * found, in document order, each once. found adds what key finds. */
static void lookup(xmlXPathParserContextPtr pc, int nargs,
                   void (*found)(xmlNodeSetPtr out, const DocsIndex *x, const char *key))
{
    if (nargs != 1) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlXPathObjectPtr arg = valuePop(pc);
    if (!arg) {
        xmlXPathSetError(pc, XPATH_INVALID_OPERAND);
        return;
    }
    const DocsIndex *x = index_of(pc);
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    if (arg->type == XPATH_NODESET || arg->type == XPATH_XSLT_TREE) {
        xmlNodeSetPtr set = arg->nodesetval;
        for (int i = 0; x && set && i < set->nodeNr; i++) {
            xmlChar *s = xmlXPathCastNodeToString(set->nodeTab[i]);
            found(out, x, s ? (const char *)s : "");
            xmlFree(s);
        }
    } else if (x) {
        xmlChar *s = xmlXPathCastToString(arg);
        found(out, x, s ? (const char *)s : "");
        xmlFree(s);
    }
    if (out->nodeNr > 1)
        xmlXPathNodeSetSort(out);
    xmlXPathFreeObject(arg);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

static void found_anchor(xmlNodeSetPtr out, const DocsIndex *x, const char *id)
{
    add_found(out, &x->anchors, id);
}

static void found_release(xmlNodeSetPtr out, const DocsIndex *x, const char *release)
{
    add_found(out, &x->releases, release);
}

static void found_type_page(xmlNodeSetPtr out, const DocsIndex *x, const char *id)
{
    add_found(out, &x->type_pages, id);
}

/* The param and field elements, outside <elide>, around a struct or enum
 * element that names the type: key('type-users', NAME)/ancestor::*[self::param
 * or self::field][not(ancestor::elide)]. */
static void found_type_users(xmlNodeSetPtr out, const DocsIndex *x, const char *name)
{
    const Vec *v = strmap_get(&x->type_names, name);
    for (size_t i = 0; v && i < v->n; i++)
        for (xmlNodePtr a = ((xmlNodePtr)v->items[i])->parent; a; a = a->parent)
            if ((is(a, "param") || is(a, "field")) && !inside_elide(a))
                xmlXPathNodeSetAdd(out, a);
}

/* jg:anchor(ID): the elements that define anchor ID on the page (an intro,
 * a category, a category's function or callback, an event of the event
 * section, a typedef, uniontypedef, capabilitiestypedef, constants,
 * constant, errorcategory, errorid, basetypes, basetype or changehistory
 * with that id), in document order. */
static void fn_anchor(xmlXPathParserContextPtr pc, int nargs) { lookup(pc, nargs, found_anchor); }

/* jg:release-changes(RELEASE): the change history's changes of a release as
 * since attributes name it ("11", "1.1"). */
static void fn_release_changes(xmlXPathParserContextPtr pc, int nargs)
{
    lookup(pc, nargs, found_release);
}

/* jg:type-page(NAMES): the elements that have a man page of their own
 * (typedef, uniontypedef, constants outside elide; a category's callback)
 * with one of these ids. */
static void fn_type_page(xmlXPathParserContextPtr pc, int nargs)
{
    lookup(pc, nargs, found_type_page);
}

/* jg:type-pages(): every element with a man page of its own, in document
 * order: the man pages' $type-pages, whose four walks of the whole tree
 * in XPath were 5M of the man pages' 139M instructions on JDK 25. */
static void fn_type_pages(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs != 0) {
        xmlXPathSetArityError(pc);
        return;
    }
    const DocsIndex *x = index_of(pc);
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    for (size_t i = 0; x && i < x->all_type_pages.n; i++)
        xmlXPathNodeSetAddUnique(out, x->all_type_pages.items[i]);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

/* jg:type-users(NAME): the params and fields (outside elide) whose type
 * names NAME (a struct or enum element inside them says it). */
static void fn_type_users(xmlXPathParserContextPtr pc, int nargs)
{
    lookup(pc, nargs, found_type_users);
}

/* The nodes the capability key held under "KIND ID". */
static const Vec *capability_entries(xmlXPathParserContextPtr pc, const xmlChar *kind,
                                     const xmlChar *id)
{
    const DocsIndex *x = index_of(pc);
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s %s", kind ? (const char *)kind : "", id ? (const char *)id : "");
    const Vec *v = x ? strmap_get(&x->capabilities, b.data) : NULL;
    buf_free(&b);
    return v;
}

/* jg:capability-field(ID): the capabilities structure's field ID
 * (/specification/functionsection/category/capabilitiestypedef/
 * capabilityfield). */
static void fn_capability_field(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *id = one_arg(pc, nargs);
    if (!id)
        return;
    const Vec *v = capability_entries(pc, BAD_CAST "capabilityfield", id);
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    for (size_t i = 0; v && i < v->n; i++)
        xmlXPathNodeSetAddUnique(out, v->items[i]);
    xmlFree(id);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

/* jg:capability-users(KIND, ID): the functions (of a category) and the
 * events (of the event section) whose capabilities element has a KIND
 * child ("required", "capability") with that id, in document order. */
static void fn_capability_users(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs != 2) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlChar *id = xmlXPathPopString(pc);
    xmlChar *kind = xmlXPathPopString(pc);
    const Vec *v = capability_entries(pc, kind, id);
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    for (size_t i = 0; v && i < v->n; i++) {
        xmlNodePtr n = v->items[i];
        xmlXPathNodeSetAdd(out, n->parent->parent); /* a capabilities' function or event */
    }
    if (out->nodeNr > 1)
        xmlXPathNodeSetSort(out);
    xmlFree(id);
    xmlFree(kind);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

void register_crossref_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "anchor", BAD_CAST DOCS_NS, fn_anchor);
    xsltRegisterExtFunction(t, BAD_CAST "release-changes", BAD_CAST DOCS_NS, fn_release_changes);
    xsltRegisterExtFunction(t, BAD_CAST "type-page", BAD_CAST DOCS_NS, fn_type_page);
    xsltRegisterExtFunction(t, BAD_CAST "type-pages", BAD_CAST DOCS_NS, fn_type_pages);
    xsltRegisterExtFunction(t, BAD_CAST "type-users", BAD_CAST DOCS_NS, fn_type_users);
    xsltRegisterExtFunction(t, BAD_CAST "capability-field", BAD_CAST DOCS_NS, fn_capability_field);
    xsltRegisterExtFunction(t, BAD_CAST "capability-users", BAD_CAST DOCS_NS, fn_capability_users);
}
