/* The extension functions that answer from the model (namespace DOCS_NS;
 * templates/README.md): prototypes, C types, errors, the function table,
 * written by the same code that writes jvmti.h. */
#include "docs/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>
#include <libxslt/variables.h>
#include <libxslt/xsltInternals.h>

#include "c/impl.h"
#include "model/ctype.h"
#include "model/errors.h"
#include "model/facts.h"
#include "model/refs.h"

DocsState *state_of(xmlXPathParserContextPtr pc)
{
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    return t ? t->_private : NULL;
}

void push_string(xmlXPathParserContextPtr pc, const char *s)
{
    valuePush(pc, xmlXPathNewString((const xmlChar *)s));
}

/* Pops one string argument; NULL (with the error set) on a wrong arity. */
xmlChar *one_arg(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(pc);
        return NULL;
    }
    return xmlXPathPopString(pc);
}

bool one_node_set(xmlXPathParserContextPtr pc, int nargs, xmlNodeSetPtr *set)
{
    if (nargs != 1) {
        xmlXPathSetArityError(pc);
        return false;
    }
    *set = xmlXPathPopNodeSet(pc);
    return !xmlXPathCheckError(pc);
}

/* The string value of the object popped into *obj, read in place where it
 * is one text node or an attribute holding one (every text node of the man
 * pages comes here through jg:roff-text: xmlXPathPopString's copy of each
 * was about 3M of their instructions on JDK 25), else a copy left in
 * *copy. NULL (with the error set) on an empty stack. */
static const xmlChar *pop_string_in_place(xmlXPathParserContextPtr pc, xmlXPathObjectPtr *obj,
                                          xmlChar **copy)
{
    *copy = NULL;
    *obj = valuePop(pc);
    if (!*obj) {
        xmlXPathSetError(pc, XPATH_INVALID_OPERAND);
        return NULL;
    }
    xmlNodeSetPtr set = (*obj)->type == XPATH_NODESET ? (*obj)->nodesetval : NULL;
    xmlNodePtr n = set && set->nodeNr == 1 ? set->nodeTab[0] : NULL;
    if (n && n->type == XML_ATTRIBUTE_NODE && n->children && !n->children->next)
        n = n->children;
    if (n && n->type == XML_TEXT_NODE)
        return n->content ? n->content : BAD_CAST "";
    *copy = xmlXPathCastToString(*obj);
    return *copy;
}

void string_function(xmlXPathParserContextPtr pc, int nargs,
                     void (*render)(Buf *b, const char *arg, const DocsState *st))
{
    if (nargs != 1) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlXPathObjectPtr obj;
    xmlChar *copy;
    const xmlChar *arg = pop_string_in_place(pc, &obj, &copy);
    if (!arg) {
        xmlXPathFreeObject(obj);
        return;
    }
    /* The result is made in the run's scratch buffer (room for the roff
     * escapes of the argument, 4 bytes a byte, made first) and copied into
     * a block of its size: mostly the templates' arena's, where a buffer of
     * its own each time was glibc's malloc and free (16,600 calls on JDK
     * 25). buf_grow's realloc must not meet an arena block (memlimit.c),
     * so the buffer itself is never the string. */
    DocsState *st = state_of(pc);
    Buf own, *b = st ? &st->scratch : &own;
    if (!st)
        buf_init(&own);
    buf_reset(b);
    buf_grow(b, 4 * strlen((const char *)arg) + 16);
    b->data[0] = '\0';
    render(b, (const char *)arg, st);
    xmlChar *result = xmlMalloc(b->len + 1);
    if (result)
        memcpy(result, b->data, b->len + 1);
    if (!st)
        buf_free(&own);
    xmlFree(copy);
    xmlXPathFreeObject(obj);
    if (!result) {
        xmlXPathSetError(pc, XPATH_MEMORY_ERROR);
        return;
    }
    valuePush(pc, xmlXPathWrapString(result));
}

/* jg:prototype(ID): the C declaration of a function (as called through the
 * table), an event's handler or a callback type, laid out one parameter a
 * line, its parameter list written by jvmti.h's own code (emit.h's
 * header_*). "" for an unknown id. */
void prototype(Buf *b, const char *id, const DocsState *st)
{
    const Function *f = st ? strmap_get(&st->functions, id) : NULL;
    const Event *e = st ? strmap_get(&st->events, id) : NULL;
    const Callback *c = st ? strmap_get(&st->callbacks, id) : NULL;
    if (f) {
        buf_printf(b, "jvmtiError\n%s(", f->id);
        header_function_params(b, f, ",\n            ");
        buf_puts(b, ")");
    } else if (e) {
        buf_printf(b, "void JNICALL\n%s(", e->id);
        header_event_params(b, e, ",\n            ");
        buf_puts(b, ")");
    } else if (c) {
        header_callback_typedef(b, c, ",\n     ");
    }
}

/* jg:event-typedef(EVENT): the event's callback typedef, laid out as
 * jvmti.h lays it out; "" for an unknown event. */
void event_typedef(Buf *b, const char *id, const DocsState *st)
{
    const Event *e = st ? strmap_get(&st->events, id) : NULL;
    if (e)
        header_event_typedef(b, e);
}

/* jg:ctype("Owner.name"): the C type of a parameter or field, as jvmti.h
 * spells it ("const jvmtiClassDefinition*"); "" for an unknown one. */
void member_ctype(Buf *b, const char *key, const DocsState *st)
{
    const Param *p = st ? strmap_get(&st->members, key) : NULL;
    if (p && p->type->kind != TK_VARARGS)
        ctype_append(b, p->type);
    else if (p)
        buf_puts(b, "...");
}

/* jg:ctype-target("Owner.name"): what in that C type the page links, the
 * innermost type it names: a struct's or an enum's name, else the type
 * element's name ("jthread"); "" for an unknown one. */
static void member_ctype_target(Buf *b, const char *key, const DocsState *st)
{
    const Param *p = st ? strmap_get(&st->members, key) : NULL;
    const Type *t = p ? p->type : NULL;
    while (t && t->elem)
        t = t->elem;
    if (t && (t->kind == TK_STRUCT || t->kind == TK_ENUM) && t->name && *t->name)
        buf_puts(b, t->name);
    else if (t)
        buf_puts(b, type_kinds[t->kind].xml);
}

/* jg:reference("Owner.name"): what a JNI reference in a parameter or field
 * is, as the model says (model/refs.h: "caller", "local",
 * "callback-local"); "" where it holds none, or for an unknown one. */
void member_reference(Buf *b, const char *key, const DocsState *st)
{
    const Param *p = st ? strmap_get(&st->members, key) : NULL;
    const char *dot = strrchr(key, '.');
    /* Only a reference type has a note: the site (for a field, a walk of
     * every function, struct and callback) is asked for those alone. */
    if (!p || !dot || !reference_of(p->type, SITE_FUNCTION))
        return;
    Buf owner;
    buf_init(&owner);
    buf_put(&owner, key, (size_t)(dot - key));
    RefSite site = strmap_get(&st->functions, owner.data) ? SITE_FUNCTION
                   : strmap_get(&st->events, owner.data) || strmap_get(&st->callbacks, owner.data)
                       ? SITE_CALLBACK
                       : field_site(st->ctx->spec, owner.data);
    const char *ref = reference_of(p->type, site);
    if (ref)
        buf_puts(b, ref);
    buf_free(&owner);
}

static void fn_reference(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, member_reference);
}

static void fn_prototype(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, prototype);
}

static void fn_event_typedef(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, event_typedef);
}

static void fn_ctype(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, member_ctype);
}

static void fn_ctype_target(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, member_ctype_target);
}

/* A result tree fragment owned by the transformation (freed with it). */
xmlDocPtr new_fragment(xmlXPathParserContextPtr pc)
{
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    xmlDocPtr frag = t ? xsltCreateRVT(t) : NULL;
    if (frag)
        xsltRegisterLocalRVT(t, frag);
    return frag;
}

/* A new element NAME at the end of the fragment, added to the result set. */
xmlNodePtr add_element(xmlDocPtr frag, xmlNodeSetPtr set, const char *name)
{
    xmlNodePtr c = xmlNewDocNode(frag, NULL, BAD_CAST name, NULL);
    xmlAddChild((xmlNodePtr)frag, c);
    xmlXPathNodeSetAdd(set, c);
    return c;
}

/* The frame of a function without arguments: its state, NULL (with the
 * arity error set) when given any. */
static DocsState *no_args(xmlXPathParserContextPtr pc, int nargs, bool *ok)
{
    *ok = nargs == 0;
    if (!*ok)
        xmlXPathSetArityError(pc);
    return state_of(pc);
}

/* jg:errors(FUNCTION): every error the function can return besides the
 * universal ones (errors.h), in order, as <error id= origin= on-entry=
 * [cap=] [param= kind= says=] [min=] [type=] [class=]/> elements; origin is
 * "capability", "param" or "own", on-entry "yes" when the trampoline checks
 * it; says the sentence of param_error_kinds[] (the "says" template). */
static void fn_errors(xmlXPathParserContextPtr pc, int nargs)
{
    static const char *const origins[] = {
        [FE_CAPABILITY] = "capability", [FE_PARAM] = "param", [FE_OWN] = "own"};
    xmlChar *id = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!id)
        return;
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    const Function *f = st ? strmap_get(&st->functions, (const char *)id) : NULL;
    xmlDocPtr frag = f ? new_fragment(pc) : NULL;
    if (frag) {
        FnErrors fe = fn_errors_of(f);
        for (size_t i = 0; i < fe.n; i++) {
            const FnError *x = &fe.items[i];
            xmlNodePtr c = add_element(frag, set, "error");
            xmlSetProp(c, BAD_CAST "id", BAD_CAST x->error);
            xmlSetProp(c, BAD_CAST "origin", BAD_CAST origins[x->origin]);
            xmlSetProp(c, BAD_CAST "on-entry", BAD_CAST(x->on_entry ? "yes" : "no"));
            if (x->cap)
                xmlSetProp(c, BAD_CAST "cap", BAD_CAST x->cap);
            if (x->param) {
                xmlSetProp(c, BAD_CAST "param", BAD_CAST x->param->name);
                xmlSetProp(c, BAD_CAST "kind", BAD_CAST param_error_kinds[x->kind].name);
                xmlSetProp(c, BAD_CAST "says", BAD_CAST param_error_kinds[x->kind].says);
            }
            if (x->param && x->kind == PE_MIN)
                xmlSetProp(c, BAD_CAST "min", BAD_CAST x->param->type->min);
            if (x->param && (x->kind == PE_ENUM || x->kind == PE_EVENT_TYPE) &&
                x->param->type->name)
                xmlSetProp(c, BAD_CAST "type", BAD_CAST x->param->type->name);
            if (x->guard && x->guard->klass)
                xmlSetProp(c, BAD_CAST "class", BAD_CAST x->guard->klass->name);
        }
        fn_errors_free(&fe);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
    xmlFree(id);
}

/* jg:fill(TEXT, X, VALUE, ...): TEXT with each %X (X one character) replaced
 * by the VALUE given after X, by nothing where no X is given (a lone % at
 * the end too): a says= sentence of jg:errors in one call. The recursive
 * "says" template (common.xsl) cost the man pages 10M instructions more
 * (of 192M on JDK 25), in template calls and XPath evaluations. */
static void fn_fill(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs < 1 || nargs % 2 == 0) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlChar **args = xmlMalloc((size_t)nargs * sizeof *args);
    if (!args) {
        xmlXPathErr(pc, XPATH_MEMORY_ERROR);
        return;
    }
    for (int i = nargs - 1; i >= 0; i--) /* the last argument is on top */
        args[i] = xmlXPathPopString(pc);
    Buf b;
    buf_init(&b);
    buf_grow(&b, 0);
    const xmlChar *t = args[0] ? args[0] : BAD_CAST "";
    while (*t) {
        const xmlChar *pct = xmlStrchr(t, '%');
        if (!pct) {
            buf_puts(&b, (const char *)t);
            break;
        }
        buf_put(&b, (const char *)t, (size_t)(pct - t));
        t = pct + 1;
        int n = *t ? xmlUTF8Strsize(t, 1) : 0; /* X: one character */
        for (int i = 1; n > 0 && i + 1 < nargs; i += 2)
            if (args[i] && xmlUTF8Strsize(args[i], 1) == n && !memcmp(args[i], t, (size_t)n) &&
                args[i + 1]) {
                buf_puts(&b, (const char *)args[i + 1]);
                break;
            }
        t += n;
    }
    push_string(pc, b.data);
    buf_free(&b);
    for (int i = 0; i < nargs; i++)
        xmlFree(args[i]);
    xmlFree(args);
}

/* jg:error-functions(ERROR): the functions that can return ERROR beyond the
 * universal errors (jg:errors lists it), in spec order, as <function id=""/>
 * elements. */
static void fn_error_functions(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *id = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!id)
        return;
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    Vec *v = st ? strmap_get(&st->error_users, (const char *)id) : NULL;
    xmlDocPtr frag = v ? new_fragment(pc) : NULL;
    for (size_t i = 0; frag && i < v->n; i++) {
        const Function *f = v->items[i];
        xmlNodePtr c = add_element(frag, set, "function");
        xmlSetProp(c, BAD_CAST "id", BAD_CAST f->id);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
    xmlFree(id);
}

/* jg:table-slots(): the slots of the function table, 1 to the highest, as
 * <slot num="" [function="" since=""]/> (no function: a reserved slot). */
static void fn_table_slots(xmlXPathParserContextPtr pc, int nargs)
{
    bool ok;
    DocsState *st = no_args(pc, nargs, &ok);
    if (!ok)
        return;
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    xmlDocPtr frag = st ? new_fragment(pc) : NULL;
    if (frag) {
        int max = max_table_num(st->ctx->spec);
        const Function **slot = table_slots(st->ctx->spec);
        for (int num = 1; num <= max; num++) {
            char text[16];
            snprintf(text, sizeof text, "%d", num);
            xmlNodePtr c = add_element(frag, set, "slot");
            xmlSetProp(c, BAD_CAST "num", BAD_CAST text);
            if (slot[num]) {
                xmlSetProp(c, BAD_CAST "function", BAD_CAST slot[num]->id);
                xmlSetProp(c, BAD_CAST "since",
                           BAD_CAST(slot[num]->since ? slot[num]->since : "1.0"));
            }
        }
        free(slot);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
}

void function_facts(FunctionFacts *x, const Function *f)
{
    static const char *const phases[] = {
        [PHASE_DEFAULT] = "live phase only",       [PHASE_ONLOAD] = "OnLoad or live phase",
        [PHASE_ONLOAD_ONLY] = "OnLoad phase only", [PHASE_START] = "start or live phase",
        [PHASE_LIVE] = "live phase only",          [PHASE_ANY] = "any phase"};
    buf_init(&x->caps);
    if (f->eventcapabilities)
        buf_puts(&x->caps, "needs the event's capabilities");
    for (size_t i = 0; i < f->n_required; i++)
        buf_printf(&x->caps, "%s%s", i ? ", " : "needs ", f->required[i]->id);
    if (!x->caps.len)
        buf_puts(&x->caps, "no capability needed");
    snprintf(x->since, sizeof x->since, "since %s", f->since ? f->since : "1.0");
    x->text[0] = phases[f->phase];
    x->text[1] = f->callbacksafe ? "callback-safe" : "not callback-safe";
    x->text[2] = x->caps.data;
    x->text[3] = x->since;
}

/* jg:facts(FUNCTION): the one-line summary under a function's prototype, the
 * page's and the man page's, as <fact> elements each output joins its own
 * way: the phases it may be called in, whether it is callback-safe, the
 * capabilities it needs, the release that added it (function_facts). Empty
 * for an unknown id. */
static void fn_facts(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *id = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!id)
        return;
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    const Function *f = st ? strmap_get(&st->functions, (const char *)id) : NULL;
    xmlDocPtr frag = f ? new_fragment(pc) : NULL;
    if (frag) {
        FunctionFacts x;
        function_facts(&x, f);
        static const char *const kinds[] = {"phase", "callback-safe", "capabilities", "since"};
        for (size_t i = 0; i < FUNCTION_FACTS; i++) {
            xmlNodePtr c = add_element(frag, set, "fact");
            xmlSetProp(c, BAD_CAST "kind", BAD_CAST kinds[i]);
            xmlNodeAddContent(c, BAD_CAST x.text[i]);
        }
        buf_free(&x.caps);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
    xmlFree(id);
}

/* Row i (0 to n_named_versions) of jg:versions() for v: false where jvmti.h
 * does not name that version, else its name, value ("0x30150000") and since
 * ("" for 1.0); row n_named_versions is JVMTI_VERSION itself. The page's
 * version table and its search list (pagefacts.c). */
bool version_row(const JvmtiVersion *v, int i, const char **name, char value[16], char since[24])
{
    const NamedVersion *nv = i < n_named_versions ? &named_versions[i] : NULL;
    if (nv && !version_at_least(v, nv->since_major, nv->since_minor))
        return false;
    unsigned num = nv ? nv->value
                      : 0x30000000u + ((unsigned)v->major << 16) + ((unsigned)v->minor << 8) +
                            (unsigned)v->micro;
    snprintf(value, 16, "0x%08X", num);
    since[0] = '\0';
    if (nv && nv->since_major >= 9)
        snprintf(since, 24, "%d", nv->since_major);
    else if (nv && (nv->since_major != 1 || nv->since_minor != 0))
        snprintf(since, 24, "%d.%d", nv->since_major, nv->since_minor);
    *name = nv ? nv->name : "JVMTI_VERSION";
    return true;
}

/* jg:versions(): the JVMTI_VERSION_* constants jvmti.h defines for the
 * run's version, in its order, as <version name="" value="0x..." [since=""]/>
 * (since: the release that added the name, as since attributes say it),
 * and JVMTI_VERSION itself last: what the header's versions() writes. */
static void fn_versions(xmlXPathParserContextPtr pc, int nargs)
{
    bool ok;
    DocsState *st = no_args(pc, nargs, &ok);
    if (!ok)
        return;
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    xmlDocPtr frag = st ? new_fragment(pc) : NULL;
    const JvmtiVersion *v = frag ? &st->ctx->version : NULL;
    for (int i = 0; v && i <= n_named_versions; i++) {
        const char *name;
        char value[16], since[24];
        if (!version_row(v, i, &name, value, since))
            continue;
        xmlNodePtr c = add_element(frag, set, "version");
        xmlSetProp(c, BAD_CAST "name", BAD_CAST name);
        xmlSetProp(c, BAD_CAST "value", BAD_CAST value);
        if (*since)
            xmlSetProp(c, BAD_CAST "since", BAD_CAST since);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
}

/* The id attribute's text of an element, borrowed from the tree (the DTD
 * gives id no default, and the spec's ids are plain text); NULL without
 * one. */
static const char *id_of(xmlNodePtr n)
{
    if (n->type != XML_ELEMENT_NODE)
        return NULL;
    for (xmlAttrPtr a = n->properties; a; a = a->next)
        if (a->children && !a->children->next && a->children->type == XML_TEXT_NODE &&
            strcmp((const char *)a->name, "id") == 0)
            return (const char *)a->children->content;
    return NULL;
}

/* The model's items a link element may name: a functionlink a function,
 * an eventlink an event, a typelink a struct, a union, a callback or a
 * group of constants; NULL for other elements. */
static const StrMap *link_targets(const DocsState *st, const xmlChar *name)
{
    if (strcmp((const char *)name, "functionlink") == 0)
        return &st->functions;
    if (strcmp((const char *)name, "eventlink") == 0)
        return &st->events;
    if (strcmp((const char *)name, "typelink") == 0)
        return &st->types;
    return NULL;
}

/* jg:see-also(NODE): the functionlink, eventlink and typelink elements
 * inside NODE, in document order, the first of each id, whose id names an
 * item of the link's kind (items inside <elide> are not in the model) and
 * is not NODE's own: what a man page lists under SEE ALSO. The same walk in
 * XPath (three descendant steps, a key lookup per link, two keys over every
 * link of the spec for the first of each) cost 34M of the man pages' 219M
 * instructions on JDK 25. */
static void fn_see_also(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    const DocsState *st = state_of(pc);
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    xmlNodePtr top = arg && arg->nodeNr == 1 ? arg->nodeTab[0] : NULL;
    const char *self = top ? id_of(top) : NULL;
    StrMap seen;
    strmap_init(&seen);
    /* Preorder over the elements under top. */
    xmlNodePtr n = top && st ? top->children : NULL;
    while (n) {
        if (n->type == XML_ELEMENT_NODE) {
            const StrMap *targets = link_targets(st, n->name);
            const char *id = targets ? id_of(n) : NULL;
            if (id && (!self || strcmp(id, self) != 0) && strmap_get(targets, id) &&
                !strmap_put(&seen, id, n))
                xmlXPathNodeSetAdd(out, n);
            if (n->children) {
                n = n->children;
                continue;
            }
        }
        while (n && n != top && !n->next)
            n = n->parent;
        n = n && n != top ? n->next : NULL;
    }
    strmap_free(&seen);
    xmlXPathFreeNodeSet(arg);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

const char *id_value(xmlNodePtr n, xmlChar **copy)
{
    *copy = NULL;
    if (n->type != XML_ELEMENT_NODE)
        return NULL;
    for (xmlAttrPtr a = n->properties; a; a = a->next) {
        if (a->ns || strcmp((const char *)a->name, "id") != 0)
            continue;
        if (a->children && !a->children->next && a->children->type == XML_TEXT_NODE &&
            a->children->content)
            return (const char *)a->children->content;
        *copy = xmlNodeGetContent((xmlNodePtr)a);
        return *copy ? (const char *)*copy : "";
    }
    return NULL;
}

/* jg:except-ids(NODES, OTHERS): the nodes of NODES, in their order, but
 * those whose id some node of OTHERS has: NODES[not(@id = OTHERS/@id)]
 * with a hash of OTHERS' ids, where XPath compares every id of OTHERS for
 * each node (a function's man page listing the other functions of its
 * category without those SEE ALSO has named: 14M of the man pages' 214M
 * instructions on JDK 25). */
static void fn_except_ids(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs != 2) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlNodeSetPtr others = xmlXPathPopNodeSet(pc);
    if (xmlXPathCheckError(pc))
        return;
    xmlNodeSetPtr nodes = xmlXPathPopNodeSet(pc);
    if (xmlXPathCheckError(pc)) {
        xmlXPathFreeNodeSet(others);
        return;
    }
    StrMap ids;
    strmap_init(&ids);
    Vec copies = {0};
    for (int i = 0; others && i < others->nodeNr; i++) {
        xmlChar *copy;
        const char *id = id_value(others->nodeTab[i], &copy);
        if (copy)
            vec_push(&copies, copy);
        if (id)
            strmap_put(&ids, id, others->nodeTab[i]);
    }
    xmlNodeSetPtr out = xmlXPathNodeSetCreate(NULL);
    for (int i = 0; nodes && i < nodes->nodeNr; i++) {
        xmlChar *copy;
        const char *id = id_value(nodes->nodeTab[i], &copy);
        if (!id || !strmap_get(&ids, id))
            xmlXPathNodeSetAdd(out, nodes->nodeTab[i]);
        xmlFree(copy);
    }
    for (size_t i = 0; i < copies.n; i++)
        xmlFree(copies.items[i]);
    vec_free(&copies);
    strmap_free(&ids);
    xmlXPathFreeNodeSet(nodes);
    xmlXPathFreeNodeSet(others);
    valuePush(pc, xmlXPathWrapNodeSet(out));
}

void member_key(Buf *key, xmlNodePtr n)
{
    xmlChar *owner_copy = NULL, *id_copy = NULL;
    const char *owner = NULL;
    for (xmlNodePtr a = n->parent; a && a->type == XML_ELEMENT_NODE && !owner; a = a->parent)
        owner = id_value(a, &owner_copy);
    const char *id = id_value(n, &id_copy);
    buf_printf(key, "%s.%s", owner ? owner : "", id ? id : "");
    xmlFree(owner_copy);
    xmlFree(id_copy);
}

/* jg:reference-of(NODE): jg:reference of "OWNER.ID", ID the node's id and
 * OWNER that of its nearest ancestor with one (a parameter's function,
 * event or callback, a field's struct), as jg:reference(concat(
 * ancestor::*[@id][1]/@id, '.', @id)) says it; "" for a node-set not of
 * one node. The XPath and the key's concatenation cost about 12,000
 * instructions a call in the man pages, 8M of theirs on JDK 25. */
static void fn_reference_of(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    xmlNodePtr n = arg && arg->nodeNr == 1 ? arg->nodeTab[0] : NULL;
    Buf key, b;
    buf_init(&key);
    buf_init(&b);
    if (n) {
        member_key(&key, n);
        member_reference(&b, key.data, state_of(pc));
    }
    push_string(pc, b.data ? b.data : "");
    buf_free(&b);
    buf_free(&key);
    xmlXPathFreeNodeSet(arg);
}

void register_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "prototype", BAD_CAST DOCS_NS, fn_prototype);
    xsltRegisterExtFunction(t, BAD_CAST "ctype", BAD_CAST DOCS_NS, fn_ctype);
    xsltRegisterExtFunction(t, BAD_CAST "ctype-target", BAD_CAST DOCS_NS, fn_ctype_target);
    xsltRegisterExtFunction(t, BAD_CAST "reference", BAD_CAST DOCS_NS, fn_reference);
    xsltRegisterExtFunction(t, BAD_CAST "reference-of", BAD_CAST DOCS_NS, fn_reference_of);
    xsltRegisterExtFunction(t, BAD_CAST "event-typedef", BAD_CAST DOCS_NS, fn_event_typedef);
    xsltRegisterExtFunction(t, BAD_CAST "table-slots", BAD_CAST DOCS_NS, fn_table_slots);
    xsltRegisterExtFunction(t, BAD_CAST "versions", BAD_CAST DOCS_NS, fn_versions);
    xsltRegisterExtFunction(t, BAD_CAST "facts", BAD_CAST DOCS_NS, fn_facts);
    xsltRegisterExtFunction(t, BAD_CAST "errors", BAD_CAST DOCS_NS, fn_errors);
    xsltRegisterExtFunction(t, BAD_CAST "fill", BAD_CAST DOCS_NS, fn_fill);
    xsltRegisterExtFunction(t, BAD_CAST "error-functions", BAD_CAST DOCS_NS, fn_error_functions);
    xsltRegisterExtFunction(t, BAD_CAST "see-also", BAD_CAST DOCS_NS, fn_see_also);
    xsltRegisterExtFunction(t, BAD_CAST "except-ids", BAD_CAST DOCS_NS, fn_except_ids);
    register_summary_functions(t);
    register_crossref_functions(t);
    register_page_functions(t);
}
