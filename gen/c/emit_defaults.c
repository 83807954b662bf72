/* jvmtigen_defaults.c: a default for every jvmti_impl_ function the runtime
 * core does not implement: it calls the function the VM registered
 * (config.impls), or returns JVMTI_ERROR_NOT_AVAILABLE. A VM linking the
 * runtime works from day one; registering is how it plugs a function in. */
#include "c/emit.h"

#include "c/core.h"
#include "c/impl.h"
#include "model/ctype.h"

#include <stdlib.h>

/* The switch over the VM's slots: registered or not. */
static void emit_supplied(Buf *o, const Function **slot, int max)
{
    buf_puts(o, "\n/* Registered. */\n"
                "int jvmtigen_impl_supplied(int num)\n{\n    switch (num) {\n");
    for (int n = 1; n <= max; n++)
        if (slot[n] && !core_implements(slot[n]->id))
            buf_printf(o, "    case %d:\n        return registered.%s != NULL;\n", n, slot[n]->id);
    buf_puts(o, "    default:\n        return -1;\n    }\n}\n");
}

/* A definition named jvmti_impl_ in the default's place that is not the
 * registered function: the trampolines would call it by its name, and the
 * registration would lose (or it would be a way in of its own). */
static void emit_unregistered(Buf *o, const Function **slot, int max)
{
    buf_puts(o, "\n/* Defined by name in the default's place, and not what is registered. */\n"
                "int jvmtigen_impl_unregistered(int num)\n{\n    switch (num) {\n");
    for (int n = 1; n <= max; n++)
        if (slot[n] && !core_implements(slot[n]->id))
            buf_printf(o,
                       "    case %d:\n        return (jvmtigen_fn)jvmti_impl_%s != "
                       "(jvmtigen_fn)default_%s &&\n"
                       "               (jvmtigen_fn)jvmti_impl_%s != (jvmtigen_fn)registered.%s;\n",
                       n, slot[n]->id, slot[n]->id, slot[n]->id, slot[n]->id);
    buf_puts(o, "    default:\n        return 0;\n    }\n}\n");
}

/* A switch over the core's own functions' slots: head opens the function,
 * each case returns ret (one %s: the function's name), default returns dflt. */
static void emit_core_switch(Buf *o, const Function **slot, int max, const char *head,
                             const char *ret, const char *dflt)
{
    buf_printf(o, "\n%s\n{\n    switch (num) {\n", head);
    for (int n = 1; n <= max; n++)
        if (slot[n] && core_implements(slot[n]->id)) {
            buf_printf(o, "    case %d:\n        return ", n);
            buf_printf(o, ret, slot[n]->id);
            buf_puts(o, ";\n");
        }
    buf_printf(o, "    default:\n        return %s;\n    }\n}\n", dflt);
}

/* The table has a member for every slot, the core's functions too: one
 * registered there would never be called, so the core refuses it. And the
 * core's own functions by name, as the dynamic linker resolved each: a VM
 * that exports a definition of the same name from a program linked with
 * the shared library takes the core's place there (a static link refuses
 * the second definition), which jvmtirt_init finds and refuses. */
static void emit_core_checks(Buf *o, const Function **slot, int max)
{
    emit_core_switch(o, slot, max,
                     "/* Registered, but the core implements it. */\n"
                     "int jvmtigen_impl_shadowed(int num)",
                     "registered.%s != NULL", "0");
    emit_core_switch(o, slot, max,
                     "/* The core's function, by name. */\n"
                     "jvmtigen_fn jvmtigen_impl_core(int num)",
                     "(jvmtigen_fn)jvmti_impl_%s", "NULL");
}

/* Each default is a local function with the jvmti_impl_ name as a weak
 * alias, weak only so that a VM's file started by `fill --core` (which names
 * its functions jvmti_impl_NAME and registers them) links with the static
 * library too. Comparing the two addresses (the name's resolves to the VM's
 * definition where the linker sees one) tells when a definition of that
 * name took the default's place: jvmtirt_init refuses it unless it is the
 * registered function, so a function is never reached by its name alone. */
void emit_defaults(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI default implementations");
    buf_puts(o,
             "\n#include <string.h>\n\n#include \"jvmtigen_impl.h\"\n\n"
             "#if !defined(__GNUC__) && !defined(__clang__)\n"
             "#error \"jvmtigen_defaults.c needs weak aliases (GCC or Clang)\"\n#endif\n\n"
             "static jvmtirt_impl_table registered;\n\n"
             "void jvmtigen_impls_register(const jvmtirt_impl_table *impls)\n{\n"
             "    memset(&registered, 0, sizeof registered);\n"
             "    if (!impls)\n        return;\n"
             "    size_t n = impls->size < sizeof registered ? impls->size : sizeof registered;\n"
             "    if (n > sizeof registered.size)\n"
             "        memcpy((char *)&registered + sizeof registered.size,\n"
             "               (const char *)impls + sizeof registered.size, n - sizeof "
             "registered.size);\n"
             "    registered.size = n;\n}\n");
    int max = max_table_num(s);
    const Function **slot = table_slots(s);
    for (int n = 1; n <= max; n++) {
        const Function *f = slot[n];
        if (!f || core_implements(f->id))
            continue;
        buf_printf(o, "\nstatic jvmtiError\ndefault_%s", f->id);
        impl_params_append(o, f);
        buf_printf(o, "\n{\n    if (registered.%s)\n        return registered.%s", f->id, f->id);
        call_args_append(o, f);
        buf_puts(o, ";\n    (void)env;\n");
        for (size_t k = 0; k < f->n_params; k++)
            if (param_in_call(f->params[k]))
                buf_printf(o, "    (void)%s;\n", f->params[k]->name);
        buf_puts(o, "    return JVMTI_ERROR_NOT_AVAILABLE;\n}\n");
        impl_signature_append(o, f, " ");
        buf_printf(o, " __attribute__((weak, alias(\"default_%s\")));\n", f->id);
    }
    emit_supplied(o, slot, max);
    emit_unregistered(o, slot, max);
    emit_core_checks(o, slot, max);
    free(slot);
}
