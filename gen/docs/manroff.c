/* The man pages' fact sections in roff, written from the model in one
 * call each (jg:man-errors): lists the templates would otherwise build an
 * entry at a time, at several XPath evaluations an entry. Prose stays in
 * the templates; only what the model holds is written here, from the same
 * code the page's functions use (jg:errors' fn_errors_of and sentences). */
#include "docs/state.h"

#include <string.h>

#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>

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

void register_man_functions(xsltTransformContextPtr t)
{
    xsltRegisterExtFunction(t, BAD_CAST "man-errors", BAD_CAST DOCS_NS, fn_man_errors);
}
