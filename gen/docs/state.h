/* What the files of gen/docs share inside one run of the templates: the
 * run's state (the model looked up by id, the diagnostics said so far) and
 * the pieces each file offers the others. Not for use outside gen/docs:
 * docs.h is the interface. */
#ifndef JVMTIGEN_DOCS_STATE_H
#define JVMTIGEN_DOCS_STATE_H

#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>

#include <libxml/tree.h>
#include <libxslt/transform.h>

#include "base/diag.h"
#include "docs/docs.h"

/* crossref.c: the spec's tree indexed once per run for the templates'
 * cross-references (what their xsl:key declarations held). The lists are
 * Vec*s of elements, in document order. */
typedef struct DocsIndex {
    Arena *strings;      /* the keys not in the tree */
    Vec lists;           /* the Vecs, to free */
    StrMap anchors;      /* id -> the elements defining that anchor of the page */
    StrMap capabilities; /* "KIND ID" -> the capabilities' children, the structure's fields */
    StrMap releases;     /* release -> its changes in the change history */
    StrMap type_names;   /* text -> the struct and enum elements saying it */
    StrMap type_pages;   /* id -> the elements with a man page of their own */
    Vec all_type_pages;  /* those elements, with an id or not */
} DocsIndex;

typedef struct DocsState {
    const GenContext *ctx;
    StrMap functions, events, callbacks; /* id -> item */
    StrMap types;       /* id -> item: structs, unions, callbacks, constant groups */
    StrMap members;     /* "Owner.name" -> Param* */
    Arena *keys;        /* the "Owner.name" strings */
    StrMap error_users; /* error id -> Vec* of Function* */
    Vec vecs;           /* the Vecs above, to free */
    Vec *deps;
    Buf messages;        /* libxslt's error text, collected */
    Vec files;           /* file names diagnostics point at */
    StrMap said;         /* "file:line: message" already reported */
    int repeated_errors; /* errors not reported again */
    DocsIndex index;     /* the spec's tree, once crossref_build has run */
    Buf scratch;         /* string_function's result, made here and copied */
} DocsState;

/* state.c: the lookups of the extension functions, from ctx's model. */
void state_init(DocsState *st, const GenContext *ctx, Vec *deps);
void state_free(DocsState *st);

/* messages.c: libxml2's and libxslt's diagnostics as FILE:LINE: error:
 * lines, each said once. messages_start routes them (and the sandbox's
 * refusals) to st until messages_stop. */
void messages_start(DocsState *st);
void messages_stop(void);
void on_refused(const char *file, int line, bool warning, const char *message);
/* A copy of name that lives as long as st (diagnostics point at it). */
const char *keep_name(DocsState *st, const char *name);
/* Errors so far, those said once but repeated included. */
int errors_so_far(const DocsState *st);
/* Turns the collected libxslt text into diagnostics (at fallback_file when
 * it names no place). */
void flush_messages(DocsState *st, const char *fallback_file);

/* functions.c and roff.c: the extension functions (namespace DOCS_NS). */
void register_functions(xsltTransformContextPtr t);
void register_roff_functions(xsltTransformContextPtr t);
/* crossref.c: the index of doc (freed by crossref_free) and the functions
 * answering from it (registered by register_functions). */
void crossref_build(DocsIndex *x, xmlDocPtr doc);
void crossref_free(DocsIndex *x);
void register_crossref_functions(xsltTransformContextPtr t);
/* summary.c: jg:summary and jg:call-form (registered by register_functions). */
void register_summary_functions(xsltTransformContextPtr t);
/* s with its white space collapsed and trimmed, as XPath's normalize-space()
 * makes it, appended to out. */
void put_normalized(Buf *out, const char *s);
/* The first sentence of n's prose on one line (jg:summary), appended to out. */
void summary_text(Buf *out, xmlNodePtr n);
/* pagefacts.c: the page's own fact functions (registered by register_functions). */
void register_page_functions(xsltTransformContextPtr t);
/* Row i (0 to n_named_versions, the last JVMTI_VERSION) of jg:versions():
 * false where jvmti.h does not name that version for v. */
bool version_row(const JvmtiVersion *v, int i, const char **name, char value[16], char since[24]);
/* The run's state, NULL outside a transformation. */
DocsState *state_of(xmlXPathParserContextPtr pc);
/* A result tree fragment owned by the transformation (freed with it). */
xmlDocPtr new_fragment(xmlXPathParserContextPtr pc);
/* A new element NAME at the end of frag, added to set. */
xmlNodePtr add_element(xmlDocPtr frag, xmlNodeSetPtr set, const char *name);
/* roff.c: the <jg:roff/> instruction, for every stylesheet compiled after. */
void register_roff_elements(void);
/* manroff.c: the man pages' fact sections in roff (jg:man-errors, ...). */
void register_man_functions(xsltTransformContextPtr t);
/* roff.c: S appended as jg:roff-text(S) renders it. */
void roff_text_append(Buf *b, const char *s);
/* roff.c: S appended as jg:roff-arg(S) and jg:roff-escape(S) render it. */
void roff_arg_append(Buf *b, const char *s);
void roff_escape_append(Buf *b, const char *s);
/* functions.c: a parameter's or field's key, "OWNER.ID" (OWNER the id of
 * its nearest ancestor with one), and what jg:ctype and jg:reference say
 * of the member of that key. */
void member_key(Buf *key, xmlNodePtr n);
void member_ctype(Buf *b, const char *key, const DocsState *st);
void member_reference(Buf *b, const char *key, const DocsState *st);
/* functions.c: jg:prototype's and jg:event-typedef's text of an id;
 * summary.c: jg:call-form's. */
void prototype(Buf *b, const char *id, const DocsState *st);
void event_typedef(Buf *b, const char *id, const DocsState *st);
void call_form(Buf *b, const char *id, const DocsState *st);
/* functions.c: the facts under a function's prototype, on the page and
 * the man pages (jg:facts): its phases, callback safety, the capabilities
 * it needs, its release, in that order; caps (which text[2] is) to free. */
#define FUNCTION_FACTS 4
typedef struct FunctionFacts {
    const char *text[FUNCTION_FACTS];
    Buf caps;
    char since[64];
} FunctionFacts;
void function_facts(FunctionFacts *x, const Function *f);
/* roff.c: S appended as jg:roff-lines(S) renders it. */
void roff_lines_append(Buf *b, const char *s);
/* Helpers of the extension functions. */
void push_string(xmlXPathParserContextPtr pc, const char *s);
xmlChar *one_arg(xmlXPathParserContextPtr pc, int nargs);
/* Pops one node-set argument into *set; false (with the error set) on a
 * wrong arity or another type. */
bool one_node_set(xmlXPathParserContextPtr pc, int nargs, xmlNodeSetPtr *set);
/* The value of an element's id attribute (no namespace), as XPath's @id
 * reads it; NULL when it has none. *copy is what to xmlFree after. */
const char *id_value(xmlNodePtr n, xmlChar **copy);
/* A function of one string argument whose result is a string: render
 * appends the result to b (st is NULL outside a transformation). The part
 * they share: the argument (an arity error without one), the result, the
 * freeing. */
void string_function(xmlXPathParserContextPtr pc, int nargs,
                     void (*render)(Buf *b, const char *arg, const DocsState *st));

/* render.c */
DocFile *add_file(DocsResult *res, const char *name);

/* htmlsave.c: an HTML result document of style appended to out, the bytes
 * xsltSaveResultToString makes of it. 0, or -1 when it makes none. */
int save_html(xmlDocPtr doc, xsltStylesheetPtr style, Buf *out);

/* xslns.c: the XSLT namespace's declarations in a compiled stylesheet's
 * trees pointed at libxslt's own copy of the name (its every "is this an
 * XSLT instruction?" then a pointer comparison), and given back before
 * xsltFreeStylesheet. */
typedef struct XsltNsShare {
    Vec kept; /* pairs: the xmlNs, the href it had */
} XsltNsShare;
void xslt_ns_share(XsltNsShare *share, xsltStylesheetPtr style);
/* libxslt's own copy of the name, or NULL when it has none or several. */
const xmlChar *xslt_ns_constant(void);
void xslt_ns_unshare(XsltNsShare *share);

/* manpages.c: the man page stylesheet's <pages> into res's files. 0 or 1. */
int split_pages(xmlDocPtr pages, const char *file, DocsResult *res);

/* helper.c: the process that renders jvmti.html. */
pid_t start_helper(int *fd);
int send_page(int fd, int rc, const Buf *page, const Vec *deps, size_t first);
void collect_helper(pid_t pid, int fd, DocsResult *res, Buf *page, Vec *deps, int *rc);
int wait_for(pid_t pid);

/* memlimit.c: the templates' memory: the resident size may grow by at most
 * DOCS_MAX_MEMORY while they run (between start_memory_limit, which
 * installs the allocation hooks, and stop_memory_limit); their small blocks
 * come from an arena, which xmlFree still knows after stop_memory_limit
 * (the hooks then stay, new blocks malloc's). */
#define DOCS_MAX_MEMORY ((long long)2048 << 20)
void start_memory_limit(const char *templates);
void stop_memory_limit(void);

/* timelimit.c: --time-limit over the templates. */
void start_time_limit(const char *templates, unsigned seconds, struct sigaction *old);
/* In the parent: the helper to kill at the limit. */
void time_limit_helper(pid_t pid);
/* In the helper: its own limit, a second after its parent's. */
void time_limit_in_helper(unsigned seconds);
void stop_time_limit(struct sigaction *old);

#endif
