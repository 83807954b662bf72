/* jvmtigen_impl.h: the functions a VM implements, one per JVM TI function.
 * The trampolines call them only after every check has passed; the comment
 * above each declaration says what the implementation may rely on. */
#include "emit.h"
#include "impl.h"

#include "ctype.h"

void emit_impl_header(const GenContext *ctx, Buf *o)
{
    const Spec *s = ctx->spec;
    emit_banner(ctx, o, "JVM TI implementation interface");
    buf_puts(o, "\n#ifndef JVMTIGEN_IMPL_H\n#define JVMTIGEN_IMPL_H\n\n#include \"jvmti.h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
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
            buf_free(&g);
            buf_puts(o, " */\n");
            impl_signature_append(o, f, " ");
            buf_puts(o, ";\n");
        }
    }
    buf_puts(o, "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* JVMTIGEN_IMPL_H */\n");
}
