/* jvmti.html's result tree into bytes: what xsltSaveResultToString writes
 * for an HTML output without indenting, byte for byte, at a fraction of its
 * cost. libxml2's HTML serializer looked each element up in its table of
 * HTML elements by a case-blind scan (a hundred comparisons), escaped each
 * text into a fresh buffer and appended it through its output buffer: about
 * 84 instructions per byte of the page, 117M on JDK 25 (issue 37). Here the
 * element and attribute facts come from libxml2 itself (htmlTagLookup,
 * htmlIsBooleanAttr), asked once per name, and the text is escaped straight
 * into the page: 16 bytes at a time (SSE2, where there is), with the room
 * for the worst case made first, and each name's length kept with its
 * facts (JDK 25: 27M -> 18M instructions for the 1.5 MB page).
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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
#define DEPTH 256      /* the open elements' names kept; deeper ones looked up */

/* A name's facts and length, asked once per name. */
typedef struct Name {
    const xmlChar *name;
    unsigned flags;
    size_t len;
} Name;

typedef struct Saver {
    Buf *out;
    char *o, *end; /* where the next byte of out goes; where its room ends (the NUL's kept) */
    Buf value;     /* an attribute's value, escaped */
    Name names[NAME_SLOTS];
    Name spare;       /* a name not in the table (it is full) */
    Name open[DEPTH]; /* the open elements, outermost first */
} Saver;

/* The page is written at s->o, with room made before each piece (a few
 * instructions a piece; buf_put's were a third of the cost). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
grow(Saver *s, size_t n)
{
    Buf *b = s->out;
    b->len = (size_t)(s->o - b->data);
    buf_grow(b, n);
    s->o = b->data + b->len;
    s->end = b->data + b->cap - 1;
}

static inline void room(Saver *s, size_t n)
{
    if ((size_t)(s->end - s->o) < n)
        grow(s, n);
}

static inline void put(Saver *s, const void *p, size_t n)
{
    room(s, n);
    memcpy(s->o, p, n);
    s->o += n;
}

static inline void put_c(Saver *s, char c)
{
    room(s, 1);
    *s->o++ = c;
}

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
static const Name *name_info(Saver *s, const xmlChar *name)
{
    size_t k = (size_t)(((uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15u) >> 55);
    for (size_t i = 0; i < NAME_SLOTS; i++, k = (k + 1) & (NAME_SLOTS - 1)) {
        Name *n = &s->names[k];
        if (n->name == name)
            return n;
        if (!n->name) {
            *n = (Name){name, name_flags_of(name), strlen((const char *)name)};
            return n;
        }
    }
    s->spare = (Name){name, name_flags_of(name), strlen((const char *)name)};
    return &s->spare;
}

static inline void put_name_end(Saver *s, const Name *n)
{
    room(s, n->len + 3);
    memcpy(s->o, "</", 2);
    memcpy(s->o + 2, n->name, n->len);
    s->o[n->len + 2] = '>';
    s->o += n->len + 3;
}

/* Byte classes of the escapes (entities.c's xmlEncodeEntitiesInternal in
 * an HTML document): 0 copied, 1 '<', 2 '>', 3 '&', 4 a control character
 * (libxml2's own case: the page goes to its serializer). */
static unsigned char esc_class[256];
static bool tables_made;
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
    tables_made = true;
}

#if defined(__SSE2__)
/* The bytes of 16 that esc_class does not copy, as a bit mask: a page's
 * text is mostly runs without one, copied 16 bytes at a time. */
static inline unsigned special_bytes(__m128i v)
{
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    __m128i space = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    __m128i markup = _mm_or_si128(
        _mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')), _mm_cmpeq_epi8(v, _mm_set1_epi8('&'))));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(space, ctl), markup));
}
#endif

/* Writes the n bytes at t escaped at o, which has room for the worst
 * case (every byte "&amp;") and 16 more; in an attribute (attr), "<!--"
 * and "&{" are libxml2's own cases. The end of what it wrote, or NULL:
 * the page goes to libxml2. */
static char *escape(char *o, const unsigned char *t, size_t n, bool attr)
{
    const unsigned char *end = t + n;
    for (;;) {
#if defined(__SSE2__)
        while (end - t >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)t);
            _mm_storeu_si128((__m128i *)(void *)o, v);
            unsigned m = special_bytes(v);
            if (m) {
                unsigned k = (unsigned)__builtin_ctz(m);
                t += k;
                o += k;
                goto special;
            }
            t += 16;
            o += 16;
        }
        if (t < end) {
            /* the last bytes, through a copy: nothing read past the text */
            size_t rest = (size_t)(end - t);
            unsigned char last[16] = {0};
            memcpy(last, t, rest);
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)last);
            _mm_storeu_si128((__m128i *)(void *)o, v);
            unsigned m = special_bytes(v) & ((1u << rest) - 1);
            if (!m)
                return o + rest;
            unsigned k = (unsigned)__builtin_ctz(m);
            t += k;
            o += k;
            goto special;
        }
#endif
        while (t < end && !esc_class[*t])
            *o++ = (char)*t++;
        if (t == end)
            return o;
#if defined(__SSE2__)
    special:
#endif
        switch (esc_class[*t]) {
        case 1:
            if (attr && t[1] == '!')
                return NULL;
            memcpy(o, "&lt;", 4);
            o += 4;
            break;
        case 2:
            memcpy(o, "&gt;", 4);
            o += 4;
            break;
        case 3:
            if (attr && t[1] == '{')
                return NULL;
            memcpy(o, "&amp;", 5);
            o += 5;
            break;
        default: return NULL;
        }
        t++;
    }
}

/* Writes text escaped into the page. false: the page goes to libxml2. */
static bool put_escaped(Saver *s, const xmlChar *t, bool attr)
{
    size_t n = strlen((const char *)t);
    room(s, 5 * n + 16);
    char *o = escape(s->o, t, n, attr);
    if (!o)
        return false;
    s->o = o;
    return true;
}

/* Appends an attribute's text escaped to b. false: the page goes to libxml2. */
static bool buf_put_escaped(Buf *b, const xmlChar *t)
{
    size_t n = strlen((const char *)t);
    buf_grow(b, 5 * n + 16);
    char *o = escape(b->data + b->len, t, n, true);
    if (!o)
        return false;
    *o = '\0';
    b->len = (size_t)(o - b->data);
    return true;
}

/* An attribute's value as htmlAttrDumpOutput writes it, after the name:
 * the texts (xmlNodeListGetString) each escaped, then URI-escaped or
 * quoted. */
static bool put_value(Saver *s, xmlAttrPtr a, unsigned f, unsigned elem_flags)
{
    bool uri = (f & NAME_URI) || ((f & NAME_NAME) && (elem_flags & NAME_A));
    xmlNodePtr t = a->children;
    const char *raw = (const char *)t->content;
    if (!uri && t->type == XML_TEXT_NODE && !t->next && raw) {
        /* one text (nearly every attribute): escaped straight into the
         * page; escaping adds no quote, so the quotes are the text's */
        bool dq = strchr(raw, '"') != NULL;
        if (!dq || !strchr(raw, '\'')) {
            char q = dq ? '\'' : '"';
            room(s, 2);
            *s->o++ = '=';
            *s->o++ = q;
            if (!put_escaped(s, t->content, true))
                return false;
            put_c(s, q);
            return true;
        }
    }
    buf_reset(&s->value);
    for (; t; t = t->next) {
        if (t->type != XML_TEXT_NODE)
            return false;
        if (t->content && !buf_put_escaped(&s->value, t->content))
            return false;
    }
    const char *v = s->value.data ? s->value.data : "";
    put_c(s, '=');
    if (uri) {
        while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
            v++;
        room(s, 3 * strlen(v) + 2);
        char *o = s->o;
        *o++ = '"';
        for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
            if (uri_keep[*p]) {
                *o++ = (char)*p;
            } else {
                *o++ = '%';
                *o++ = "0123456789ABCDEF"[*p >> 4];
                *o++ = "0123456789ABCDEF"[*p & 15];
            }
        }
        *o++ = '"';
        s->o = o;
    } else {
        /* xmlBufWriteQuotedString: in '...' when it holds a " and no ',
         * in "..." with &quot; when it holds both */
        bool dq = strchr(v, '"') != NULL, both = dq && strchr(v, '\'') != NULL;
        char q = dq && !both ? '\'' : '"';
        put_c(s, q);
        for (const char *e; both && (e = strchr(v, '"')); v = e + 1) {
            put(s, v, (size_t)(e - v));
            put(s, "&quot;", 6);
        }
        put(s, v, strlen(v));
        put_c(s, q);
    }
    return true;
}

/* An attribute as htmlAttrDumpOutput writes it. */
static bool put_attr(Saver *s, xmlAttrPtr a, unsigned elem_flags)
{
    if (a->type != XML_ATTRIBUTE_NODE || a->ns)
        return false;
    const Name *name = name_info(s, a->name);
    unsigned f = name->flags;
    room(s, name->len + 1);
    *s->o++ = ' ';
    memcpy(s->o, name->name, name->len);
    s->o += name->len;
    if (!a->children || (f & NAME_BOOLEAN))
        return true;
    return put_value(s, a, f, elem_flags);
}

/* htmlNodeDumpFormatOutput's walk (no indenting) over the document's
 * children. false: something libxml2 alone writes. */
static bool put_tree(Saver *s, xmlDocPtr doc)
{
    xmlNodePtr parent = (xmlNodePtr)doc, cur = doc->children;
    unsigned parent_flags = 0; /* the document's children are in no element */
    size_t depth = 0;          /* of cur */
    while (cur) {
        bool down = false;
        Name name; /* a copy: the spare one is the next name's */
        switch (cur->type) {
        case XML_ELEMENT_NODE: {
            if (cur->ns || cur->nsDef || cur->parent != parent)
                return false;
            name = *name_info(s, cur->name);
            unsigned f = name.flags;
            room(s, name.len + 1);
            *s->o++ = '<';
            memcpy(s->o, name.name, name.len);
            s->o += name.len;
            for (xmlAttrPtr a = cur->properties; a; a = a->next)
                if (!put_attr(s, a, f))
                    return false;
            put_c(s, '>');
            if (f & NAME_EMPTY)
                break;
            if (cur->children)
                down = true;
            else if (!(f & NAME_NO_END))
                put_name_end(s, &name);
            break;
        }
        case XML_TEXT_NODE:
            if (!cur->content)
                break;
            if (cur->name == xmlStringTextNoenc || (parent_flags & NAME_RAW))
                put(s, cur->content, strlen((const char *)cur->content));
            else if (!put_escaped(s, cur->content, false))
                return false;
            break;
        case XML_COMMENT_NODE:
            if (cur->content) {
                put(s, "<!--", 4);
                put(s, cur->content, strlen((const char *)cur->content));
                put(s, "-->", 3);
            }
            break;
        default: return false;
        }
        if (down) {
            if (depth < DEPTH)
                s->open[depth] = name;
            depth++;
            parent = cur;
            parent_flags = name.flags;
            cur = cur->children;
            continue;
        }
        /* on to the next node, closing the elements this one ends */
        while (!cur->next) {
            cur = parent;
            if (cur == (xmlNodePtr)doc)
                return true;
            parent = cur->parent;
            depth--; /* cur's */
            put_name_end(s, depth < DEPTH ? &s->open[depth] : name_info(s, cur->name));
            parent_flags = !depth              ? 0
                           : depth - 1 < DEPTH ? s->open[depth - 1].flags
                                               : name_info(s, parent->name)->flags;
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
    if (!tables_made)
        init_tables();
    Saver *s = xcalloc(1, sizeof *s);
    s->out = out;
    buf_init(&s->value);
    size_t start = out->len;
    buf_grow(out, 1 << 16);
    s->o = out->data + out->len;
    s->end = out->data + out->cap - 1;
    /* htmlDocContentDumpFormatOutput: the children, then a newline */
    bool done = put_tree(s, doc);
    out->len = (size_t)(s->o - out->data);
    out->data[out->len] = '\0';
    if (done) {
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
