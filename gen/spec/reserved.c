#include "spec/reserved.h"

#include <stdlib.h>
#include <string.h>

/* Each list sorted (a binary search finds a name). tests/checks/reserved.sh
 * collects what jni.h, the C library's headers, the generated outputs and
 * the runtime headers they include declare, and checks that every name is
 * refused. */

/* jni.h's own names (beside those beginning with JNI or '_'; JDK 17). */
/* clang-format off */
static const char *const jni_names[] = {
    "JDK1_2", "JDK1_4", "JavaVM", "JavaVMAttachArgs", "JavaVMInitArgs", "JavaVMOption", "JavaVM_",
    "jarray", "jboolean", "jbooleanArray", "jbyte", "jbyteArray", "jchar", "jcharArray", "jclass",
    "jdouble", "jdoubleArray", "jfieldID", "jfloat", "jfloatArray", "jint", "jintArray", "jlong",
    "jlongArray", "jmethodID", "jobject", "jobjectArray", "jobjectRefType", "jshort", "jshortArray",
    "jsize", "jstring", "jthrowable", "jvalue", "jweak", NULL,
};

/* What the C library's headers declare under -std=c11
 * -D_POSIX_C_SOURCE=200809L, as the generated outputs include them: jni.h
 * includes stdio.h and stdarg.h, the generated C stddef.h, stdint.h and
 * string.h (glibc; names beginning with '_' are refused as such). */
static const char *const libc_names[] = {
    "BUFSIZ", "EOF", "FILE", "FILENAME_MAX", "FOPEN_MAX", "INT16_C", "INT16_MAX", "INT16_MIN",
    "INT32_C", "INT32_MAX", "INT32_MIN", "INT64_C", "INT64_MAX", "INT64_MIN", "INT8_C", "INT8_MAX",
    "INT8_MIN", "INTMAX_C", "INTMAX_MAX", "INTMAX_MIN", "INTPTR_MAX", "INTPTR_MIN",
    "INT_FAST16_MAX", "INT_FAST16_MIN", "INT_FAST32_MAX", "INT_FAST32_MIN", "INT_FAST64_MAX",
    "INT_FAST64_MIN", "INT_FAST8_MAX", "INT_FAST8_MIN", "INT_LEAST16_MAX", "INT_LEAST16_MIN",
    "INT_LEAST32_MAX", "INT_LEAST32_MIN", "INT_LEAST64_MAX", "INT_LEAST64_MIN", "INT_LEAST8_MAX",
    "INT_LEAST8_MIN", "L_ctermid", "L_tmpnam", "NULL", "PTRDIFF_MAX", "PTRDIFF_MIN", "SEEK_CUR",
    "SEEK_END", "SEEK_SET", "SIG_ATOMIC_MAX", "SIG_ATOMIC_MIN", "SIZE_MAX", "TMP_MAX", "UINT16_C",
    "UINT16_MAX", "UINT32_C", "UINT32_MAX", "UINT64_C", "UINT64_MAX", "UINT8_C", "UINT8_MAX",
    "UINTMAX_C", "UINTMAX_MAX", "UINTPTR_MAX", "UINT_FAST16_MAX", "UINT_FAST32_MAX",
    "UINT_FAST64_MAX", "UINT_FAST8_MAX", "UINT_LEAST16_MAX", "UINT_LEAST32_MAX", "UINT_LEAST64_MAX",
    "UINT_LEAST8_MAX", "WCHAR_MAX", "WCHAR_MIN", "WINT_MAX", "WINT_MIN", "clearerr", "ctermid",
    "dprintf", "fclose", "fdopen", "feof", "ferror", "fflush", "fgetc", "fgetpos", "fgets",
    "fileno", "flockfile", "fmemopen", "fopen", "fpos_t", "fprintf", "fputc", "fputs", "fread",
    "freopen", "fscanf", "fseek", "fseeko", "fsetpos", "ftell", "ftello", "ftrylockfile",
    "funlockfile", "fwrite", "getc", "getc_unlocked", "getchar", "getchar_unlocked", "getdelim",
    "getline", "int16_t", "int32_t", "int64_t", "int8_t", "int_fast16_t", "int_fast32_t",
    "int_fast64_t", "int_fast8_t", "int_least16_t", "int_least32_t", "int_least64_t",
    "int_least8_t", "intmax_t", "intptr_t", "locale_t", "max_align_t", "memchr", "memcmp", "memcpy",
    "memmove", "memset", "off_t", "offsetof", "open_memstream", "pclose", "perror", "popen",
    "printf", "ptrdiff_t", "putc", "putc_unlocked", "putchar", "putchar_unlocked", "puts", "remove",
    "rename", "renameat", "rewind", "scanf", "setbuf", "setvbuf", "size_t", "snprintf", "sprintf",
    "sscanf", "ssize_t", "stderr", "stdin", "stdout", "stpcpy", "stpncpy", "strcat", "strchr",
    "strcmp", "strcoll", "strcoll_l", "strcpy", "strcspn", "strdup", "strerror", "strerror_l",
    "strerror_r", "strlen", "strncat", "strncmp", "strncpy", "strndup", "strnlen", "strpbrk",
    "strrchr", "strsignal", "strspn", "strstr", "strtok", "strtok_r", "strxfrm", "strxfrm_l",
    "tmpfile", "tmpnam", "uint16_t", "uint32_t", "uint64_t", "uint8_t", "uint_fast16_t",
    "uint_fast32_t", "uint_fast64_t", "uint_fast8_t", "uint_least16_t", "uint_least32_t",
    "uint_least64_t", "uint_least8_t", "uintmax_t", "uintptr_t", "ungetc", "va_arg", "va_copy",
    "va_end", "va_list", "va_start", "vdprintf", "vfprintf", "vfscanf", "vprintf", "vscanf",
    "vsnprintf", "vsprintf", "vsscanf", "wchar_t", NULL,
};

/* What jvmti.h declares beside the spec's items (its version macros
 * JVMTI_VERSION_N_M are matched apart). */
static const char *const header_names[] = {
    "Agent_OnAttach", "Agent_OnLoad", "Agent_OnUnload", "JVMTI_ERROR_MAX",
    "JVMTI_MAX_EVENT_TYPE_VAL", "JVMTI_MIN_EVENT_TYPE_VAL", "jvmtiEnv", "jvmtiError", "jvmtiEvent",
    "jvmtiEventCallbacks", "jvmtiEventReserved", "jvmtiInterface_1", "jvmtiInterface_1_", NULL,
};

/* clang-format on */

static int compare(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

static bool listed(const char *const *list, const char *name)
{
    size_t n = 0;
    while (list[n])
        n++;
    return bsearch(name, list, n, sizeof *list, compare) != NULL;
}

/* The prefixes of the names jvmtigen's outputs and runtime declare
 * (jvmtigen_phase_now, jvmti_impl_GetTag, default_GetTag, required_GetTag,
 * constants_jvmtiPhase, ...), and jni.h's JNI_OK, JNIEnv, ..., each with
 * why. */
/* clang-format off */
static const struct {
    const char *prefix, *why;
} prefixes[] = {
    {"jvmtigen_", "the generated C's own names begin with 'jvmtigen_'"},
    {"jvmtirt_", "the runtime's names begin with 'jvmtirt_'"},
    {"jvmticheck_", "the checking agent's names begin with 'jvmticheck_'"},
    {"jvmti_impl_", "the implementation functions' names begin with 'jvmti_impl_'"},
    {"JVMTIGEN_", "the generated C's macros begin with 'JVMTIGEN_'"},
    {"JVMTIRT_", "the runtime's macros begin with 'JVMTIRT_'"},
    {"JVMTICHECK_", "the checking agent's macros begin with 'JVMTICHECK_'"},
    {"default_", "the generated defaults' names begin with 'default_'"},
    {"required_", "the generated tables' names begin with 'required_'"},
    {"constants_", "the generated tables' names begin with 'constants_'"},
    {"JNI", "jni.h's names begin with 'JNI'"},
};
/* clang-format on */

const char *reserved_name_reason(const char *name)
{
    if (name[0] == '_')
        return "names beginning with '_' are the C implementation's and jvmti.h's struct tags";
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(name, prefixes[i].prefix, strlen(prefixes[i].prefix)) == 0)
            return prefixes[i].why;
    if (listed(jni_names, name))
        return "jni.h declares it";
    if (listed(libc_names, name))
        return "the C library's headers declare it";
    if (listed(header_names, name))
        return "jvmti.h declares it";
    if (strcmp(name, "registered") == 0)
        return "the generated C declares it (jvmtigen_defaults.c)";
    if (strncmp(name, "JVMTI_VERSION", 13) == 0 &&
        (!name[13] || (name[13] == '_' && strspn(name + 13, "_0123456789") == strlen(name + 13))))
        return "jvmti.h declares it (a version macro)";
    return NULL;
}

const char *reserved_function_name_reason(const char *name)
{
    return strcmp(name, "functions") == 0
               ? "jvmti.h's C++ class calls its functions through a member of that name"
               : NULL;
}
