#define _DEFAULT_SOURCE /* realpath */
#include "docs/docs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xpathInternals.h>
#include <libxslt/documents.h>
#include <libxslt/extensions.h>
#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "c/ctype.h"
#include "base/diag.h"
#include "spec/errors.h"
#include "c/impl.h"
#include "base/output.h"
#include "docs/sandbox.h"
#include "base/status.h"

#ifndef JVMTIGEN_DATADIR
#define JVMTIGEN_DATADIR "/usr/local/share/jvmtigen"
#endif

/* ---- where the templates are ---- */

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* INSTALLED (below share/jvmtigen) or IN_TREE, beside the executable. The
 * installed layout is tried first: an installed jvmtigen must not take
 * PREFIX/templates, which is not its own, for its templates. */
static char *data_path(const char *argv0, const char *installed, const char *in_tree, bool dir)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
    } else if (argv0 && strchr(argv0, '/') && strlen(argv0) < sizeof exe) {
        strcpy(exe, argv0);
    } else {
        exe[0] = '\0';
    }
    char *slash = strrchr(exe, '/');
    if (slash) {
        *slash = '\0';
        const char *const rel[] = {"/../share/jvmtigen/", installed, "/../", in_tree};
        for (size_t i = 0; i < sizeof rel / sizeof *rel; i += 2) {
            Buf b;
            buf_init(&b);
            buf_printf(&b, "%s%s%s", exe, rel[i], rel[i + 1]);
            char real[PATH_MAX];
            if ((dir ? is_dir(b.data) : is_file(b.data)) && realpath(b.data, real)) {
                buf_free(&b);
                return xstrdup(real);
            }
            buf_free(&b);
        }
    }
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s/%s", JVMTIGEN_DATADIR, installed);
    return b.data;
}

char *docs_default_templates(const char *argv0)
{
    return data_path(argv0, "templates", "templates", true);
}

char *docs_default_spec(const char *argv0)
{
    return data_path(argv0, "jvmti.xml", "spec/jvmti.xml", false);
}

/* ---- state of one run ---- */

typedef struct DocsState {
    const GenContext *ctx;
    StrMap functions, events, callbacks; /* id -> item */
    StrMap members;                      /* "Owner.name" -> Param* */
    Arena *keys;                         /* the "Owner.name" strings */
    StrMap error_users;                  /* error id -> Vec* of Function* */
    Vec vecs;                            /* the Vecs above, to free */
    Vec *deps;
    Buf messages;                        /* libxslt's error text, collected */
    Vec files;                           /* file names diagnostics point at */
    StrMap said;                         /* "file:line: message" already reported */
    int repeated_errors;                 /* errors not reported again */
} DocsState;

static DocsState *cur; /* the loader and error handlers have no user data */

static void add_members(DocsState *st, const char *owner, Param **ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Buf b;
        buf_init(&b);
        buf_printf(&b, "%s.%s", owner, ps[i]->name);
        strmap_put(&st->members, arena_strdup(st->keys, b.data), ps[i]);
        buf_free(&b);
    }
}

static void add_error_user(DocsState *st, const char *error, const Function *f)
{
    Vec *v = strmap_get(&st->error_users, error);
    if (!v) {
        v = xcalloc(1, sizeof *v);
        strmap_put(&st->error_users, error, v);
        vec_push(&st->vecs, v);
    }
    if (v->n == 0 || v->items[v->n - 1] != f)
        vec_push(v, (void *)f);
}

static void state_init(DocsState *st, const GenContext *ctx, Vec *deps)
{
    memset(st, 0, sizeof *st);
    st->ctx = ctx;
    st->deps = deps;
    st->keys = arena_new();
    strmap_init(&st->functions);
    strmap_init(&st->events);
    strmap_init(&st->callbacks);
    strmap_init(&st->members);
    strmap_init(&st->error_users);
    strmap_init(&st->said);
    buf_init(&st->messages);
    const Spec *s = ctx->spec;
    for (size_t i = 0; i < s->n_functions; i++) {
        const Function *f = s->functions[i];
        strmap_put(&st->functions, f->id, (void *)f);
        add_members(st, f->id, f->params, f->n_params);
        /* Which functions can return each error: on entry or from the
         * implementation. */
        FnErrors fe = fn_errors_of(f);
        for (size_t k = 0; k < fe.n; k++)
            add_error_user(st, fe.items[k].error, f);
        fn_errors_free(&fe);
    }
    for (size_t i = 0; i < s->n_events; i++) {
        strmap_put(&st->events, s->events[i]->id, s->events[i]);
        add_members(st, s->events[i]->id, s->events[i]->params, s->events[i]->n_params);
    }
    for (size_t i = 0; i < s->n_callbacks; i++) {
        strmap_put(&st->callbacks, s->callbacks[i]->id, s->callbacks[i]);
        add_members(st, s->callbacks[i]->id, s->callbacks[i]->params,
                    s->callbacks[i]->n_params);
    }
    for (size_t i = 0; i < s->n_typedefs; i++)
        add_members(st, s->typedefs[i]->id, s->typedefs[i]->fields, s->typedefs[i]->n_fields);
}

static void state_free(DocsState *st)
{
    for (size_t i = 0; i < st->vecs.n; i++) {
        vec_free(st->vecs.items[i]);
        free(st->vecs.items[i]);
    }
    vec_free(&st->vecs);
    strmap_free(&st->functions);
    strmap_free(&st->events);
    strmap_free(&st->callbacks);
    strmap_free(&st->members);
    strmap_free(&st->error_users);
    strmap_free(&st->said);
    arena_free(st->keys);
    buf_free(&st->messages);
    for (size_t i = 0; i < st->files.n; i++)
        free(st->files.items[i]);
    vec_free(&st->files);
}

/* ---- diagnostics ---- */

static const char *keep_name(DocsState *st, const char *name)
{
    char *copy = xstrdup(name);
    vec_push(&st->files, copy);
    return copy;
}

/* A template's error at run time comes once per node it runs on: a call of
 * a missing named template inside a loop gave hundreds of equal lines. Each
 * (place, message) is reported once; it still counts as an error. */
static void report(DocsState *st, DiagLevel level, const Loc *loc, const char *msg)
{
    Buf key;
    buf_init(&key);
    buf_printf(&key, "%s:%d: %d %s", loc->file ? loc->file : "", loc->line, (int)level, msg);
    if (strmap_get(&st->said, key.data)) {
        st->repeated_errors += level == DIAG_ERROR;
        buf_free(&key);
        return;
    }
    strmap_put(&st->said, arena_strdup(st->keys, key.data), st);
    buf_free(&key);
    diag(level, loc, "%s", msg);
}

/* Errors so far, the ones not repeated included: a page whose only errors
 * were reported on an earlier page has failed too. */
static int errors_so_far(const DocsState *st)
{
    return diag_error_count() + st->repeated_errors;
}

/* libxml2's errors (a template that is not well-formed XML, a bad XPath
 * expression) come with a file and a line. */
static void on_xml_error(void *data, xmlErrorPtr e)
{
    (void)data;
    if (!e || e->level == XML_ERR_NONE || !cur)
        return;
    Loc loc = {e->file ? keep_name(cur, e->file) : NULL, e->line};
    report(cur, e->level == XML_ERR_WARNING ? DIAG_WARNING : DIAG_ERROR, &loc,
           e->message ? e->message : "XML error");
}

/* libxslt's come as printf pieces: a context line ("compilation error: file
 * F line N element E") and then the message. They are collected and turned
 * into FILE:LINE: error: lines by flush_messages. */
static void on_xslt_error(void *data, const char *fmt, ...)
{
    (void)data;
    if (!cur)
        return;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&cur->messages, fmt, ap);
    va_end(ap);
}

/* A line of messages that starts with HELD is a refusal of the sandbox
 * that came without a place (an xsl:include's file is opened with no
 * parser position): it is said at the place of libxslt's context line
 * that follows it, the include's. */
#define HELD '\001'

static void flush_messages(DocsState *st, const char *fallback_file)
{
    Loc loc = {fallback_file, 0};
    Vec held = {0};
    char *p = st->messages.data;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        char file[1024];
        int line;
        const char *ctx = strstr(p, "error: file ");
        if (*p == HELD) {
            vec_push(&held, p + 1);
        } else if (ctx && sscanf(ctx, "error: file %1023s line %d", file, &line) == 2) {
            loc.file = keep_name(st, file);
            loc.line = line;
            for (size_t i = 0; i < held.n; i++)
                report(st, DIAG_ERROR, &loc, held.items[i]);
            held.n = 0;
        } else if (*p) {
            report(st, DIAG_ERROR, &loc, p);
        }
        p = nl ? nl + 1 : NULL;
    }
    for (size_t i = 0; i < held.n; i++)
        report(st, DIAG_ERROR, &loc, held.items[i]);
    vec_free(&held);
    buf_reset(&st->messages);
}

/* The sandbox refused a read (sandbox.h). */
static void on_refused(const char *file, int line, const char *message)
{
    if (!cur)
        return;
    if (file) {
        Loc loc = {keep_name(cur, file), line};
        report(cur, DIAG_ERROR, &loc, message);
        return;
    }
    if (cur->messages.len && cur->messages.data[cur->messages.len - 1] != '\n')
        buf_putc(&cur->messages, '\n');
    buf_printf(&cur->messages, "%c%s\n", HELD, message);
}

/* ---- extension functions ---- */

static DocsState *state_of(xmlXPathParserContextPtr pc)
{
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    return t ? t->_private : NULL;
}

static void push_string(xmlXPathParserContextPtr pc, const char *s)
{
    valuePush(pc, xmlXPathNewString((const xmlChar *)s));
}

/* Pops one string argument; NULL (with the error set) on a wrong arity. */
static xmlChar *one_arg(xmlXPathParserContextPtr pc, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(pc);
        return NULL;
    }
    return xmlXPathPopString(pc);
}

static void params_lines(Buf *b, Param **ps, size_t n, bool first_done, const char *indent)
{
    bool first = !first_done;
    for (size_t i = 0; i < n; i++) {
        if (!param_in_signature(ps[i]))
            continue;
        if (!first)
            buf_printf(b, ",\n%s", indent);
        cparam_append(b, ps[i]);
        first = false;
    }
}

/* jg:prototype(ID): the C declaration of a function (as called through the
 * table), an event's handler or a callback type, laid out one parameter a
 * line. "" for an unknown id. */
static void fn_prototype(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *id = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!id || !st) {
        xmlFree(id);
        if (!st && id)
            push_string(pc, "");
        return;
    }
    const char *k = (const char *)id;
    const Function *f = strmap_get(&st->functions, k);
    const Event *e = strmap_get(&st->events, k);
    const Callback *c = strmap_get(&st->callbacks, k);
    Buf b;
    buf_init(&b);
    if (f) {
        buf_printf(&b, "jvmtiError\n%s(jvmtiEnv* env", f->id);
        params_lines(&b, f->params, f->n_params, true, "            ");
        buf_puts(&b, ")");
    } else if (e) {
        buf_printf(&b, "void JNICALL\n%s(jvmtiEnv *jvmti_env", e->id);
        params_lines(&b, e->params, e->n_params, true, "            ");
        buf_puts(&b, ")");
    } else if (c) {
        buf_puts(&b, "typedef ");
        ctype_append(&b, c->ret);
        buf_printf(&b, " (JNICALL *%s)\n    (", c->id);
        params_lines(&b, c->params, c->n_params, false, "     ");
        buf_puts(&b, ");");
    }
    push_string(pc, b.data ? b.data : "");
    buf_free(&b);
    xmlFree(id);
}

/* jg:event-typedef(EVENT): the event's callback typedef, laid out as
 * jvmti.h lays it out; "" for an unknown event. */
static void fn_event_typedef(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *id = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!id)
        return;
    const Event *e = st ? strmap_get(&st->events, (const char *)id) : NULL;
    Buf b;
    buf_init(&b);
    if (e) {
        buf_printf(&b, "typedef void (JNICALL *jvmtiEvent%s)\n    (jvmtiEnv *jvmti_env", e->id);
        params_lines(&b, e->params, e->n_params, true, "     ");
        buf_puts(&b, ");");
    }
    push_string(pc, b.data ? b.data : "");
    buf_free(&b);
    xmlFree(id);
}

/* jg:ctype("Owner.name"): the C type of a parameter or field, as jvmti.h
 * spells it ("const jvmtiClassDefinition*"); "" for an unknown one. */
static void fn_ctype(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *key = one_arg(pc, nargs);
    DocsState *st = state_of(pc);
    if (!key)
        return;
    const Param *p = st ? strmap_get(&st->members, (const char *)key) : NULL;
    Buf b;
    buf_init(&b);
    if (p && p->type->kind != TK_VARARGS)
        ctype_append(&b, p->type);
    else if (p)
        buf_puts(&b, "...");
    push_string(pc, b.data ? b.data : "");
    buf_free(&b);
    xmlFree(key);
}

/* A result tree fragment owned by the transformation (freed with it). */
static xmlDocPtr new_fragment(xmlXPathParserContextPtr pc)
{
    xsltTransformContextPtr t = xsltXPathGetTransformContext(pc);
    xmlDocPtr frag = t ? xsltCreateRVT(t) : NULL;
    if (frag)
        xsltRegisterLocalRVT(t, frag);
    return frag;
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
            xmlNodePtr c = xmlNewDocNode(frag, NULL, BAD_CAST "error", NULL);
            xmlAddChild((xmlNodePtr)frag, c);
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
            if (x->param && (x->kind == PE_ENUM || x->kind == PE_EVENT_TYPE) && x->param->type->name)
                xmlSetProp(c, BAD_CAST "type", BAD_CAST x->param->type->name);
            if (x->guard && x->guard->klass)
                xmlSetProp(c, BAD_CAST "class", BAD_CAST x->guard->klass->name);
            xmlXPathNodeSetAdd(set, c);
        }
        fn_errors_free(&fe);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
    xmlFree(id);
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
        xmlNodePtr c = xmlNewDocNode(frag, NULL, BAD_CAST "function", NULL);
        xmlAddChild((xmlNodePtr)frag, c);
        xmlSetProp(c, BAD_CAST "id", BAD_CAST f->id);
        xmlXPathNodeSetAdd(set, c);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
    xmlFree(id);
}

/* Roff escaping, done here because it runs on every text node of every
 * man page and costs several times more as XSLT string recursion. */
/* XML's white space (the S production), which man page text is made of. */
static bool is_xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Appends s[0..n) with each backslash as \e. */
static void roff_escape(Buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            buf_put(b, "\\e", 2);
        else
            buf_putc(b, s[i]);
    }
}

/* A line that would start with a dot or an apostrophe (a roff request) is
 * guarded with \&. */
static void roff_guard(Buf *b, const char *s, size_t n)
{
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        buf_put(b, "\\&", 2);
}

/* jg:roff-text(S): running text for roff: white space collapsed to single
 * blanks, one kept at either end where S had any; escaped; a leading dot
 * or apostrophe guarded. */
static void fn_roff_text(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *arg = one_arg(pc, nargs);
    if (!arg)
        return;
    const char *s = (const char *)arg;
    size_t len = strlen(s);
    Buf b;
    buf_init(&b);
    buf_puts(&b, "");
    bool lead = len > 0 && is_xml_space(s[0]);
    if (lead)
        buf_putc(&b, ' ');
    bool words = false;
    for (size_t i = 0; i < len;) {
        while (i < len && is_xml_space(s[i]))
            i++;
        size_t j = i;
        while (j < len && !is_xml_space(s[j]))
            j++;
        if (j > i) {
            if (words)
                buf_putc(&b, ' ');
            else
                roff_guard(&b, s + i, j - i);
            roff_escape(&b, s + i, j - i);
            words = true;
        }
        i = j;
    }
    if (words && is_xml_space(s[len - 1]))
        buf_putc(&b, ' ');
    push_string(pc, b.data);
    buf_free(&b);
    xmlFree(arg);
}

/* jg:roff-escape(S): S with each backslash as \e, nothing else changed. */
static void fn_roff_escape(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *arg = one_arg(pc, nargs);
    if (!arg)
        return;
    Buf b;
    buf_init(&b);
    buf_puts(&b, "");
    roff_escape(&b, (const char *)arg, strlen((const char *)arg));
    push_string(pc, b.data);
    buf_free(&b);
    xmlFree(arg);
}

/* jg:roff-lines(S): verbatim text for inside .nf/.fi: each line escaped
 * and guarded, the line breaks kept. */
static void fn_roff_lines(xmlXPathParserContextPtr pc, int nargs)
{
    xmlChar *arg = one_arg(pc, nargs);
    if (!arg)
        return;
    Buf b;
    buf_init(&b);
    buf_puts(&b, "");
    for (const char *p = (const char *)arg;;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        roff_guard(&b, p, n);
        roff_escape(&b, p, n);
        if (!nl)
            break;
        buf_putc(&b, '\n');
        p = nl + 1;
    }
    push_string(pc, b.data);
    buf_free(&b);
    xmlFree(arg);
}

/* jg:table-slots(): the slots of the function table, 1 to the highest, as
 * <slot num="" [function="" since=""]/> (no function: a reserved slot). */
static void fn_table_slots(xmlXPathParserContextPtr pc, int nargs)
{
    DocsState *st = state_of(pc);
    if (nargs != 0) {
        xmlXPathSetArityError(pc);
        return;
    }
    xmlNodeSetPtr set = xmlXPathNodeSetCreate(NULL);
    xmlDocPtr frag = st ? new_fragment(pc) : NULL;
    if (frag) {
        int max = max_table_num(st->ctx->spec);
        const Function **slot = table_slots(st->ctx->spec);
        for (int num = 1; num <= max; num++) {
            char text[16];
            snprintf(text, sizeof text, "%d", num);
            xmlNodePtr c = xmlNewDocNode(frag, NULL, BAD_CAST "slot", NULL);
            xmlAddChild((xmlNodePtr)frag, c);
            xmlSetProp(c, BAD_CAST "num", BAD_CAST text);
            if (slot[num]) {
                xmlSetProp(c, BAD_CAST "function", BAD_CAST slot[num]->id);
                xmlSetProp(c, BAD_CAST "since",
                           BAD_CAST(slot[num]->since ? slot[num]->since : "1.0"));
            }
            xmlXPathNodeSetAdd(set, c);
        }
        free(slot);
    }
    valuePush(pc, xmlXPathWrapNodeSet(set));
}

/* ---- rendering ---- */

static void quote_param(Vec *kv, const char *name, const char *value)
{
    vec_push(kv, (void *)name);
    vec_push(kv, (void *)value);
}

/* Compiles TEMPLATES/name. NULL on failure, with diagnostics queued and
 * *rc set. */
static xsltStylesheetPtr compile(DocsState *st, const char *templates, const char *name,
                                 const char **file_out, int *rc)
{
    Buf path;
    buf_init(&path);
    buf_printf(&path, "%s/%s", templates, name);
    const char *file = keep_name(st, path.data);
    *file_out = file;
    buf_free(&path);
    FILE *probe = fopen(file, "rb");
    if (!probe) {
        Loc l = {file, 0};
        error_at(&l, "cannot read template: %s", strerror(errno));
        *rc = EXIT_IO;
        return NULL;
    }
    fclose(probe);
    int before = errors_so_far(st);
    xsltStylesheetPtr style = xsltParseStylesheetFile(BAD_CAST file);
    flush_messages(st, file);
    if (!style || style->errors || errors_so_far(st) > before) {
        if (errors_so_far(st) == before) {
            Loc l = {file, 0};
            error_at(&l, "not a usable XSLT stylesheet");
        }
        if (style)
            xsltFreeStylesheet(style);
        *rc = EXIT_INVALID;
        return NULL;
    }
    return style;
}

/* Applies style to doc; the result document, or NULL with *rc set. */
static xmlDocPtr apply(DocsState *st, xsltStylesheetPtr style, xmlDocPtr doc, const char *file,
                       const char **params, int *rc)
{
    xsltTransformContextPtr t = xsltNewTransformContext(style, doc);
    if (!t) {
        error_at(NULL, "cannot create an XSLT transformation");
        *rc = EXIT_INVALID;
        return NULL;
    }
    t->_private = st;
    /* document() reads only what the sandbox allows; nothing is written
     * (exsl:document), no directory made. */
    xsltSetCtxtSecurityPrefs(sandbox_prefs(), t);
    xsltRegisterExtFunction(t, BAD_CAST "prototype", BAD_CAST DOCS_NS, fn_prototype);
    xsltRegisterExtFunction(t, BAD_CAST "ctype", BAD_CAST DOCS_NS, fn_ctype);
    xsltRegisterExtFunction(t, BAD_CAST "event-typedef", BAD_CAST DOCS_NS, fn_event_typedef);
    xsltRegisterExtFunction(t, BAD_CAST "table-slots", BAD_CAST DOCS_NS, fn_table_slots);
    xsltRegisterExtFunction(t, BAD_CAST "roff-text", BAD_CAST DOCS_NS, fn_roff_text);
    xsltRegisterExtFunction(t, BAD_CAST "roff-lines", BAD_CAST DOCS_NS, fn_roff_lines);
    xsltRegisterExtFunction(t, BAD_CAST "roff-escape", BAD_CAST DOCS_NS, fn_roff_escape);
    xsltRegisterExtFunction(t, BAD_CAST "errors", BAD_CAST DOCS_NS, fn_errors);
    xsltRegisterExtFunction(t, BAD_CAST "error-functions", BAD_CAST DOCS_NS,
                            fn_error_functions);
    xsltQuoteUserParams(t, params);
    /* JVMTIGEN_XSLT_PROFILE=1: libxslt's per-template profile on stderr,
     * for template authors. */
    const char *prof = getenv("JVMTIGEN_XSLT_PROFILE");
    FILE *profile = prof && *prof && strcmp(prof, "0") != 0 ? stderr : NULL;
    int before = errors_so_far(st);
    xmlDocPtr res = xsltApplyStylesheetUser(style, doc, NULL, NULL, profile, t);
    flush_messages(st, file);
    if (!res || t->state == XSLT_STATE_ERROR || t->state == XSLT_STATE_STOPPED ||
        errors_so_far(st) > before) {
        if (errors_so_far(st) == before) {
            Loc l = {file, 0};
            error_at(&l, "the transformation failed");
        }
        if (res)
            xmlFreeDoc(res);
        res = NULL;
        *rc = EXIT_INVALID;
    }
    xsltFreeTransformContext(t);
    return res;
}

static DocFile *add_file(DocsResult *res, const char *name)
{
    DocFile *f = xrealloc(res->files, (res->n + 1) * sizeof *f);
    res->files = f;
    f = &res->files[res->n++];
    f->name = xstrdup(name);
    buf_init(&f->data);
    return f;
}

/* A man page name is a plain file name. */
static bool good_page_name(const char *s)
{
    if (!*s || *s == '.')
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' || *s == '-'))
            return false;
    return true;
}

/* Layout hygiene of the roff a template wrote (the escaping is the
 * template's): outside .nf/.fi, blanks at the start and end of a line and
 * blank lines go (roff would take them as breaks), and so does a .PP right
 * after a macro that starts a paragraph anyway. */
static void roff_tidy(Buf *out, const char *text)
{
    bool verbatim = false;
    const char *prev = "";
    size_t prev_len = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *s = p;
        size_t len = n;
        if (!verbatim) {
            while (len && (*s == ' ' || *s == '\t'))
                s++, len--;
            while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
                len--;
        }
        bool para = len == 3 && strncmp(s, ".PP", 3) == 0;
        bool after_block = prev_len >= 3 && prev[0] == '.' &&
                           (strncmp(prev, ".PP", 3) == 0 || strncmp(prev, ".SH", 3) == 0 ||
                            strncmp(prev, ".SS", 3) == 0 || strncmp(prev, ".TP", 3) == 0 ||
                            strncmp(prev, ".IP", 3) == 0);
        if ((len > 0 || verbatim) && !(para && after_block)) {
            buf_put(out, s, len);
            buf_putc(out, '\n');
            prev = s;
            prev_len = len;
        }
        if (len == 3 && strncmp(s, ".nf", 3) == 0)
            verbatim = true;
        else if (len == 3 && strncmp(s, ".fi", 3) == 0)
            verbatim = false;
        p += n + (e ? 1 : 0);
    }
}

static int split_pages(DocsState *st, xmlDocPtr pages, const char *file, DocsResult *res)
{
    (void)st;
    Loc l = {file, 0};
    xmlNodePtr root = xmlDocGetRootElement(pages);
    if (!root || strcmp((const char *)root->name, "pages") != 0) {
        error_at(&l, "the man page stylesheet must produce <pages><page name=\"NAME.3\">...");
        return EXIT_INVALID;
    }
    StrMap seen;
    strmap_init(&seen);
    int rc = 0;
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *name = xmlGetProp(n, BAD_CAST "name");
        if (strcmp((const char *)n->name, "page") != 0 || !name ||
            !good_page_name((const char *)name)) {
            error_at(&l, "man page output: <%s name=\"%s\"> is not <page name=\"FILE\"> with "
                         "a plain file name", (const char *)n->name,
                     name ? (const char *)name : "");
            rc = EXIT_INVALID;
        } else {
            Buf path;
            buf_init(&path);
            buf_printf(&path, DOCS_MAN_DIR "/%s", (const char *)name);
            DocFile *f = add_file(res, path.data);
            buf_free(&path);
            if (strmap_put(&seen, f->name, f)) {
                error_at(&l, "man page output: two pages named '%s'", (const char *)name);
                rc = EXIT_INVALID;
            }
            xmlChar *text = xmlNodeGetContent(n);
            roff_tidy(&f->data, text ? (const char *)text : "");
            xmlFree(text);
        }
        xmlFree(name);
    }
    strmap_free(&seen);
    return rc;
}

/* ---- the helper process ----
 *
 * The two stylesheets are independent, so jvmti.html renders in a forked
 * copy of this process while this one renders the man pages: both cores
 * work at once. Threads would share the source tree, and libxslt writes to
 * the document it transforms (node order, the DTD's links); a fork gives
 * each transformation its own copy. The page comes back through a pipe:
 * the helper's status, the length, the bytes. */

/* Renders and serializes jvmti.html into page. The result tree is
 * returned for the caller to free (the helper frees it after the page is
 * on its way). */
static xmlDocPtr render_html(DocsState *st, xsltStylesheetPtr html, xmlDocPtr doc,
                             const char *file, const char **params, DocFile *page, int *rc)
{
    xmlDocPtr r = apply(st, html, doc, file, params, rc);
    if (r) {
        xmlChar *text = NULL;
        int len = 0;
        if (xsltSaveResultToString(&text, &len, r, html) == 0 && text)
            buf_put(&page->data, (const char *)text, (size_t)len);
        xmlFree(text);
    }
    return r;
}

/* Forks the helper. Returns 0 in the helper, its pid in the parent, -1
 * when everything is to be rendered here (JVMTIGEN_JOBS=1, the template
 * profile, or no fork to be had). *fd is the pipe's end for this side. */
static pid_t start_helper(int *fd)
{
    const char *jobs = getenv("JVMTIGEN_JOBS");
    const char *prof = getenv("JVMTIGEN_XSLT_PROFILE");
    if ((jobs && strcmp(jobs, "1") == 0) || (prof && *prof && strcmp(prof, "0") != 0))
        return -1;
    int p[2];
    if (pipe(p) != 0)
        return -1;
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        *fd = p[1];
        diag_reset(); /* what is queued is the parent's to print */
    } else {
        close(p[1]);
        *fd = p[0];
    }
    return pid;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The helper's status, the page, and the files its templates read (from
 * deps[first] on, each with its NUL), which the parent's depfile lists. */
static int send_page(int fd, int rc, const Buf *page, const Vec *deps, size_t first)
{
    uint32_t status = (uint32_t)rc;
    uint64_t len = rc == 0 ? page->len : 0;
    Buf read;
    buf_init(&read);
    for (size_t i = first; deps && i < deps->n; i++)
        buf_put(&read, deps->items[i], strlen(deps->items[i]) + 1);
    uint64_t read_len = read.len;
    int r = write_all(fd, &status, sizeof status) != 0 ||
                    write_all(fd, &len, sizeof len) != 0 ||
                    (len && write_all(fd, page->data, page->len) != 0) ||
                    write_all(fd, &read_len, sizeof read_len) != 0 ||
                    (read_len && write_all(fd, read.data, read.len) != 0)
                ? -1
                : 0;
    buf_free(&read);
    return r;
}

/* Appends the NUL-separated names in [p, p + n) to deps, each once. */
static void add_read(Vec *deps, const char *p, size_t n)
{
    if (!deps)
        return;
    for (const char *end = p + n; p < end; p += strlen(p) + 1) {
        bool seen = false;
        for (size_t i = 0; i < deps->n && !seen; i++)
            seen = strcmp(deps->items[i], p) == 0;
        if (!seen)
            vec_push(deps, xstrdup(p));
    }
}

static int wait_for(pid_t pid)
{
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    return wstatus;
}

/* Reads the helper's page into page. A helper that failed printed its own
 * diagnostics and is waited for here, so they come before ours; one that
 * died or said too little is an error here. A helper that sent its page is
 * still freeing its memory: res->helper_pid, for docs_wait. */
static void collect_helper(pid_t pid, int fd, DocsResult *res, Buf *page, Vec *deps, int *rc)
{
    Buf in;
    buf_init(&in);
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        buf_put(&in, chunk, (size_t)n);
    }
    close(fd);
    uint32_t status = 0;
    uint64_t len = 0, read_len = 0;
    const size_t head = sizeof status + sizeof len;
    if (in.len >= head) {
        memcpy(&status, in.data, sizeof status);
        memcpy(&len, in.data + sizeof status, sizeof len);
    }
    bool whole = in.len >= head && in.len - head >= len &&
                 in.len - head - len >= sizeof read_len;
    if (whole) {
        memcpy(&read_len, in.data + head + len, sizeof read_len);
        whole = in.len - head - len - sizeof read_len == read_len &&
                (read_len == 0 || in.data[in.len - 1] == '\0');
    }
    if (whole && status == 0) {
        buf_put(page, in.data + head, (size_t)len);
        add_read(deps, in.data + head + len + sizeof read_len, (size_t)read_len);
        res->helper_pid = pid;
    } else {
        int wstatus = wait_for(pid);
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
            if (*rc == 0) /* the helper said why, on stderr */
                *rc = WEXITSTATUS(wstatus);
        } else {
            if (WIFSIGNALED(wstatus))
                error_at(NULL, "the process rendering jvmti.html died (signal %d)",
                         WTERMSIG(wstatus));
            else
                error_at(NULL, "the process rendering jvmti.html ended without its page");
            *rc = EXIT_IO; /* not the spec's fault: an internal or I/O failure */
        }
    }
    buf_free(&in);
}

int docs_wait(DocsResult *res)
{
    if (res->helper_pid <= 0)
        return 0;
    int wstatus = wait_for(res->helper_pid);
    res->helper_pid = 0;
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
        return 0;
    if (WIFSIGNALED(wstatus))
        error_at(NULL, "the process rendering jvmti.html died after sending it (signal %d)",
                 WTERMSIG(wstatus));
    else
        error_at(NULL, "the process rendering jvmti.html failed after sending it (status %d)",
                 WEXITSTATUS(wstatus));
    return 1;
}

/* ---- the time limit ----
 * A template can run for ever (2^40 calls of a named template). At
 * --time-limit this process kills the helper, says so and exits 1: nothing
 * has been written yet (outputs are written after docs_render). The helper
 * has a second more, in case this process is gone. */
static char limit_message[PATH_MAX + 128];
static size_t limit_message_len;
static volatile sig_atomic_t limit_helper; /* its pid, in this process */
static volatile sig_atomic_t limit_in_helper;

static void on_time_limit(int sig)
{
    (void)sig;
    if (limit_in_helper)
        _exit(EXIT_INVALID);
    if (limit_helper > 0)
        kill((pid_t)limit_helper, SIGKILL);
    ssize_t w = write(STDERR_FILENO, limit_message, limit_message_len);
    (void)w;
    _exit(EXIT_INVALID);
}

static void start_time_limit(const char *templates, unsigned seconds, struct sigaction *old)
{
    int n = snprintf(limit_message, sizeof limit_message,
                     "%s: error: the templates ran longer than %u seconds (--time-limit); "
                     "one that never ends?\n",
                     templates, seconds);
    limit_message_len = n < 0 ? 0 : (size_t)n < sizeof limit_message ? (size_t)n
                                                                      : sizeof limit_message - 1;
    limit_helper = 0;
    limit_in_helper = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_time_limit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, old);
    alarm(seconds);
}

int docs_render(const GenContext *ctx, xmlDocPtr doc, const char *templates, unsigned seconds,
                DocsResult *res, Vec *deps, void (*meanwhile)(void *), void *arg)
{
    memset(res, 0, sizeof *res);
    DocsState st;
    state_init(&st, ctx, deps);
    cur = &st;
    struct sigaction old_alarm;
    if (seconds)
        start_time_limit(templates, seconds, &old_alarm);
    sandbox_open(templates, deps, on_refused);
    xsltSetGenericErrorFunc(NULL, on_xslt_error);
    xmlSetGenericErrorFunc(NULL, on_xslt_error);
    xmlSetStructuredErrorFunc(NULL, on_xml_error);

    char version[48], major[16];
    snprintf(version, sizeof version, "%d.%d.%d", ctx->version.major, ctx->version.minor,
             ctx->version.micro);
    snprintf(major, sizeof major, "%d", ctx->version.major);
    Vec kv = {0};
    Buf spec_name; /* a file name: any bytes, but the page is UTF-8 */
    buf_init(&spec_name);
    buf_put_utf8(&spec_name, ctx->spec_name ? ctx->spec_name : "");
    quote_param(&kv, "version", version);
    quote_param(&kv, "version-major", major);
    quote_param(&kv, "spec-name", spec_name.data ? spec_name.data : "");
    quote_param(&kv, "generator", "jvmtigen");
    vec_push(&kv, NULL);

    int rc = 0;
    const char *html_file, *man_file;
    xsltStylesheetPtr html = compile(&st, templates, "html.xsl", &html_file, &rc);
    xsltStylesheetPtr man = compile(&st, templates, "man.xsl", &man_file, &rc);
    if (html && man) {
        /* The page comes first in res; man pages are added after it (and
         * move res->files, so it is found by its index). */
        size_t page = res->n;
        add_file(res, "jvmti.html");
        int fd = -1;
        size_t read_before = deps ? deps->n : 0;
        pid_t pid = start_helper(&fd);
        if (pid > 0)
            limit_helper = pid;
        if (pid == 0) {
            /* The helper: jvmti.html to the parent, then back to the caller,
             * which frees everything and exits with rc. */
            res->helper = true;
            if (seconds) { /* a child has no alarm of its parent's */
                limit_in_helper = 1;
                alarm(seconds + 1);
            }
            xmlDocPtr r = render_html(&st, html, doc, html_file, (const char **)kv.items,
                                      &res->files[page], &rc);
            if (send_page(fd, rc, &res->files[page].data, deps, read_before) != 0 && rc == 0)
                rc = EXIT_IO;
            close(fd); /* the parent goes on; freeing is this process's own time */
            if (r)
                xmlFreeDoc(r);
        } else {
            if (meanwhile)
                meanwhile(arg);
            if (pid < 0) {
                xmlDocPtr h = render_html(&st, html, doc, html_file, (const char **)kv.items,
                                          &res->files[page], &rc);
                if (h)
                    xmlFreeDoc(h);
            }
            xmlDocPtr r = apply(&st, man, doc, man_file, (const char **)kv.items, &rc);
            if (r) {
                if (split_pages(&st, r, man_file, res) != 0)
                    rc = EXIT_INVALID;
                xmlFreeDoc(r);
            }
            if (pid > 0)
                collect_helper(pid, fd, res, &res->files[page].data, deps, &rc);
        }
    }
    if (html)
        xsltFreeStylesheet(html);
    if (man)
        xsltFreeStylesheet(man);
    vec_free(&kv);
    buf_free(&spec_name);
    if (seconds) {
        alarm(0);
        sigaction(SIGALRM, &old_alarm, NULL);
    }
    sandbox_close();
    xsltSetGenericErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    xmlSetStructuredErrorFunc(NULL, NULL);
    cur = NULL;
    diag_flush(); /* before the file names it points at are freed */
    state_free(&st);
    if (rc != 0)
        docs_result_free(res);
    return rc;
}

void docs_result_free(DocsResult *res)
{
    if (res->helper_pid > 0) /* not to leave a zombie; its status is docs_wait's */
        wait_for(res->helper_pid);
    res->helper_pid = 0;
    for (size_t i = 0; i < res->n; i++) {
        free(res->files[i].name);
        buf_free(&res->files[i].data);
    }
    free(res->files);
    res->files = NULL;
    res->n = 0;
}

static bool ours(const char *path)
{
    /* Only a regular file can be ours (a FIFO would block the read). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return false;
    }
    char line[64] = "";
    bool yes = fgets(line, sizeof line, f) &&
               strncmp(line, DOCS_MAN_MARKER, strlen(DOCS_MAN_MARKER)) == 0;
    fclose(f);
    return yes;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void docs_stale(const char *outdir, const DocsResult *res, Vec *paths)
{
    Buf dir;
    buf_init(&dir);
    buf_printf(&dir, "%s/" DOCS_MAN_DIR, outdir);
    DIR *d = opendir(dir.data);
    if (!d) {
        buf_free(&dir);
        return;
    }
    StrMap keep;
    strmap_init(&keep);
    for (size_t i = 0; i < res->n; i++) {
        const char *slash = strrchr(res->files[i].name, '/');
        strmap_put(&keep, slash ? slash + 1 : res->files[i].name, (void *)1);
    }
    size_t first = paths->n;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || n < 3 || strcmp(e->d_name + n - 2, ".3") != 0 ||
            strmap_get(&keep, e->d_name))
            continue;
        Buf p;
        buf_init(&p);
        buf_printf(&p, "%s/%s", dir.data, e->d_name);
        if (ours(p.data))
            vec_push(paths, p.data);
        else
            buf_free(&p);
    }
    closedir(d);
    /* readdir's order is the file system's: sort, for stable output. */
    if (paths->n - first > 1)
        qsort(paths->items + first, paths->n - first, sizeof *paths->items, str_cmp);
    strmap_free(&keep);
    buf_free(&dir);
}

int docs_prune(const char *outdir, const DocsResult *res, int verbose)
{
    Vec doomed = {0};
    int rc = 0;
    docs_stale(outdir, res, &doomed);
    for (size_t i = 0; i < doomed.n; i++) {
        /* Gone already (another hand removed it): what we wanted. */
        if (unlink(doomed.items[i]) != 0 && errno != ENOENT) {
            Loc l = {doomed.items[i], 0};
            error_at(&l, "cannot remove: %s", strerror(errno));
            diag_flush();
            rc = -1;
        } else if (verbose) {
            fprintf(stderr, "jvmtigen: removed %s\n", (char *)doomed.items[i]);
        }
        free(doomed.items[i]);
    }
    vec_free(&doomed);
    return rc;
}
