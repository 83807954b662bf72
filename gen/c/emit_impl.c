/* jvmtigen_impl.h: the functions a VM implements, one per JVM TI function.
 * The trampolines call them only after every check has passed; the comment
 * above each declaration says what the implementation may rely on. */
#include "c/emit.h"
#include "c/impl.h"

#include "model/ctype.h"

#include <stdlib.h>

/* The table a VM registers its implementations with (jvmtirt_config.impls):
 * explicit, so that symbol visibility cannot make a VM's function silently
 * lose to its weak default. Every function of the table, in slot order (slots
 * never move, so the struct only grows); `size` first, so that a VM compiled
 * against an older, shorter table still works. */
static void impls_table_append(const Spec *s, Buf *o)
{
    buf_puts(o,
             "\n/* ---- registering implementations ----\n"
             " * A VM fills one with its functions (members it leaves NULL keep the\n"
             " * NOT_AVAILABLE default; those of functions the runtime core implements\n"
             " * are not used) and passes it to the core at init. Start from\n"
             " * JVMTIRT_IMPL_TABLE_INIT: `size` tells a newer core where the VM's table ends. */\n"
             "typedef struct jvmtirt_impl_table {\n    size_t size;\n");
    int max = max_table_num(s);
    const Function **slot = table_slots(s);
    for (int n = 1; n <= max; n++) {
        if (!slot[n])
            continue;
        buf_printf(o, "    jvmtiError (*%s)", slot[n]->id);
        impl_params_append(o, slot[n]);
        buf_printf(o, "; /* %d */\n", n);
    }
    free(slot);
    buf_puts(o, "} jvmtirt_impl_table;\n\n"
                "#define JVMTIRT_IMPL_TABLE_INIT {.size = sizeof(jvmtirt_impl_table)}\n\n"
                "/* Makes the defaults (jvmtigen_defaults.c) call the table's members;\n"
                " * copies the first impls->size bytes (NULL: none). Before any call. */\n"
                "void jvmtigen_impls_register(const jvmtirt_impl_table *impls);\n"
                "/* The table `jvmtigen fill --core` keeps at the end of a VM's file. */\n"
                "extern const jvmtirt_impl_table jvmtirt_impls;\n"
                "/* For the function in slot num: 1 if the VM registered it, 0 if it is at\n"
                " * its default, -1 if there is no default (the runtime core implements it,\n"
                " * or no such slot). */\n"
                "int jvmtigen_impl_supplied(int num);\n"
                "/* 1 if a definition named jvmti_impl_ took the default's place in slot\n"
                " * num and is not the registered one (jvmtirt_init refuses). */\n"
                "int jvmtigen_impl_unregistered(int num);\n"
                "/* 1 if the function in slot num is the runtime core's and the table\n"
                " * registered has one for it too (never called: jvmtirt_init refuses). */\n"
                "int jvmtigen_impl_shadowed(int num);\n"
                "/* A function pointer, compared by address only. */\n"
                "typedef void (*jvmtigen_fn)(void);\n"
                "/* The runtime core's function in slot num, by its jvmti_impl_ name as\n"
                " * the linker resolved it (NULL: not the core's): jvmtirt_init refuses a\n"
                " * definition outside the core that took its place. */\n"
                "jvmtigen_fn jvmtigen_impl_core(int num);\n");
}

/* What the spec holds, as macros a preprocessor can test: the runtime core
 * and a VM are written once and built from any JDK's spec, compiling out
 * what that spec lacks (a function, an event, an error) and keying a rule
 * on the error that brings it (NotifyFramePop's DUPLICATE is JDK 25's). */
static void presence_append(const Spec *s, Buf *o)
{
    buf_puts(o, "\n/* ---- what this spec holds ----\n"
                " * JVMTIGEN_HAS_<name> is defined (1) for each function of the table, event,\n"
                " * capability and error of the spec, and JVMTIGEN_HAS_<function>_<error> for\n"
                " * each error a function lists of its own: code built from several specs\n"
                " * tests them with #ifdef to leave out what one spec lacks. */\n");
    for (size_t f = 0; f < s->n_functions; f++) { /* in the spec's order */
        const Function *fn = s->functions[f];
        if (!function_in_table(fn))
            continue;
        buf_printf(o, "#define JVMTIGEN_HAS_%s 1\n", fn->id);
        for (size_t i = 0; i < fn->n_errors; i++)
            buf_printf(o, "#define JVMTIGEN_HAS_%s_%s 1\n", fn->id, fn->errors[i]->id);
    }
    for (size_t i = 0; i < s->n_events; i++)
        buf_printf(o, "#define JVMTIGEN_HAS_%s 1\n", s->events[i]->id);
    if (s->capabilities)
        for (size_t i = 0; i < s->capabilities->n_fields; i++)
            buf_printf(o, "#define JVMTIGEN_HAS_%s 1\n", s->capabilities->fields[i]->id);
    for (size_t i = 0; i < s->n_errors; i++)
        buf_printf(o, "#define JVMTIGEN_HAS_%s 1\n", s->errors[i]->id);
}

void emit_impl_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI implementation interface");
    buf_puts(o, "\n#ifndef JVMTIGEN_IMPL_H\n#define JVMTIGEN_IMPL_H\n\n#include "
                "<stddef.h>\n\n#include \"jvmti.h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    presence_append(s, o);
    for (size_t c = 0; c < s->n_categories; c++) {
        const Category *cat = s->categories[c];
        if (!category_in_table(cat))
            continue;
        category_banner_append(o, cat);
        for (size_t i = 0; i < cat->n_functions; i++) {
            const Function *f = cat->functions[i];
            if (!function_in_table(f))
                continue;
            buf_printf(o, "\n/* %s (slot %d, since %s). Checked before the call:\n", f->id, f->num,
                       f->since);
            Buf g;
            buf_init(&g);
            impl_guarantees_append(&g, f, " *   ");
            comment_text_append(o, g.data);
            buf_reset(&g);
            if (impl_unchecked_append(&g, f, " *   ") > 0) {
                buf_puts(o, " * NOT checked (the implementation must, e.g. with\n"
                            " * jvmtirt_resolve_thread): each may be\n");
                comment_text_append(o, g.data);
            }
            buf_free(&g);
            buf_puts(o, " */\n");
            impl_signature_append(o, f, " ");
            buf_puts(o, ";\n");
        }
    }
    impls_table_append(s, o);
    buf_puts(
        o, "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* JVMTIGEN_IMPL_H */\n");
}
