#include "model/reserved.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/util.h"

/* Each list sorted (for its reader). tests/checks/reserved.sh
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
    "jsize", "jstring", "jthrowable", "jvalue", "jweak",
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
    "vsnprintf", "vsprintf", "vsscanf", "wchar_t",
};

/* What jvmti.h declares beside the spec's items (its version macros
 * JVMTI_VERSION_N_M are matched apart). */
static const char *const header_names[] = {
    "Agent_OnAttach", "Agent_OnLoad", "Agent_OnUnload", "JVMTI_ERROR_MAX",
    "JVMTI_MAX_EVENT_TYPE_VAL", "JVMTI_MIN_EVENT_TYPE_VAL", "jvmtiEnv", "jvmtiError", "jvmtiEvent",
    "jvmtiEventCallbacks", "jvmtiEventReserved", "jvmtiInterface_1", "jvmtiInterface_1_",
};

/* clang-format on */

/* The three lists in one hash table, filled at the first look-up: every
 * name of the spec is looked up (1,164 in JDK 25's), and a search of each
 * list cost a --no-docs run 2.5% of its instructions (issue 37). */
#define SLOTS 1024 /* a power of two, over twice the names */
static struct {
    const char *name, *why;
} slots[SLOTS];

static size_t slot_of(const char *name)
{
    size_t i = hash_str(name) & (SLOTS - 1);
    while (slots[i].name && strcmp(slots[i].name, name) != 0)
        i = (i + 1) & (SLOTS - 1);
    return i;
}

static void add_list(const char *const *list, size_t n, const char *why)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = slot_of(list[i]);
        if (!slots[k].name) { /* a name in two lists keeps the first's reason */
            slots[k].name = list[i];
            slots[k].why = why;
        }
    }
}
#define ADD_LIST(list, why) add_list(list, sizeof list / sizeof *list, why)

static const char *listed(const char *name)
{
    static bool filled;
    if (!filled) {
        ADD_LIST(jni_names, "jni.h declares it");
        ADD_LIST(libc_names, "the C library's headers declare it");
        ADD_LIST(header_names, "jvmti.h declares it");
        filled = true;
    }
    return slots[slot_of(name)].why;
}

/* The prefixes of the names jvmtigen's outputs and runtime declare
 * (jvmtigen_phase_now, jvmti_impl_GetTag, default_GetTag, required_GetTag,
 * constants_jvmtiPhase, ...), and jni.h's JNI_OK, JNIEnv, ..., each with
 * why. */
/* clang-format off */
#define PREFIX(p, why) {p, sizeof p - 1, why}
static const struct {
    const char *prefix;
    size_t len;
    const char *why;
} prefixes[] = {
    PREFIX("jvmtigen_", "the generated C's own names begin with 'jvmtigen_'"),
    PREFIX("jvmtirt_", "the runtime's names begin with 'jvmtirt_'"),
    PREFIX("jvmticheck_", "the checking agent's names begin with 'jvmticheck_'"),
    PREFIX("jvmti_impl_", "the implementation functions' names begin with 'jvmti_impl_'"),
    PREFIX("JVMTIGEN_", "the generated C's macros begin with 'JVMTIGEN_'"),
    PREFIX("JVMTIRT_", "the runtime's macros begin with 'JVMTIRT_'"),
    PREFIX("JVMTICHECK_", "the checking agent's macros begin with 'JVMTICHECK_'"),
    PREFIX("default_", "the generated defaults' names begin with 'default_'"),
    PREFIX("required_", "the generated tables' names begin with 'required_'"),
    PREFIX("constants_", "the generated tables' names begin with 'constants_'"),
    PREFIX("JNI", "jni.h's names begin with 'JNI'"),
};
/* clang-format on */
#undef PREFIX

const char *reserved_name_reason(const char *name)
{
    if (name[0] == '_')
        return "names beginning with '_' are the C implementation's and jvmti.h's struct tags";
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (name[0] == prefixes[i].prefix[0] &&
            strncmp(name, prefixes[i].prefix, prefixes[i].len) == 0)
            return prefixes[i].why;
    const char *why = listed(name);
    if (why)
        return why;
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
