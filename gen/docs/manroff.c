/* The man pages' fact sections in roff, written from the model in one
 * call each (jg:man-errors): lists the templates would otherwise build an
 * entry at a time, at several XPath evaluations an entry. Prose stays in
 * the templates; only what the model holds is written here, from the same
 * code the page's functions use (jg:errors' fn_errors_of and sentences). */
#include "docs/state.h"

#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>
#include <libxslt/xsltInternals.h>

#include "model/errors.h"

/* A parameter error's sentence (param_error_kinds[].says) in roff: %p the
 * parameter in italics, %t the type in bold, %m the minimum; %c (the
 * class of a field ID) and any other placeholder are left out, the
 * parameter's own entry naming the class. What man.xsl's jg:fill did. */
static void says_roff(Buf *b, const FnError *x)
{
    const char *t = param_error_kinds[x->kind].says;
    const Type *type = x->param->type;
    for (const char *pct; (pct = strchr(t, '%'));) {
        buf_put(b, t, (size_t)(pct - t));
        switch (pct[1]) {
        case 'p':
            buf_puts(b, "\\fI");
            roff_text_append(b, x->param->name);
            buf_puts(b, "\\fP");
            break;
        case 't':
            buf_puts(b, "\\fB");
            if ((x->kind == PE_ENUM || x->kind == PE_EVENT_TYPE) && type->name)
                roff_text_append(b, type->name);
            buf_puts(b, "\\fP");
            break;
        case 'm':
            if (x->kind == PE_MIN && type->min)
                roff_text_append(b, type->min);
            break;
        }
        t = pct + (pct[1] ? 2 : 1);
    }
    buf_puts(b, t);
}

/* jg:man-errors(FUNCTION): the ERRORS entries of the function's errors
 * from a missing capability or a parameter (jg:errors' origin="capability"
 * and "param", in its order), each ".TP", ".B ERROR" and its sentence; ""
 * when it has none, or for an unknown id. Its own errors (the spec's
 * prose) the template renders after them. As XSLT, an entry at a time,
 * these cost 9M of the man pages' 144M instructions on JDK 25. */
static void man_errors(Buf *b, const char *id, const DocsState *st)
{
    const Function *f = st ? strmap_get(&st->functions, id) : NULL;
    if (!f)
        return;
    FnErrors fe = fn_errors_of(f);
    for (size_t i = 0; i < fe.n; i++) {
        const FnError *x = &fe.items[i];
        if (x->origin == FE_OWN)
            continue;
        buf_puts(b, ".TP\n.B ");
        roff_text_append(b, x->error);
        buf_putc(b, '\n');
        if (x->origin == FE_CAPABILITY) {
            buf_puts(b, "The environment does not possess the capability \\fB");
            roff_text_append(b, x->cap);
            buf_puts(b, "\\fP.");
        } else {
            says_roff(b, x);
        }
        buf_putc(b, '\n');
    }
    fn_errors_free(&fe);
}

static void fn_man_errors(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, man_errors);
}

/* An empty buffer with its NUL: what a renderer that appends nothing
 * leaves is "". */
static void buf_empty(Buf *b)
{
    buf_init(b);
    buf_grow(b, 0);
    b->data[0] = '\0';
}

/* The frame of a function of one node: render's text of the node, "" for
 * a node-set not of one node. */
static void node_function(xmlXPathParserContextPtr pc, int nargs,
                          void (*render)(Buf *b, xmlNodePtr n, const DocsState *st))
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    Buf b;
    buf_empty(&b);
    if (arg && arg->nodeNr == 1)
        render(&b, arg->nodeTab[0], t ? t->_private : NULL);
    valuePush(pc, xmlXPathWrapString((xmlChar *)b.data));
    xmlXPathFreeNodeSet(arg);
}

/* Whether n is an element of no namespace named name, as a step or a
 * pattern by name matches it. */
static bool is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !n->ns && strcmp((const char *)n->name, name) == 0;
}

static xmlNodePtr child_named(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

/* What fact (member_ctype, member_reference) says of the parameter or
 * field n, by its key, into *out (to free). */
static void member_fact(Buf *out, xmlNodePtr n,
                        void (*fact)(Buf *, const char *, const DocsState *), const DocsState *st)
{
    Buf key;
    buf_init(&key);
    buf_empty(out);
    member_key(&key, n);
    fact(out, key.data, st);
    buf_free(&key);
}

/* jg:man-member(NODE): the head of a parameter's or field's entry,
 * ".TP", then ".IR" with its name and its C type (jg:ctype) as two quoted
 * arguments. */
static void man_member(Buf *b, xmlNodePtr n, const DocsState *st)
{
    Buf type;
    member_fact(&type, n, member_ctype, st);
    xmlChar *id = xmlGetNoNsProp(n, BAD_CAST "id");
    buf_puts(b, ".TP\n.IR \"");
    roff_arg_append(b, id ? (const char *)id : "");
    buf_puts(b, "\" \" (");
    roff_escape_append(b, type.data);
    buf_puts(b, ")\"\n");
    xmlFree(id);
    buf_free(&type);
}

/* Whether some struct child of n has the string value s. */
static bool has_struct(xmlNodePtr n, const char *s)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is(c, "struct"))
            continue;
        xmlChar *v = xmlNodeGetContent(c);
        bool same = v && strcmp((const char *)v, s) == 0;
        xmlFree(v);
        if (same)
            return true;
    }
    return false;
}

static bool inside_event(xmlNodePtr n)
{
    for (xmlNodePtr a = n->parent; a && a->type == XML_ELEMENT_NODE; a = a->parent)
        if (is(a, "event"))
            return true;
    return false;
}

/* jg:man-type-note(PARAM): what the parameter's type (its first element
 * but the description) says about memory and NULL, in a sentence or two
 * after a blank; "" where it says nothing. */
static void man_type_note(Buf *b, xmlNodePtr param, const DocsState *st)
{
    (void)st;
    xmlNodePtr t = param->children;
    while (t && (t->type != XML_ELEMENT_NODE || is(t, "description")))
        t = t->next;
    if (!t || t->ns)
        return;
    const char *s = NULL;
    if (is(t, "allocbuf") || is(t, "allocallocbuf"))
        s = " On return, points to a newly allocated array; free it with \\fBDeallocate\\fP(3).";
    else if (is(t, "outbuf"))
        s = " An array the agent allocates, which the function fills in.";
    else if (is(t, "vmbuf"))
        s = " An array that belongs to the VM: do not modify or free it.";
    else if (is(t, "outptr"))
        s = !inside_event(t)          ? " The function stores its result there."
            : has_struct(t, "JNIEnv") ? ""
            : child_named(t, "void") || child_named(t, "struct")
                ? " A pointer the VM passes in."
                : " Points to storage the VM provides; the callback may store a new value there.";
    else if (is(t, "agentbuf"))
        s = xmlHasNsProp(t, BAD_CAST "incount", NULL) || xmlHasNsProp(t, BAD_CAST "outcount", NULL)
                ? " Where the callback may store a pointer to a new array, which the agent "
                  "allocates with \\fBAllocate\\fP(3); the VM takes it over and frees it with "
                  "\\fBDeallocate\\fP(3)."
                : " Points to storage the VM provides; the callback may store a pointer of its "
                  "own there, which the VM does not free.";
    else if (is(t, "jthread")) {
        xmlChar *null = xmlGetNoNsProp(t, BAD_CAST "null");
        if (null && strcmp((const char *)null, "current") == 0)
            s = " NULL stands for the current thread.";
        xmlFree(null);
    }
    if (s)
        buf_puts(b, s);
}

/* jg:man-reference-note(NODE): where the model says a parameter or field
 * returns new JNI local references (jg:reference-of's "local"), the
 * sentence saying the agent manages them; "" elsewhere. */
static void man_reference_note(Buf *b, xmlNodePtr n, const DocsState *st)
{
    Buf ref;
    member_fact(&ref, n, member_reference, st);
    if (strcmp(ref.data, "local") == 0) {
        if (child_named(n, "allocbuf") || child_named(n, "allocallocbuf") ||
            child_named(n, "allocfieldbuf") || child_named(n, "outbuf"))
            buf_puts(b, " The references in it are JNI local references, which the agent "
                        "manages (DeleteLocalRef, or NewGlobalRef to keep them).");
        else if (child_named(n, "outptr"))
            buf_puts(b, " The result is a JNI local reference, which the agent manages "
                        "(DeleteLocalRef, or NewGlobalRef to keep it).");
        else
            buf_puts(b, " A JNI local reference, which the agent manages (DeleteLocalRef, or "
                        "NewGlobalRef to keep it).");
    }
    buf_free(&ref);
}

/* The text of render(id) as jg:roff-lines renders it. */
static void lines_of(Buf *b, void (*render)(Buf *, const char *, const DocsState *), const char *id,
                     const DocsState *st)
{
    Buf c;
    buf_empty(&c);
    render(&c, id, st);
    roff_lines_append(b, c.data);
    buf_free(&c);
}

/* jg:man-synopsis(ITEM): a function's, an event's or a callback's
 * SYNOPSIS after its #include line, in roff: an event's typedef
 * (jg:event-typedef), the prototype (jg:prototype), a function's call
 * (jg:call-form), each verbatim, then a function's facts (jg:facts' texts,
 * joined by "; "). The item's kind is its element's name, as the
 * template's was. */
static void man_synopsis(Buf *b, xmlNodePtr n, const DocsState *st)
{
    bool function = is(n, "function"), event = is(n, "event");
    xmlChar *idv = xmlGetNoNsProp(n, BAD_CAST "id");
    const char *id = idv ? (const char *)idv : "";
    if (event) {
        lines_of(b, event_typedef, id, st);
        buf_puts(b, "\n.PP\n");
    }
    lines_of(b, prototype, id, st);
    if (function) {
        buf_puts(b, "\n.PP\n");
        lines_of(b, call_form, id, st);
    }
    buf_puts(b, "\n.fi\n");
    if (function) {
        buf_puts(b, ".PP\n");
        const Function *f = st ? strmap_get(&st->functions, id) : NULL;
        if (f) {
            FunctionFacts x;
            function_facts(&x, f);
            for (size_t i = 0; i < FUNCTION_FACTS; i++) {
                if (i)
                    buf_puts(b, "; ");
                roff_text_append(b, x.text[i]);
            }
            buf_free(&x.caps);
        }
        buf_puts(b, ".\n");
    }
    xmlFree(idv);
}

static void fn_man_synopsis(xmlXPathParserContextPtr pc, int nargs)
{
    node_function(pc, nargs, man_synopsis);
}

/* jg:man-refs(NODES): a SEE ALSO line for each node, in the node-set's
 * order: ".BR ID (3),", ID its id attribute (as jg:roff-text(@id) renders
 * it; empty without one). A line at a time in XSLT, SEE ALSO's entries
 * cost 6M of the man pages' 121M instructions on JDK 25. */
static void fn_man_refs(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    Buf b;
    buf_empty(&b);
    for (int i = 0; arg && i < arg->nodeNr; i++) {
        xmlNodePtr n = arg->nodeTab[i];
        xmlChar *id = n->type == XML_ELEMENT_NODE ? xmlGetNoNsProp(n, BAD_CAST "id") : NULL;
        buf_puts(&b, ".BR ");
        roff_text_append(&b, id ? (const char *)id : "");
        buf_puts(&b, " (3),\n");
        xmlFree(id);
    }
    valuePush(pc, xmlXPathWrapString((xmlChar *)b.data));
    xmlXPathFreeNodeSet(arg);
}

static void fn_man_member(xmlXPathParserContextPtr pc, int nargs)
{
    node_function(pc, nargs, man_member);
}

static void fn_man_type_note(xmlXPathParserContextPtr pc, int nargs)
{
    node_function(pc, nargs, man_type_note);
}

static void fn_man_reference_note(xmlXPathParserContextPtr pc, int nargs)
{
    node_function(pc, nargs, man_reference_note);
}

void register_man_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "man-errors", BAD_CAST DOCS_NS, fn_man_errors);
    xsltRegisterExtFunction(t, BAD_CAST "man-member", BAD_CAST DOCS_NS, fn_man_member);
    xsltRegisterExtFunction(t, BAD_CAST "man-refs", BAD_CAST DOCS_NS, fn_man_refs);
    xsltRegisterExtFunction(t, BAD_CAST "man-synopsis", BAD_CAST DOCS_NS, fn_man_synopsis);
    xsltRegisterExtFunction(t, BAD_CAST "man-type-note", BAD_CAST DOCS_NS, fn_man_type_note);
    xsltRegisterExtFunction(t, BAD_CAST "man-reference-note", BAD_CAST DOCS_NS,
                            fn_man_reference_note);
}
