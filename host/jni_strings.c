/* JNI strings: a java/lang/String is an immutable run of modified UTF-8
 * (what JNI hands agents), an object of the host's heap (objects.c):
 * counted by its references, freed by the collector once none is left. */
#include <string.h>

#include "jni_parts.h"

jstring host_string_new(const char *utf, size_t len)
{
    return (jstring)host_object_new_string(utf, len);
}

const char *host_string_utf(jobject str) { return host_object_text(str); }

/* A NULL name or string finds or makes nothing (HotSpot returns NULL too). */
static jstring JNICALL new_string_utf(JNIEnv *env, const char *utf)
{
    (void)env;
    return utf ? host_string_new(utf, strlen(utf)) : NULL;
}

static const char *JNICALL get_string_utf_chars(JNIEnv *env, jstring str, jboolean *is_copy)
{
    (void)env;
    if (is_copy)
        *is_copy = JNI_FALSE;
    return host_string_utf(str);
}

static void JNICALL release_string_utf_chars(JNIEnv *env, jstring str, const char *chars)
{
    (void)env, (void)str, (void)chars;
}

static jsize JNICALL get_string_utf_length(JNIEnv *env, jstring str)
{
    (void)env;
    const char *s = host_string_utf(str);
    return s ? (jsize)strlen(s) : 0;
}

/* Modified UTF-8 writes each UTF-16 unit as 1 to 3 bytes (a supplementary
 * character as its two surrogates): the units are the bytes that start one. */
static int starts_unit(char c) { return ((unsigned char)c & 0xC0) != 0x80; }

static jsize JNICALL get_string_length(JNIEnv *env, jstring str)
{
    (void)env;
    jsize n = 0;
    for (const char *s = host_string_utf(str); s && *s; s++)
        n += starts_unit(*s);
    return n;
}

/* Where unit k starts in s (its end when there are k units or fewer). */
static const char *unit_at(const char *s, jsize k)
{
    jsize unit = -1;
    for (; *s; s++)
        if (starts_unit(*s) && ++unit == k)
            break;
    return s;
}

/* The modified UTF-8 of units [start, start + len): out of range leaves
 * buf alone (HotSpot throws StringIndexOutOfBoundsException; the host has
 * no exception objects). */
static void JNICALL get_string_utf_region(JNIEnv *env, jstring str, jsize start, jsize len,
                                          char *buf)
{
    const char *s = host_string_utf(str);
    if (!s || start < 0 || len < 0 || start > get_string_length(env, str) - len)
        return;
    const char *from = unit_at(s, start), *to = unit_at(s, start + len);
    memcpy(buf, from, (size_t)(to - from));
    buf[to - from] = '\0';
}

void host_jni_strings_fill(struct JNINativeInterface_ *t)
{
    t->NewStringUTF = new_string_utf;
    t->GetStringUTFChars = get_string_utf_chars;
    t->ReleaseStringUTFChars = release_string_utf_chars;
    t->GetStringUTFLength = get_string_utf_length;
    t->GetStringLength = get_string_length;
    t->GetStringUTFRegion = get_string_utf_region;
}
