/* The XSLT namespace's name in the stylesheets' trees made the very string
 * libxslt compares it with, and given back before the trees are freed.
 *
 * libxslt asks whether a stylesheet node is an XSLT instruction with
 * xmlStrEqual(node->ns->href, XSLT_NAMESPACE) at each instruction it runs
 * (IS_XSLT_ELEM: the sequence constructor, xsl:choose, xsl:call-template's
 * parameters, ...). The href is the parser's copy, so each question compared
 * the 36 bytes of "http://www.w3.org/1999/XSL/Transform": about 220
 * instructions, 52M of a default run's 596M on JDK 25 (issue 37).
 * xmlStrEqual answers at once when both are the same pointer, so each
 * declaration of the namespace in the stylesheets is pointed at libxslt's
 * own constant, found in its read-only segments: only when exactly one copy
 * of the string is there (else there is no telling which one libxslt
 * uses, and nothing changes). The answers are the same either way; only
 * their cost differs.
 *
 * The parser's copies stay where they were, kept in XsltNsShare, and go
 * back into the trees before xsltFreeStylesheet frees them (it would free
 * the constant otherwise). */
#define _GNU_SOURCE /* dl_iterate_phdr, memmem */
#include "docs/state.h"

#include <link.h>
#include <stdint.h>
#include <string.h>

#include <libxslt/xsltInternals.h>

#define XSLT_NS_TEXT "http://www.w3.org/1999/XSL/Transform"

typedef struct {
    uintptr_t code;      /* an address inside libxslt */
    const xmlChar *name; /* the constant: one copy only */
    int copies;
} Search;

/* The copies of the name in the read-only segments of the object that
 * holds s->code. */
static int find_in_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    Search *s = arg;
    bool holds = false;
    for (int i = 0; i < info->dlpi_phnum && !holds; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + p->p_vaddr;
        holds = p->p_type == PT_LOAD && s->code >= start && s->code - start < p->p_memsz;
    }
    if (!holds)
        return 0;
    static const char text[] = XSLT_NS_TEXT;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_R) || (p->p_flags & PF_W))
            continue;
        const char *at = (const char *)(info->dlpi_addr + p->p_vaddr);
        const char *end = at + p->p_filesz;
        /* the whole string: a NUL before and after */
        for (const char *q = at; (q = memmem(q, (size_t)(end - q), text, sizeof text)) != NULL;
             q += sizeof text) {
            if (q > at && q[-1] == '\0') {
                s->copies++;
                s->name = (const xmlChar *)q;
            }
        }
    }
    return 1;
}

const xmlChar *xslt_ns_constant(void)
{
    static bool looked;
    static const xmlChar *name;
    if (!looked) {
        looked = true;
        /* the address of a libxslt function, as an integer (POSIX) */
        Search s = {.code = (uintptr_t)xsltApplyStylesheetUser};
        dl_iterate_phdr(find_in_object, &s);
        name = s.copies == 1 ? s.name : NULL;
    }
    return name;
}

static void share_doc(XsltNsShare *share, xmlDocPtr doc, const xmlChar *name)
{
    xmlNodePtr cur = doc ? doc->children : NULL;
    while (cur) {
        if (cur->type == XML_ELEMENT_NODE) {
            for (xmlNsPtr ns = cur->nsDef; ns; ns = ns->next) {
                if (ns->href && ns->href != name && xmlStrEqual(ns->href, name)) {
                    vec_push(&share->kept, ns);
                    vec_push(&share->kept, (void *)ns->href);
                    ns->href = name;
                }
            }
            if (cur->children) {
                cur = cur->children;
                continue;
            }
        }
        while (cur && !cur->next)
            cur = cur->parent == (xmlNodePtr)doc ? NULL : cur->parent;
        if (cur)
            cur = cur->next;
    }
}

static void share_style(XsltNsShare *share, xsltStylesheetPtr style, const xmlChar *name)
{
    for (; style; style = style->next) {
        share_doc(share, style->doc, name);
        for (xsltDocumentPtr d = style->docList; d; d = d->next)
            share_doc(share, d->doc, name);
        share_style(share, style->imports, name);
    }
}

void xslt_ns_share(XsltNsShare *share, xsltStylesheetPtr style)
{
    const xmlChar *name = xslt_ns_constant();
    if (name)
        share_style(share, style, name); /* the principal stylesheet has no next */
}

void xslt_ns_unshare(XsltNsShare *share)
{
    for (size_t i = 0; i + 1 < share->kept.n; i += 2) {
        xmlNsPtr ns = share->kept.items[i];
        ns->href = share->kept.items[i + 1];
    }
    vec_free(&share->kept);
}
