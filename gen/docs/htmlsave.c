/* jvmti.html's result tree into bytes: what xsltSaveResultToString writes
 * for an HTML output without indenting, byte for byte, at a fraction of its
 * cost. libxml2's HTML serializer looked each element up in its table of
 * HTML elements by a case-blind scan (a hundred comparisons), escaped each
 * text into a fresh buffer and appended it through its output buffer: about
 * 84 instructions per byte of the page, 117M on JDK 25 (issue 37). Here the
 * element and attribute facts come from libxml2 itself (htmlTagLookup,
 * htmlIsBooleanAttr), asked once per name, and the text is escaped straight
 * into the page.
 *
 * The rules are libxml2's (HTMLtree.c, entities.c, uri.c) for the nodes an
 * HTML result holds: elements and attributes without a namespace, text
 * (escaped, or as it is where disable-output-escaping made it, or inside
 * script and style), comments. Anything else, or a text libxml2 treats in
 * a way of its own (a control character, "<!--" or "&{" in an attribute),
 * and the page is written by libxml2's serializer instead: the output is
 * the same either way, only its cost differs. */
#include "docs/state.h"

#include <stdint.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parserInternals.h>
#include <libxslt/imports.h>
#include <libxslt/xsltutils.h>

/* What a name means as an element's or an attribute's (one name can be
 * both: title). */
enum {
    NAME_KNOWN = 1,    /* the rest is set */
    NAME_EMPTY = 2,    /* a void element: no end tag, its children not written */
    NAME_NO_END = 4,   /* when empty, no end tag (htmlElemDesc's saveEndTag) */
    NAME_RAW = 8,      /* script, style: text inside as it is */
    NAME_BOOLEAN = 16, /* an attribute written without its value */
    NAME_URI = 32,     /* href, action, src: the value URI-escaped */
    NAME_NAME = 64,    /* name: URI-escaped on an <a> */
    NAME_A = 128,
};

#define NAME_SLOTS 512 /* a power of 2; the page uses under 100 names */

typedef struct Saver {
    Buf *out;
    Buf value; /* an attribute's value, escaped */
    struct {
        const xmlChar *name;
        unsigned flags;
    } names[NAME_SLOTS];
} Saver;

static unsigned name_flags_of(const xmlChar *name)
{
    unsigned f = NAME_KNOWN;
    const htmlElemDesc *info = htmlTagLookup(name);
    if (info && info->empty)
        f |= NAME_EMPTY;
    if (info && info->saveEndTag && strcmp(info->name, "html") != 0 &&
        strcmp(info->name, "body") != 0)
        f |= NAME_NO_END;
    if (!xmlStrcasecmp(name, BAD_CAST "script") || !xmlStrcasecmp(name, BAD_CAST "style"))
        f |= NAME_RAW;
    if (htmlIsBooleanAttr(name))
        f |= NAME_BOOLEAN;
    if (!xmlStrcasecmp(name, BAD_CAST "href") || !xmlStrcasecmp(name, BAD_CAST "action") ||
        !xmlStrcasecmp(name, BAD_CAST "src"))
        f |= NAME_URI;
    if (!xmlStrcasecmp(name, BAD_CAST "name"))
        f |= NAME_NAME;
    if (!xmlStrcasecmp(name, BAD_CAST "a"))
        f |= NAME_A;
    return f;
}

/* The result's names come from a dictionary, so a name is known by its
 * pointer; one not in the table (it is full) is worked out again. */
static unsigned name_flags(Saver *s, const xmlChar *name)
{
    uintptr_t h = ((uintptr_t)name >> 4) * 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < NAME_SLOTS; i++) {
        size_t k = ((size_t)(h >> 40) + i) & (NAME_SLOTS - 1);
        if (s->names[k].name == name)
            return s->names[k].flags;
        if (!s->names[k].name) {
            s->names[k].name = name;
            s->names[k].flags = name_flags_of(name);
            return s->names[k].flags;
        }
    }
    return name_flags_of(name);
}

/* Byte classes of the escapes (entities.c's xmlEncodeEntitiesInternal in
 * an HTML document): 0 copied, 1 '<', 2 '>', 3 '&', 4 a control character
 * (libxml2's own case: the page goes to its serializer), 5 the end. */
static unsigned char esc_class[256];
/* Bytes xmlURIEscapeStr keeps in an href (unreserved, and the list
 * HTMLtree.c gives it: "@/:=?;#%&,+"). */
static bool uri_keep[256];

static void init_tables(void)
{
    for (int c = 0; c < 256; c++) {
        esc_class[c] = c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? 4 : 0;
        uri_keep[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      (c && strchr("-_.!~*'()@/:=?;#%&,+", c));
    }
    esc_class['<'] = 1;
    esc_class['>'] = 2;
    esc_class['&'] = 3;
    esc_class[0] = 5;
}

/* Appends text escaped; in an attribute (attr), "<!--" and "&{" are
 * libxml2's own cases. false: the page goes to libxml2. */
static bool put_escaped(Buf *b, const unsigned char *t, bool attr)
{
    for (;;) {
        const unsigned char *run = t;
        while (!esc_class[*t])
            t++;
        if (t > run)
            buf_put(b, (const char *)run, (size_t)(t - run));
        switch (esc_class[*t]) {
        case 1:
            if (attr && t[1] == '!')
                return false;
            buf_put(b, "&lt;", 4);
            break;
        case 2: buf_put(b, "&gt;", 4); break;
        case 3:
            if (attr && t[1] == '{')
                return false;
            buf_put(b, "&amp;", 5);
            break;
        case 4: return false;
        default: return true;
        }
        t++;
    }
}

/* An attribute as htmlAttrDumpOutput writes it. */
static bool put_attr(Saver *s, xmlAttrPtr a, unsigned elem_flags)
{
    if (a->type != XML_ATTRIBUTE_NODE || a->ns)
        return false;
    Buf *b = s->out;
    unsigned f = name_flags(s, a->name);
    buf_putc(b, ' ');
    buf_puts(b, (const char *)a->name);
    if (!a->children || (f & NAME_BOOLEAN))
        return true;
    /* xmlNodeListGetString: the texts, each escaped */
    buf_reset(&s->value);
    for (xmlNodePtr t = a->children; t; t = t->next) {
        if (t->type != XML_TEXT_NODE)
            return false;
        if (t->content && !put_escaped(&s->value, t->content, true))
            return false;
    }
    const char *v = s->value.data ? s->value.data : "";
    buf_putc(b, '=');
    if ((f & NAME_URI) || ((f & NAME_NAME) && (elem_flags & NAME_A))) {
        while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
            v++;
        buf_putc(b, '"');
        for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
            if (uri_keep[*p]) {
                buf_putc(b, (char)*p);
            } else {
                char hex[3] = {'%', "0123456789ABCDEF"[*p >> 4], "0123456789ABCDEF"[*p & 15]};
                buf_put(b, hex, 3);
            }
        }
        buf_putc(b, '"');
    } else {
        /* xmlBufWriteQuotedString: in '...' when it holds a " and no ',
         * in "..." with &quot; when it holds both */
        bool dq = strchr(v, '"') != NULL, both = dq && strchr(v, '\'') != NULL;
        char q = dq && !both ? '\'' : '"';
        buf_putc(b, q);
        for (const char *e; both && (e = strchr(v, '"')); v = e + 1) {
            buf_put(b, v, (size_t)(e - v));
            buf_put(b, "&quot;", 6);
        }
        buf_puts(b, v);
        buf_putc(b, q);
    }
    return true;
}

/* htmlNodeDumpFormatOutput's walk (no indenting) over the document's
 * children. false: something libxml2 alone writes. */
static bool put_tree(Saver *s, xmlDocPtr doc)
{
    Buf *b = s->out;
    xmlNodePtr parent = (xmlNodePtr)doc, cur = doc->children;
    unsigned parent_flags = 0; /* the document's children are in no element */
    while (cur) {
        bool down = false;
        switch (cur->type) {
        case XML_ELEMENT_NODE: {
            if (cur->ns || cur->nsDef || cur->parent != parent)
                return false;
            unsigned f = name_flags(s, cur->name);
            buf_putc(b, '<');
            buf_puts(b, (const char *)cur->name);
            for (xmlAttrPtr a = cur->properties; a; a = a->next)
                if (!put_attr(s, a, f))
                    return false;
            if (f & NAME_EMPTY) {
                buf_putc(b, '>');
            } else if (!cur->children) {
                if (f & NAME_NO_END) {
                    buf_putc(b, '>');
                } else {
                    buf_put(b, "></", 3);
                    buf_puts(b, (const char *)cur->name);
                    buf_putc(b, '>');
                }
            } else {
                buf_putc(b, '>');
                down = true;
            }
            break;
        }
        case XML_TEXT_NODE:
            if (!cur->content)
                break;
            if (cur->name == xmlStringTextNoenc || (parent_flags & NAME_RAW))
                buf_puts(b, (const char *)cur->content);
            else if (!put_escaped(b, cur->content, false))
                return false;
            break;
        case XML_COMMENT_NODE:
            if (cur->content) {
                buf_put(b, "<!--", 4);
                buf_puts(b, (const char *)cur->content);
                buf_put(b, "-->", 3);
            }
            break;
        default: return false;
        }
        if (down) {
            parent = cur;
            parent_flags = name_flags(s, cur->name);
            cur = cur->children;
            continue;
        }
        /* on to the next node, closing the elements this one ends */
        while (!cur->next) {
            cur = parent;
            if (cur == (xmlNodePtr)doc)
                return true;
            parent = cur->parent;
            parent_flags = parent->type == XML_ELEMENT_NODE ? name_flags(s, parent->name) : 0;
            buf_put(b, "</", 2);
            buf_puts(b, (const char *)cur->name);
            buf_putc(b, '>');
        }
        cur = cur->next;
    }
    return true;
}

/* libxml2's serializer, as xsltSaveResultTo calls it for HTML (the meta
 * element already set). */
static void libxml2_save(xmlDocPtr doc, const char *encoding, Buf *out)
{
    xmlOutputBufferPtr ob = xmlAllocOutputBuffer(NULL);
    if (!ob)
        die_out_of_memory();
    htmlDocContentDumpFormatOutput(ob, doc, encoding, 0);
    xmlOutputBufferFlush(ob);
    const xmlChar *text = xmlOutputBufferGetContent(ob);
    if (text)
        buf_put(out, (const char *)text, xmlOutputBufferGetSize(ob));
    xmlOutputBufferClose(ob);
}

int save_html(xmlDocPtr doc, xsltStylesheetPtr style, Buf *out)
{
    const xmlChar *method, *encoding;
    int indent;
    XSLT_GET_IMPORT_PTR(method, style, method)
    XSLT_GET_IMPORT_PTR(encoding, style, encoding)
    XSLT_GET_IMPORT_INT(indent, style, indent)
    /* Only what xsltSaveResultToString makes of an HTML page in UTF-8
     * without indenting; anything else is left to it. */
    bool html = method ? xmlStrEqual(method, BAD_CAST "html") : doc->type == XML_HTML_DOCUMENT_NODE;
    if (style->methodURI || !html || indent != 0 || doc->type != XML_HTML_DOCUMENT_NODE ||
        (encoding && xmlStrcasecmp(encoding, BAD_CAST "UTF-8") != 0) || doc->intSubset ||
        !doc->children) {
        xmlChar *text = NULL;
        int len = 0;
        if (xsltSaveResultToString(&text, &len, doc, style) != 0)
            return -1;
        if (text)
            buf_put(out, (const char *)text, (size_t)len);
        xmlFree(text);
        return 0;
    }
    htmlSetMetaEncoding(doc, encoding ? encoding : BAD_CAST "UTF-8");
    if (!esc_class[0])
        init_tables();
    Saver *s = xcalloc(1, sizeof *s);
    s->out = out;
    buf_init(&s->value);
    size_t start = out->len;
    /* htmlDocContentDumpFormatOutput: the children, then a newline */
    if (put_tree(s, doc)) {
        buf_putc(out, '\n');
    } else {
        out->len = start;
        if (out->data)
            out->data[start] = '\0';
        libxml2_save(doc, (const char *)encoding, out);
    }
    buf_free(&s->value);
    free(s);
    return 0;
}
