/* jvmtigen_defaults.c: a weak definition of every jvmti_impl_ function the
 * runtime core does not implement, returning JVMTI_ERROR_NOT_AVAILABLE. A VM
 * linking the runtime works from day one; each function it defines itself
 * (an ordinary, strong definition) replaces the default at link time. */
#include "c/emit.h"

#include "c/core.h"
#include "c/impl.h"
#include "spec/ctype.h"

#include <stdlib.h>

/* Each default is a local function with the weak jvmti_impl_ name as an
 * alias: comparing the two addresses (the name's resolves to the VM's
 * definition where one is exported) tells whether the VM replaced it. The
 * default itself forwards to the registered table, so a VM whose own
 * definitions are hidden from the library still gets its functions called. */
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
    buf_puts(o, "\n/* A function pointer, compared by address only. */\n"
                "typedef void (*jvmtigen_fn)(void);\n\n"
                "/* Replaced by the VM's own definition, or registered. */\n"
                "int jvmtigen_impl_supplied(int num)\n{\n    switch (num) {\n");
    for (int n = 1; n <= max; n++) {
        const Function *f = slot[n];
        if (f && !core_implements(f->id))
            buf_printf(o,
                       "    case %d:\n        return (jvmtigen_fn)jvmti_impl_%s != "
                       "(jvmtigen_fn)default_%s ||\n"
                       "               registered.%s != NULL;\n",
                       n, f->id, f->id, f->id);
    }
    buf_puts(o, "    default:\n        return -1;\n    }\n}\n");
    /* The table has a member for every slot, the core's functions too: one
     * registered there would never be called, so the core refuses it. */
    buf_puts(o, "\n/* Registered, but the core implements it. */\n"
                "int jvmtigen_impl_shadowed(int num)\n{\n    switch (num) {\n");
    for (int n = 1; n <= max; n++) {
        const Function *f = slot[n];
        if (f && core_implements(f->id))
            buf_printf(o, "    case %d:\n        return registered.%s != NULL;\n", n, f->id);
    }
    buf_puts(o, "    default:\n        return 0;\n    }\n}\n");
    free(slot);
}
