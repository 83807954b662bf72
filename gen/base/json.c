#include "base/json.h"

Json json_writer(Buf *out)
{
    Json j = {.o = out, .depth = 0, .first = true, .after_key = false};
    return j;
}

void json_string_append(Buf *out, const char *s)
{
    if (!s) {
        buf_puts(out, "null");
        return;
    }
    Buf clean; /* a file name (diff's OLD and NEW) may be any bytes */
    buf_init(&clean);
    buf_put_utf8(&clean, s);
    buf_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)clean.data; p && *p; p++) {
        if (*p == '"' || *p == '\\') {
            buf_putc(out, '\\');
            buf_putc(out, (char)*p);
        } else if (*p < 0x20) {
            buf_printf(out, "\\u%04x", *p);
        } else {
            buf_putc(out, (char)*p); /* UTF-8 passes through byte by byte */
        }
    }
    buf_free(&clean);
    buf_putc(out, '"');
}

/* Where a value or key starts: right after its key, or on a line of its own. */
static void item_start(Json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0)
        return;
    if (!j->first)
        buf_putc(j->o, ',');
    buf_putc(j->o, '\n');
    for (int i = 0; i < j->depth; i++)
        buf_puts(j->o, "  ");
    j->first = false;
}

void json_begin(Json *j, char bracket)
{
    item_start(j);
    buf_putc(j->o, bracket);
    j->depth++;
    j->first = true;
}

/* An empty container closes on its own line: "[]", "{}". */
void json_end(Json *j, char bracket)
{
    j->depth--;
    if (!j->first) {
        buf_putc(j->o, '\n');
        for (int i = 0; i < j->depth; i++)
            buf_puts(j->o, "  ");
    }
    buf_putc(j->o, bracket);
    j->first = false;
}

void json_key(Json *j, const char *k)
{
    item_start(j);
    json_string_append(j->o, k);
    buf_puts(j->o, ": ");
    j->after_key = true;
}

void json_str(Json *j, const char *s)
{
    item_start(j);
    json_string_append(j->o, s);
}

void json_int(Json *j, long long v)
{
    item_start(j);
    buf_printf(j->o, "%lld", v);
}

void json_bool(Json *j, bool v)
{
    item_start(j);
    buf_puts(j->o, v ? "true" : "false");
}

void json_null(Json *j)
{
    item_start(j);
    buf_puts(j->o, "null");
}

void json_kstr(Json *j, const char *k, const char *s)
{
    json_key(j, k);
    json_str(j, s);
}

void json_kint(Json *j, const char *k, long long v)
{
    json_key(j, k);
    json_int(j, v);
}

void json_kbool(Json *j, const char *k, bool v)
{
    json_key(j, k);
    json_bool(j, v);
}

void json_knull(Json *j, const char *k)
{
    json_key(j, k);
    json_null(j);
}
