/* The page's own functions and elements (namespace DOCS_NS;
 * templates/README.md): the search list's entries, each with the facts its
 * line shows, read from the spec's tree in one walk (jg:search-index), and
 * the same lines in the page's markup (<jg:search-list/>); an error
 * sentence's parts (jg:says-parts) and a function's parameter error rows
 * in the page's markup (<jg:param-error-rows/>); a change's release
 * (jg:release). The two elements write markup, which is otherwise the
 * templates' alone, for their cost: each comment says it. */
#include "docs/state.h"

#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>

#include "model/errors.h"
#include "model/facts.h"

/* Whether n is the element NAME (no namespace, as XPath's name tests). */
static bool is_el(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !n->ns && strcmp((const char *)n->name, name) == 0;
}

/* The first child element NAME of n, or NULL. */
static xmlNodePtr child_el(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (is_el(c, name))
            return c;
    return NULL;
}

/* The string value of n's attribute NAME (no namespace), as XPath's @NAME
 * reads it (no DTD default the tree lacks); NULL without one. xmlFree it. */
static xmlChar *prop(xmlNodePtr n, const char *name)
{
    for (xmlAttrPtr a = n && n->type == XML_ELEMENT_NODE ? n->properties : NULL; a; a = a->next)
        if (!a->ns && strcmp((const char *)a->name, name) == 0) {
            xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
            return v ? v : xmlStrdup(BAD_CAST "");
        }
    return NULL;
}

/* s as XPath's normalize-space() makes it, into b (emptied first). */
static void normalized(Buf *b, const char *s)
{
    buf_reset(b);
    put_normalized(b, s);
}

typedef struct Index {
    xmlDocPtr frag;
    xmlNodeSetPtr set;
    xmlNodePtr out; /* where jg:search-list puts the entries' markup, or NULL */
    Buf text;       /* scratch */
} Index;

/* A new element NAME at the end of parent, with attribute ATTR = VALUE
 * (none for NULL). */
static xmlNodePtr put_el(xmlNodePtr parent, const char *name, const char *attr,
                         const xmlChar *value)
{
    xmlNodePtr e = xmlNewDocNode(parent->doc, NULL, BAD_CAST name, NULL);
    xmlAddChild(parent, e);
    if (attr)
        xmlNewProp(e, BAD_CAST attr, value);
    return e;
}

static void put_text(xmlNodePtr parent, const char *text)
{
    xmlAddChild(parent, xmlNewDocText(parent->doc, BAD_CAST text));
}

/* One entry's line of the search list, as html.xsl's search-items
 * template would write it from jg:search-index's <entry>. */
static void put_entry(Index *ix, const char *kind, const xmlChar *href, const xmlChar *name,
                      const xmlChar *title, const xmlChar *since, const xmlChar *alias,
                      const char *summary)
{
    xmlNodePtr li = put_el(ix->out, "li", "data-kind", BAD_CAST kind);
    bool show_since = since && strcmp((const char *)since, "1.0") != 0;
    if (show_since)
        xmlNewProp(li, BAD_CAST "data-since", since);
    Buf h;
    buf_init(&h);
    buf_printf(&h, "#%s", href ? (const char *)href : "");
    xmlNodePtr a = put_el(li, "a", "href", BAD_CAST h.data);
    buf_free(&h);
    put_text(put_el(a, "code", NULL, NULL), name ? (const char *)name : "");
    put_text(a, " ");
    put_text(put_el(a, "span", "class", BAD_CAST "kind"), kind);
    normalized(&ix->text, (const char *)title);
    if (ix->text.len) {
        put_text(a, " ");
        put_text(put_el(a, "span", "class", BAD_CAST "title"), ix->text.data);
    }
    if (show_since) {
        put_text(a, " ");
        xmlNodePtr sp = put_el(a, "span", "class", BAD_CAST "since");
        put_text(sp, "since ");
        xmlNodeAddContent(sp, since);
    }
    normalized(&ix->text, summary);
    bool has_alias = alias && *alias;
    if (has_alias || ix->text.len) {
        put_text(a, " ");
        xmlNodePtr sum = put_el(a, "span", "class", BAD_CAST "sum");
        if (has_alias) {
            xmlNodeAddContent(put_el(sum, "code", NULL, NULL), alias);
            if (ix->text.len)
                put_text(sum, " · ");
        }
        if (ix->text.len)
            put_text(sum, ix->text.data);
    }
}

/* One entry: <entry kind="" href="" name="" [title=""] [data-since=""]
 * [alias=""] [summary=""]/>, title and summary normalized and left out
 * when empty, alias left out when empty, data-since where since is given
 * and is not 1.0. */
static void add_entry(Index *ix, const char *kind, const xmlChar *href, const xmlChar *name,
                      const xmlChar *title, const xmlChar *since, const xmlChar *alias,
                      const char *summary)
{
    if (ix->out) {
        put_entry(ix, kind, href, name, title, since, alias, summary);
        return;
    }
    xmlNodePtr e = add_element(ix->frag, ix->set, "entry");
    xmlSetProp(e, BAD_CAST "kind", BAD_CAST kind);
    xmlSetProp(e, BAD_CAST "href", href ? href : BAD_CAST "");
    xmlSetProp(e, BAD_CAST "name", name ? name : BAD_CAST "");
    normalized(&ix->text, (const char *)title);
    if (ix->text.len)
        xmlSetProp(e, BAD_CAST "title", BAD_CAST ix->text.data);
    if (since && strcmp((const char *)since, "1.0") != 0)
        xmlSetProp(e, BAD_CAST "data-since", since);
    if (alias && *alias)
        xmlSetProp(e, BAD_CAST "alias", alias);
    normalized(&ix->text, summary);
    if (ix->text.len)
        xmlSetProp(e, BAD_CAST "summary", BAD_CAST ix->text.data);
}

/* An item whose href and name are its id, with the summary of its
 * description child (summary_of NULL) or of summary_of itself. */
static void add_item(Index *ix, xmlNodePtr n, const char *kind, const xmlChar *title,
                     const xmlChar *alias, xmlNodePtr summary_of, bool summarize)
{
    xmlChar *id = prop(n, "id"), *since = prop(n, "since");
    Buf sum;
    buf_init(&sum);
    if (summarize)
        summary_text(&sum, summary_of ? summary_of : child_el(n, "description"));
    add_entry(ix, kind, id, id, title, since, alias, sum.data);
    buf_free(&sum);
    xmlFree(id);
    xmlFree(since);
}

/* A function's or callback's title: its synopsis, else its id
 * (common.xsl's synopsis-text). */
static void add_with_synopsis(Index *ix, xmlNodePtr n, const char *kind)
{
    xmlNodePtr syn = child_el(n, "synopsis");
    xmlChar *text = syn ? xmlNodeGetContent(syn) : NULL;
    normalized(&ix->text, (const char *)text);
    if (!ix->text.len) {
        xmlFree(text);
        text = prop(n, "id");
    }
    add_item(ix, n, kind, text, NULL, NULL, true);
    xmlFree(text);
}

/* An item with its own attribute ATTR (or its parent's) as title. */
static void add_titled(Index *ix, xmlNodePtr n, const char *kind, xmlNodePtr title_of,
                       const char *attr, xmlNodePtr summary_of, bool summarize)
{
    xmlChar *title = prop(title_of, attr);
    add_item(ix, n, kind, title, NULL, summary_of, summarize);
    xmlFree(title);
}

/* The agent's entry points and JNI's GetEnv, which the spec describes in
 * the introductions with these ids. */
static const struct {
    const char *name, *at, *kind;
} entry_points[] = {
    {"Agent_OnLoad", "onload", "entry point"},
    {"Agent_OnLoad_L", "entryPoint", "entry point"},
    {"Agent_OnAttach", "onattach", "entry point"},
    {"Agent_OnAttach_L", "entryPoint", "entry point"},
    {"Agent_OnUnload", "onunload", "entry point"},
    {"Agent_OnUnload_L", "entryPoint", "entry point"},
    {"GetEnv", "environments", "JNI function"},
};

/* Every <intro> below n with an id, in document order (html.xsl's anchor
 * key matches every intro). */
static void intros(xmlNodePtr n, Vec *out)
{
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) {
            if (is_el(c, "intro"))
                vec_push(out, c);
            intros(c, out);
        }
}

/* The <constants> below n, in document order; those inside an <elide>
 * too unless skip_elided. */
static void constants_below(xmlNodePtr n, bool skip_elided, Vec *out)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || (skip_elided && is_el(c, "elide")))
            continue;
        if (is_el(c, "constants"))
            vec_push(out, c);
        constants_below(c, skip_elided, out);
    }
}

/* The groups of constants, in document order: those in the function
 * section outside <elide> and those anywhere in an event (html.xsl's
 * $constant-groups and eventsection/event//constants). */
static void constant_groups(xmlNodePtr spec, Vec *out)
{
    for (xmlNodePtr s = spec->children; s; s = s->next)
        if (is_el(s, "functionsection"))
            constants_below(s, true, out);
        else if (is_el(s, "eventsection"))
            for (xmlNodePtr e = s->children; e; e = e->next)
                if (is_el(e, "event"))
                    constants_below(e, false, out);
}

/* The elements spec/A/B/C, in document order. */
static void path3(xmlNodePtr spec, const char *a, const char *b, const char *c, Vec *out)
{
    for (xmlNodePtr x = spec->children; x; x = x->next)
        if (is_el(x, a))
            for (xmlNodePtr y = x->children; y; y = y->next)
                if (is_el(y, b))
                    for (xmlNodePtr z = y->children; z; z = z->next)
                        if (is_el(z, c))
                            vec_push(out, z);
}

/* Whether n is one of the structure types: a category's typedef,
 * uniontypedef or capabilitiestypedef, a function's typedef or
 * uniontypedef, an event's typedef. */
static bool struct_type(xmlNodePtr n)
{
    xmlNodePtr p = n->parent, s = p ? p->parent : NULL;
    if (is_el(p, "category"))
        return is_el(n, "typedef") || is_el(n, "uniontypedef") || is_el(n, "capabilitiestypedef");
    if (is_el(p, "function"))
        return is_el(s, "category") && (is_el(n, "typedef") || is_el(n, "uniontypedef"));
    return is_el(p, "event") && is_el(s, "eventsection") && is_el(n, "typedef");
}

/* The structure types, in document order. */
static void struct_types(xmlNodePtr spec, Vec *out)
{
    for (xmlNodePtr s = spec->children; s; s = s->next)
        for (xmlNodePtr c = is_el(s, "functionsection") || is_el(s, "eventsection") ? s->children
                                                                                    : NULL;
             c; c = c->next)
            for (xmlNodePtr t = is_el(c, is_el(s, "functionsection") ? "category" : "event")
                                    ? c->children
                                    : NULL;
                 t; t = t->next) {
                if (struct_type(t))
                    vec_push(out, t);
                else if (is_el(t, "function"))
                    for (xmlNodePtr u = t->children; u; u = u->next)
                        if (struct_type(u))
                            vec_push(out, u);
            }
}

/* A structure type's fields, each named Type.field. */
static void add_fields(Index *ix, xmlNodePtr t)
{
    const char *kind = is_el(t, "capabilitiestypedef") ? "capability" : "field";
    xmlChar *owner = prop(t, "id");
    for (xmlNodePtr f = t->children; f; f = f->next) {
        if (!is_el(f, "field") && !is_el(f, "capabilityfield"))
            continue;
        xmlChar *id = prop(f, "id"), *since = prop(f, "since");
        Buf name, sum;
        buf_init(&name);
        buf_init(&sum);
        buf_printf(&name, "%s.%s", owner ? (const char *)owner : "", id ? (const char *)id : "");
        summary_text(&sum, child_el(f, "description"));
        add_entry(ix, kind, BAD_CAST name.data, BAD_CAST name.data, NULL, since, NULL, sum.data);
        buf_free(&name);
        buf_free(&sum);
        xmlFree(id);
        xmlFree(since);
    }
    xmlFree(owner);
}

/* A base type: its anchor (its name, else its id) the href. */
static void add_basetype(Index *ix, xmlNodePtr b)
{
    xmlChar *anchor = prop(b, "name");
    if (!anchor)
        anchor = prop(b, "id");
    xmlChar *id = prop(b, "id"), *title = prop(b->parent, "label"), *since = prop(b, "since");
    Buf sum;
    buf_init(&sum);
    summary_text(&sum, child_el(b, "description"));
    add_entry(ix, "type", anchor, id, title, since, NULL, sum.data);
    buf_free(&sum);
    xmlFree(anchor);
    xmlFree(id);
    xmlFree(title);
    xmlFree(since);
}

/* The entry points whose introduction the spec has. */
static void add_entry_points(Index *ix, xmlNodePtr spec)
{
    Vec in = {0};
    intros(spec->doc ? (xmlNodePtr)spec->doc : spec, &in);
    for (size_t i = 0; i < sizeof entry_points / sizeof *entry_points; i++)
        for (size_t j = 0; j < in.n; j++) {
            xmlNodePtr n = in.items[j];
            xmlChar *id = prop(n, "id");
            if (id && strcmp((const char *)id, entry_points[i].at) == 0) {
                xmlChar *title = prop(n, "label"), *since = prop(n, "since");
                add_entry(ix, entry_points[i].kind, id, BAD_CAST entry_points[i].name, title, since,
                          NULL, NULL);
                xmlFree(title);
                xmlFree(since);
            }
            xmlFree(id);
        }
    vec_free(&in);
}

/* The search list's entries of spec, in the page's order, into ix. */
static void search_walk(Index *ix, xmlNodePtr spec, const DocsState *st)
{
    Vec v = {0};
    path3(spec, "functionsection", "category", "function", &v);
    for (size_t i = 0; i < v.n; i++)
        add_with_synopsis(ix, v.items[i], "function");
    v.n = 0;
    for (xmlNodePtr s = spec->children; s; s = s->next)
        for (xmlNodePtr e = is_el(s, "eventsection") ? s->children : NULL; e; e = e->next)
            if (is_el(e, "event")) {
                xmlChar *title = prop(e, "label"), *alias = prop(e, "const");
                add_item(ix, e, "event", title, alias, NULL, true);
                xmlFree(title);
                xmlFree(alias);
            }
    add_entry_points(ix, spec);
    for (int i = 0; i <= n_named_versions; i++) {
        const char *name;
        char value[16], since[24];
        if (version_row(&st->ctx->version, i, &name, value, since))
            add_entry(ix, "constant", BAD_CAST name, BAD_CAST name, BAD_CAST "JVM TI version",
                      *since ? BAD_CAST since : NULL, NULL, value);
    }
    Vec groups = {0};
    constant_groups(spec, &groups);
    for (size_t i = 0; i < groups.n; i++)
        for (xmlNodePtr c = ((xmlNodePtr)groups.items[i])->children; c; c = c->next)
            if (is_el(c, "constant"))
                add_titled(ix, c, "constant", c->parent, "label", c, true);
    path3(spec, "errorsection", "errorcategory", "errorid", &v);
    for (size_t i = 0; i < v.n; i++)
        add_titled(ix, v.items[i], "error", v.items[i], "num", v.items[i], true);
    v.n = 0;
    for (size_t i = 0; i < groups.n; i++)
        add_titled(ix, groups.items[i], "constants", groups.items[i], "label", NULL, false);
    vec_free(&groups);
    struct_types(spec, &v);
    for (size_t i = 0; i < v.n; i++) {
        add_titled(ix, v.items[i], "type", v.items[i], "label", NULL, true);
        add_fields(ix, v.items[i]);
    }
    v.n = 0;
    path3(spec, "functionsection", "category", "callback", &v);
    for (size_t i = 0; i < v.n; i++)
        add_with_synopsis(ix, v.items[i], "callback");
    v.n = 0;
    path3(spec, "datasection", "basetypes", "basetype", &v);
    for (size_t i = 0; i < v.n; i++)
        add_basetype(ix, v.items[i]);
    vec_free(&v);
}

/* jg:search-index(SPEC): the search list's entries for the specification
 * element SPEC, in the page's order: functions, events, the agent's entry
 * points and GetEnv, the version constants (jg:versions), constants,
 * errors, groups of constants, structure types each followed by its fields,
 * callbacks, base types. Each an <entry/> as add_entry says; empty for
 * anything but one specification element. */
static void fn_search_index(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    DocsState *st = state_of(pc);
    xmlNodePtr spec = arg && arg->nodeNr == 1 ? arg->nodeTab[0] : NULL;
    Index ix = {.set = xmlXPathNodeSetCreate(NULL)};
    buf_init(&ix.text);
    ix.frag = st && is_el(spec, "specification") ? new_fragment(pc) : NULL;
    if (ix.frag)
        search_walk(&ix, spec, st);
    buf_free(&ix.text);
    xmlXPathFreeNodeSet(arg);
    valuePush(pc, xmlXPathWrapNodeSet(ix.set));
}

/* The values of an error sentence's placeholders (NULL: none). */
typedef struct SaysValues {
    const char *param, *type, *klass, *min;
} SaysValues;

/* Where says_parts hands each part: text (x 0), or placeholder x ('p',
 * 't', 'c') with its value. */
typedef void (*SaysPart)(void *arg, char x, const char *text, size_t len);

/* The parts of an error's sentence (errors.c's says=): its text, %p, %t,
 * %c where there is a class (else nothing), %m's value as text; any other
 * %X (X one character) and a % at the end as nothing. */
static void says_parts(const char *says, const SaysValues *v, SaysPart part, void *arg)
{
    for (const char *t = says; t && *t;) {
        const char *pct = strchr(t, '%');
        size_t len = pct ? (size_t)(pct - t) : strlen(t);
        if (len > 0)
            part(arg, 0, t, len);
        if (!pct)
            break;
        t = pct + 1;
        int n = *t ? xmlUTF8Strsize(BAD_CAST t, 1) : 0; /* X: one character */
        const char *value = n != 1      ? NULL
                            : *t == 'p' ? (v->param ? v->param : "")
                            : *t == 't' ? (v->type ? v->type : "")
                            : *t == 'c' ? v->klass
                            : *t == 'm' ? v->min
                                        : NULL;
        if (value && *t == 'm' && *value)
            part(arg, 0, value, strlen(value));
        else if (value && *t != 'm')
            part(arg, *t, value, strlen(value));
        t += n;
    }
}

typedef struct PartsOut {
    xmlDocPtr frag;
    xmlNodeSetPtr set;
} PartsOut;

static void part_element(void *arg, char x, const char *text, size_t len)
{
    static const char *const attrs[] = {['p'] = "param", ['t'] = "type", ['c'] = "class"};
    PartsOut *o = arg;
    char name[2] = {x ? x : 's', 0};
    xmlNodePtr e = add_element(o->frag, o->set, name);
    if (!x) {
        xmlNodeAddContentLen(e, BAD_CAST text, (int)len);
    } else {
        xmlChar *v = xmlStrndup(BAD_CAST text, (int)len);
        xmlSetProp(e, BAD_CAST attrs[(unsigned char)x], v);
        xmlFree(v);
    }
}

/* jg:says-parts(ERROR): the sentence of a jg:errors <error> (its says=)
 * in parts, for a page to mark up each: its text as <s>TEXT</s>, %p as
 * <p param=""/>, %t as <t type=""/>, %c as <c class=""/> where the error
 * has a class (else nothing), %m as <s>MIN</s> (says_parts). */
static void fn_says_parts(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    xmlNodePtr e = arg && arg->nodeNr == 1 ? arg->nodeTab[0] : NULL;
    PartsOut o = {.set = xmlXPathNodeSetCreate(NULL)};
    xmlChar *says = prop(e, "says"), *param = prop(e, "param"), *type = prop(e, "type"),
            *klass = prop(e, "class"), *min = prop(e, "min");
    o.frag = says ? new_fragment(pc) : NULL;
    SaysValues v = {(const char *)param, (const char *)type, (const char *)klass,
                    (const char *)min};
    if (o.frag)
        says_parts((const char *)says, &v, part_element, &o);
    xmlFree(says);
    xmlFree(param);
    xmlFree(type);
    xmlFree(klass);
    xmlFree(min);
    xmlXPathFreeNodeSet(arg);
    valuePush(pc, xmlXPathWrapNodeSet(o.set));
}

/* A parameter error's row's cell: the function's id, where to write. */
typedef struct RowOut {
    const char *fn;
    xmlNodePtr td;
} RowOut;

/* A part of the sentence in the page's markup: the parameter linked to its
 * row, the type to its definition, the class in code. */
static void part_markup(void *arg, char x, const char *text, size_t len)
{
    RowOut *o = arg;
    Buf b;
    buf_init(&b);
    buf_put(&b, text, len);
    if (!x) {
        put_text(o->td, b.data);
    } else if (x == 'c') {
        put_text(o->td, " of ");
        put_text(put_el(o->td, "code", NULL, NULL), b.data);
    } else {
        Buf h;
        buf_init(&h);
        buf_printf(&h, x == 'p' ? "#%s.%s" : "#%s%s", x == 'p' ? o->fn : "", b.data);
        put_text(put_el(put_el(o->td, "a", "href", BAD_CAST h.data), "code", NULL, NULL), b.data);
        buf_free(&h);
    }
    buf_free(&b);
}

/* <jg:param-error-rows/>: for the function that is the context node, a
 * row of the page's errors table for each error a parameter can cause
 * (jg:errors' origin="param", in its order):
 *   <tr><th scope="row"><a href="#ERROR"><code>ERROR</code></a></th><td>SENTENCE</td></tr>
 * the sentence as says_parts splits it, the parameter as
 * <a href="#FUNCTION.PARAM"><code>PARAM</code></a>, the type as
 * <a href="#TYPE"><code>TYPE</code></a>, the class as " of <code>CLASS</code>".
 * Written by jvmtigen for their cost (templates/README.md): 395 rows on
 * JDK 25, 14M of the page's instructions as a for-each over jg:errors with
 * jg:says-parts. */
static void el_param_error_rows(xsltTransformContextPtr ctxt, xmlNodePtr node, xmlNodePtr inst,
                                xsltElemPreCompPtr comp)
{
    (void)inst;
    (void)comp;
    const DocsState *st = ctxt->_private;
    xmlChar *id = prop(node, "id");
    const Function *f = st && id ? strmap_get(&st->functions, (const char *)id) : NULL;
    if (f && ctxt->insert) {
        FnErrors fe = fn_errors_of(f);
        for (size_t i = 0; i < fe.n; i++) {
            const FnError *x = &fe.items[i];
            if (x->origin != FE_PARAM)
                continue;
            xmlNodePtr tr = put_el(ctxt->insert, "tr", NULL, NULL);
            Buf h;
            buf_init(&h);
            buf_printf(&h, "#%s", x->error);
            xmlNodePtr th = put_el(tr, "th", "scope", BAD_CAST "row");
            put_text(put_el(put_el(th, "a", "href", BAD_CAST h.data), "code", NULL, NULL),
                     x->error);
            buf_free(&h);
            RowOut o = {(const char *)id, put_el(tr, "td", NULL, NULL)};
            SaysValues v = {x->param->name,
                            (x->kind == PE_ENUM || x->kind == PE_EVENT_TYPE) ? x->param->type->name
                                                                             : NULL,
                            x->guard && x->guard->klass ? x->guard->klass->name : NULL,
                            x->kind == PE_MIN ? x->param->type->min : NULL};
            says_parts(param_error_kinds[x->kind].says, &v, part_markup, &o);
        }
        fn_errors_free(&fe);
    }
    xmlFree(id);
}

/* jg:release(VERSION): the release a <change>'s version belongs to, as
 * since attributes name it: the major number from 9 on ("11.0.0": 11),
 * major.minor before ("1.1.47": 1.1), nothing without a dot ("v40"); the
 * major number compared as XPath's number() reads it. As a template
 * called twice for each change (its own and the one before), 3M of the
 * page's instructions on JDK 25. */
static void release(Buf *b, const char *v, const DocsState *st)
{
    (void)st;
    const char *dot = strchr(v, '.');
    if (!dot || dot == v)
        return;
    buf_put(b, v, (size_t)(dot - v));
    if (xmlXPathStringEvalNumber(BAD_CAST b->data) >= 9)
        return;
    const char *next = strchr(dot + 1, '.');
    buf_putc(b, '.');
    if (next)
        buf_put(b, dot + 1, (size_t)(next - dot - 1));
}

static void fn_release(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, release);
}

/* <jg:search-list/>: the search list's lines (put_entry), written into
 * the page where the element stands. */
static void el_search_list(xsltTransformContextPtr ctxt, xmlNodePtr node, xmlNodePtr inst,
                           xsltElemPreCompPtr comp)
{
    (void)inst;
    (void)comp;
    xmlNodePtr spec = node && node->doc ? xmlDocGetRootElement(node->doc) : NULL;
    if (!ctxt->insert || !ctxt->_private || !is_el(spec, "specification"))
        return;
    Index ix = {.out = ctxt->insert};
    buf_init(&ix.text);
    search_walk(&ix, spec, ctxt->_private);
    buf_free(&ix.text);
}

void register_page_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtElement(t, BAD_CAST "search-list", BAD_CAST DOCS_NS, el_search_list);
    xsltRegisterExtElement(t, BAD_CAST "param-error-rows", BAD_CAST DOCS_NS, el_param_error_rows);
    xsltRegisterExtFunction(t, BAD_CAST "search-index", BAD_CAST DOCS_NS, fn_search_index);
    xsltRegisterExtFunction(t, BAD_CAST "says-parts", BAD_CAST DOCS_NS, fn_says_parts);
    xsltRegisterExtFunction(t, BAD_CAST "release", BAD_CAST DOCS_NS, fn_release);
}
