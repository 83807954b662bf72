/* jg:summary(NODE) and jg:call-form(ID): an item's one-line summary (the
 * NAME line of its man page, which apropos and whatis read) and a
 * function's call through the table, as a man page's SYNOPSIS shows it. */
#include "docs/state.h"

#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>

#include "c/impl.h"
#include "model/ctype.h"

static bool named(xmlNodePtr n, const char *const *names)
{
    for (; *names; names++)
        if (strcmp((const char *)n->name, *names) == 0)
            return true;
    return false;
}

/* Elements that begin a block: the first sentence never reaches past one. */
static const char *const blocks[] = {"p",       "ul",    "ol",         "dl",        "pre",
                                     "example", "table", "blockquote", "constants", NULL};
/* Elements whose text is not the item's prose. */
static const char *const skipped[] = {
    "issue", "todo", "elide", "rationale", "typedef", "uniontypedef", "capabilitiestypedef", NULL};

/* The text of n's children up to the first block (*stop then set): a link
 * without text as its id, <jvmti/> as "JVM TI", <vmspec/> as the book. */
static void inline_text(Buf *b, xmlNodePtr n, bool *stop)
{
    for (xmlNodePtr c = n->children; c && !*stop; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
            buf_puts(b, (const char *)c->content);
        } else if (c->type == XML_ELEMENT_NODE) {
            if (named(c, blocks)) {
                *stop = true;
            } else if (named(c, skipped)) {
                continue;
            } else if (strcmp((const char *)c->name, "jvmti") == 0) {
                buf_puts(b, "JVM TI");
            } else if (strcmp((const char *)c->name, "vmspec") == 0) {
                /* As the pages name it (man-prose.xsl, html-prose.xsl). */
                buf_puts(b, "The Java Virtual Machine Specification");
                xmlChar *chapter = xmlGetProp(c, BAD_CAST "chapter");
                if (chapter)
                    buf_printf(b, ", chapter %s", (const char *)chapter);
                xmlFree(chapter);
            } else if (!c->children) {
                xmlChar *id = xmlGetProp(c, BAD_CAST "id");
                if (id)
                    buf_puts(b, (const char *)id);
                xmlFree(id);
            } else {
                inline_text(b, c, stop);
            }
        }
    }
}

/* Whether the word that ends at s[end] (a dot) is an abbreviation, whose
 * dot ends no sentence ("e.g.", "i.e.", "etc."). */
static bool abbreviation(const char *s, size_t end)
{
    static const char *const words[] = {"e.g", "i.e", "etc", "vs", "cf", NULL};
    size_t start = end;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != '(')
        start--;
    for (const char *const *w = words; *w; w++)
        if (end - start == strlen(*w) && strncmp(s + start, *w, end - start) == 0)
            return true;
    return false;
}

void put_normalized(Buf *out, const char *s)
{
    size_t start = out->len;
    buf_put(out, "", 0);
    while (s && *s) {
        while (*s && is_xml_space(*s))
            s++;
        const char *w = s;
        while (*s && !is_xml_space(*s))
            s++;
        if (s > w) {
            if (out->len > start)
                buf_putc(out, ' ');
            buf_put(out, w, (size_t)(s - w));
        }
    }
}

/* The first sentence of n's prose (a description), on one line, without
 * its closing dot or colon, appended to out; nothing where n is NULL or has
 * no text. jg:summary, and the search list's summaries (pagefacts.c). */
void summary_text(Buf *out, xmlNodePtr n)
{
    Buf text, line;
    buf_init(&text);
    buf_init(&line);
    bool stop = false;
    if (n)
        inline_text(&text, n, &stop);
    put_normalized(&line, text.data);
    const char *s = line.data ? line.data : "";
    size_t len = line.len;
    for (size_t i = 0; i < line.len; i++)
        if ((s[i] == '.' || s[i] == ':') && (s[i + 1] == ' ' || s[i + 1] == '\0') &&
            !(s[i] == '.' && abbreviation(s, i))) {
            len = i;
            break;
        }
    buf_put(out, s, len);
    buf_free(&text);
    buf_free(&line);
}

/* jg:summary(NODE): summary_text of NODE's first node; "" where it has no
 * text. */
static void fn_summary(xmlXPathParserContextPtr pc, int nargs)
{
    xmlNodeSetPtr arg;
    if (!one_node_set(pc, nargs, &arg))
        return;
    Buf out;
    buf_init(&out);
    summary_text(&out, arg && arg->nodeNr > 0 ? arg->nodeTab[0] : NULL);
    push_string(pc, out.data ? out.data : "");
    buf_free(&out);
    xmlXPathFreeNodeSet(arg);
}

/* jg:call-form(ID): a function called through the table, with the names of
 * the prototype's parameters (impl.h's call_args_append, which the
 * trampolines' calls use), its lines broken before 72 columns:
 * "jvmtiError err = (*env)->Name(env, a, b);". "" for an unknown id. */
void call_form(Buf *b, const char *id, const DocsState *st)
{
    const Function *f = st ? strmap_get(&st->functions, id) : NULL;
    if (!f)
        return;
    Buf args;
    buf_init(&args);
    call_args_append(&args, f);
    size_t col = (size_t)b->len;
    buf_printf(b, "jvmtiError err = (*env)->%s(", f->id);
    col = b->len - col;
    /* args is "(env, a, b)": each argument after its "(" or ", ". */
    const char *p = args.data + 1;
    for (bool first = true; *p && *p != ')'; first = false) {
        const char *end = p + strcspn(p, ",)");
        size_t n = (size_t)(end - p);
        size_t need = n + (*end == ')' ? 2 : 1);
        if (!first && col + 1 + need > 72) {
            buf_puts(b, "\n    ");
            col = 4;
        } else if (!first) {
            buf_putc(b, ' ');
            col++;
        }
        buf_put(b, p, n);
        buf_putc(b, *end == ')' ? ')' : ',');
        col += n + 1;
        p = *end == ',' ? end + 2 : end;
    }
    buf_putc(b, ';');
    buf_free(&args);
}

static void fn_call_form(xmlXPathParserContextPtr pc, int nargs)
{
    string_function(pc, nargs, call_form);
}

void register_summary_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "summary", BAD_CAST DOCS_NS, fn_summary);
    xsltRegisterExtFunction(t, BAD_CAST "call-form", BAD_CAST DOCS_NS, fn_call_form);
}
