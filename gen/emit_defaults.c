/* jvmtigen_defaults.c: a weak definition of every jvmti_impl_ function the
 * runtime core does not implement, returning JVMTI_ERROR_NOT_AVAILABLE. A VM
 * linking the runtime works from day one; each function it defines itself
 * (an ordinary, strong definition) replaces the default at link time. */
#include "emit.h"

#include "core.h"
#include "ctype.h"
#include "impl.h"

void emit_defaults(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI default implementations");
    buf_puts(o, "\n#include \"jvmtigen_impl.h\"\n\n"
                "#if defined(__GNUC__) || defined(__clang__)\n"
                "#define JVMTIGEN_WEAK __attribute__((weak))\n"
                "#else\n#error \"jvmtigen_defaults.c needs weak symbols (GCC or Clang)\"\n#endif\n");
    for (size_t c = 0; c < s->n_categories; c++) {
        const Category *cat = s->categories[c];
        for (size_t i = 0; i < cat->n_functions; i++) {
            const Function *f = cat->functions[i];
            if (!function_in_table(f) || core_implements(f->id))
                continue;
            buf_puts(o, "\nJVMTIGEN_WEAK ");
            impl_signature_append(o, f, "\n");
            buf_puts(o, "\n{\n    (void)env;\n");
            for (size_t k = 0; k < f->n_params; k++)
                if (param_in_call(f->params[k]))
                    buf_printf(o, "    (void)%s;\n", f->params[k]->name);
            buf_puts(o, "    return JVMTI_ERROR_NOT_AVAILABLE;\n}\n");
        }
    }
}
