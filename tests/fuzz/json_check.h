/* A strict JSON syntax check (RFC 8259) for the fuzz targets: the model's
 * JSON must parse, whatever text the spec carried. Recursion is bounded by
 * the model's own depth (a handful of levels). */
#ifndef JVMTIGEN_JSON_CHECK_H
#define JVMTIGEN_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct JsonIn {
    const char *p, *end;
    int depth;
} JsonIn;

static bool json_value(JsonIn *in);

static void json_ws(JsonIn *in)
{
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\n' || *in->p == '\r' || *in->p == '\t'))
        in->p++;
}

static bool json_lit(JsonIn *in, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(in->end - in->p) < n || memcmp(in->p, w, n) != 0)
        return false;
    in->p += n;
    return true;
}

static bool json_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool json_string(JsonIn *in)
{
    if (in->p >= in->end || *in->p != '"')
        return false;
    for (in->p++; in->p < in->end; in->p++) {
        unsigned char c = (unsigned char)*in->p;
        if (c == '"') {
            in->p++;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c == '\\') {
            if (++in->p >= in->end)
                return false;
            c = (unsigned char)*in->p;
            if (c == 'u') {
                for (int i = 0; i < 4; i++)
                    if (++in->p >= in->end || !json_hex(*in->p))
                        return false;
            } else if (!strchr("\"\\/bfnrt", c)) {
                return false;
            }
        }
    }
    return false;
}

static bool json_digits(JsonIn *in)
{
    const char *s = in->p;
    while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
        in->p++;
    return in->p > s;
}

static bool json_number(JsonIn *in)
{
    if (in->p < in->end && *in->p == '-')
        in->p++;
    if (in->p < in->end && *in->p == '0')
        in->p++;
    else if (!json_digits(in))
        return false;
    if (in->p < in->end && *in->p == '.') {
        in->p++;
        if (!json_digits(in))
            return false;
    }
    if (in->p < in->end && (*in->p == 'e' || *in->p == 'E')) {
        in->p++;
        if (in->p < in->end && (*in->p == '+' || *in->p == '-'))
            in->p++;
        if (!json_digits(in))
            return false;
    }
    return true;
}

static bool json_list(JsonIn *in, char close, bool object)
{
    in->p++;
    json_ws(in);
    if (in->p < in->end && *in->p == close) {
        in->p++;
        return true;
    }
    for (;;) {
        json_ws(in);
        if (object) {
            if (!json_string(in))
                return false;
            json_ws(in);
            if (in->p >= in->end || *in->p++ != ':')
                return false;
        }
        if (!json_value(in))
            return false;
        json_ws(in);
        if (in->p >= in->end)
            return false;
        char c = *in->p++;
        if (c == close)
            return true;
        if (c != ',')
            return false;
    }
}

static bool json_value(JsonIn *in)
{
    json_ws(in);
    if (in->p >= in->end || ++in->depth > 64)
        return false;
    bool ok;
    switch (*in->p) {
    case '{': ok = json_list(in, '}', true); break;
    case '[': ok = json_list(in, ']', false); break;
    case '"': ok = json_string(in); break;
    case 't': ok = json_lit(in, "true"); break;
    case 'f': ok = json_lit(in, "false"); break;
    case 'n': ok = json_lit(in, "null"); break;
    default: ok = json_number(in); break;
    }
    in->depth--;
    return ok;
}

/* Whether text[0..len) is exactly one JSON value, with white space around. */
static bool json_valid(const char *text, size_t len)
{
    JsonIn in = {text, text + len, 0};
    if (!json_value(&in))
        return false;
    json_ws(&in);
    return in.p == in.end;
}

#endif
