/* The reference VM's bytecode interpreter: `-cp DIR CLASS` loads
 * DIR/CLASS.class as -load does (classes.c: ClassFileLoadHook, the core's
 * metadata from the bytes, ClassLoad, ClassPrepare) and runs its
 * `static void main(String[])` on the main thread once the VM is live.
 *
 * The subset it runs; anything else stops the program with a message
 * naming the instruction, the method and the location (never a crash):
 *
 *   constants    nop aconst_null iconst_m1..iconst_5 lconst_0 lconst_1
 *                bipush sipush ldc ldc_w (int, String) ldc2_w (long)
 *   locals       iload lload aload istore lstore astore, their _0.._3
 *                forms, iinc
 *   stack        pop pop2 dup swap
 *   arithmetic   iadd isub imul idiv irem ineg ishl ishr iushr iand ior
 *                ixor, the same for long (lshl, lshr, lushr take an int),
 *                i2l l2i lcmp
 *   branches     ifeq ifne iflt ifge ifgt ifle if_icmpeq if_icmpne
 *                if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq
 *                if_acmpne ifnull ifnonnull goto
 *   calls        invokestatic of the class's own static methods;
 *                invokevirtual and invokespecial of its own instance
 *                methods (`this` in slot 0; the class's constructors);
 *                ireturn lreturn areturn return
 *   fields       getstatic and putstatic of the class's own static int
 *                and boolean fields (each access atomic: volatile or not)
 *   threads      when the class extends java/lang/Thread: new of the
 *                class (an unstarted thread object whose class is the
 *                program's: JNI GetObjectClass, GetSuperclass, IsInstanceOf
 *                and the core's class functions answer so), and natively
 *                invokespecial java/lang/Object.<init>()V and
 *                java/lang/Thread.<init>(Ljava/lang/String;)V (its name;
 *                its group the caller's, main), invokevirtual of start()V
 *                (a new host thread, in group main, that posts ThreadStart,
 *                interprets the object's run()V and posts ThreadEnd, as a
 *                Java thread does) and join()V (waits for it; outside the
 *                instruction's move, so the joining thread counts as in
 *                native code, then passes a safe point)
 *   output       getstatic java/lang/System.out and invokevirtual
 *                java/io/PrintStream.println of (Ljava/lang/String;)V, (I)V,
 *                (J)V or ()V, printed to stdout (and flushed) natively
 *
 * So: static methods, int and long arithmetic, loops, locals, String
 * constants, static int and boolean fields, and threads of the class's
 * own. No other objects (instance fields, arrays), no exceptions (an idiv
 * by zero, a call on null, a second start stop), no invokedynamic
 * (javac's string concatenation), no other class, no static initializer
 * run (static fields start at 0), no monitors. main's args is null (the
 * host has no arrays). The program ends, as java's launcher does, once
 * main has returned and every thread it started has ended.
 *
 * A frame is the method's host_member (its jmethodID, the one the core has
 * for the class), the location (the bytecode index) and the locals, all in
 * the thread's host_frame (stacks.c), where the stack walk and the core's
 * frame_slot see them (GetLocalVariableTable and the locals' declared
 * types are the core's, from the class file: jvmtirt_class_local_type);
 * the operand stack is the interpreter's own (no agent sees it). The
 * moves go through frames.c: a call posts MethodEntry, each instruction
 * SingleStep and Breakpoint, a return MethodExit and FramePop. Each
 * instruction is a safe point: it runs between host_move_begin and
 * host_move_end (suspend.c), so a suspended thread stops before its next
 * instruction and its locals stay put while an agent reads or writes them.
 * PopFrame and ForceEarlyReturn answer OPAQUE_FRAME on these frames
 * (stacks.c's frame_return unwinds only the built-in chain). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "jvmtigen_post.h"

/* ---- the class file: what the interpreter reads of it (JVMS 4) ---- */

enum { CP_UTF8 = 1, CP_INTEGER = 3, CP_LONG = 5, CP_DOUBLE = 6, CP_CLASS = 7, CP_STRING = 8,
       CP_FIELDREF = 9, CP_METHODREF = 10, CP_NAME_AND_TYPE = 12 };
#define ACC_STATIC 0x0008

/* A static field of the class: its value (an int or a boolean). */
typedef struct static_field {
    char *name, *descriptor;
    unsigned access;
    jint value; /* atomic: the program's threads share it */
} static_field;

typedef struct method_code {
    host_member *id;      /* the method's ID (classes.c made it) */
    char *name, *descriptor;
    unsigned access, max_stack, max_locals;
    const unsigned char *code; /* in the class's bytes; NULL: no Code */
    size_t code_len;
} method_code;

typedef struct program {
    char *class_name;         /* internal form: "Main" */
    const unsigned char *b;   /* the bytes the class was defined from */
    size_t n;
    unsigned cp_count;
    size_t *cp;               /* offset of each constant pool entry's tag; 0: none */
    jstring *strings;         /* String constants made so far, by index */
    unsigned n_methods;
    method_code *methods;
    unsigned n_fields;
    static_field *fields;
    const host_class *klass; /* the class loaded from the bytes */
    int is_thread;            /* it extends java/lang/Thread */
} program;

/* System.out: the one java/io/PrintStream there is. */
static host_object system_out = {HOST_STREAM};

static int fits(const program *p, size_t at, size_t len) { return at <= p->n && len <= p->n - at; }
static unsigned get_u2(const unsigned char *b) { return (unsigned)b[0] << 8 | b[1]; }
static uint32_t get_u4(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Constant pool entry i if it has that tag: its offset, else 0. */
static size_t entry(const program *p, unsigned i, int tag)
{
    return i > 0 && i < p->cp_count && p->cp[i] && p->b[p->cp[i]] == tag ? p->cp[i] : 0;
}

/* Utf8 entry i copied into out (size bytes, NUL-terminated); 0 if none. */
static int utf8(const program *p, unsigned i, char *out, size_t size)
{
    size_t at = entry(p, i, CP_UTF8);
    if (!at)
        return 0;
    size_t len = get_u2(p->b + at + 1);
    if (len >= size)
        return 0;
    memcpy(out, p->b + at + 3, len);
    out[len] = '\0';
    return 1;
}

static char *utf8_dup(const program *p, unsigned i)
{
    char buf[1024];
    return utf8(p, i, buf, sizeof buf) ? strdup(buf) : NULL;
}

/* A Fieldref or Methodref: its class, name and descriptor. */
typedef struct member_ref {
    char klass[256], name[256], descriptor[256];
} member_ref;

static int resolve(const program *p, unsigned i, int tag, member_ref *r)
{
    size_t at = entry(p, i, tag);
    if (!at)
        return 0;
    size_t k = entry(p, get_u2(p->b + at + 1), CP_CLASS);
    size_t nt = entry(p, get_u2(p->b + at + 3), CP_NAME_AND_TYPE);
    return k && nt && utf8(p, get_u2(p->b + k + 1), r->klass, sizeof r->klass) &&
           utf8(p, get_u2(p->b + nt + 1), r->name, sizeof r->name) &&
           utf8(p, get_u2(p->b + nt + 3), r->descriptor, sizeof r->descriptor);
}

/* Skips n attributes at *at; a method's Code into m. 0 if they run past the end. */
static int attributes(program *p, size_t *at, method_code *m)
{
    if (!fits(p, *at, 2))
        return 0;
    unsigned count = get_u2(p->b + *at);
    *at += 2;
    for (unsigned i = 0; i < count; i++) {
        if (!fits(p, *at, 6))
            return 0;
        char name[16];
        size_t len = get_u4(p->b + *at + 2), body = *at + 6;
        if (!fits(p, body, len))
            return 0;
        if (m && utf8(p, get_u2(p->b + *at), name, sizeof name) && strcmp(name, "Code") == 0) {
            if (len < 8 || get_u4(p->b + body + 4) > len - 8)
                return 0;
            m->max_stack = get_u2(p->b + body);
            m->max_locals = get_u2(p->b + body + 2);
            m->code_len = get_u4(p->b + body + 4);
            m->code = p->b + body + 8;
        }
        *at = body + len;
    }
    return 1;
}

/* A field's or method's access flags, name and descriptor (JVMS 4.5, 4.6),
 * at *at; moves *at past them. */
static int member_header(const program *p, size_t *at, unsigned *access, char **name, char **descriptor)
{
    if (!fits(p, *at, 6))
        return 0;
    *access = get_u2(p->b + *at);
    *name = utf8_dup(p, get_u2(p->b + *at + 2));
    *descriptor = utf8_dup(p, get_u2(p->b + *at + 4));
    *at += 6;
    return *name && *descriptor;
}

/* Reads the constant pool and the methods (the core checked the bytes
 * already: this still refuses to read past their end). */
static int parse(program *p)
{
    if (!fits(p, 0, 10))
        return 0;
    p->cp_count = get_u2(p->b + 8);
    p->cp = calloc(p->cp_count ? p->cp_count : 1, sizeof *p->cp);
    p->strings = calloc(p->cp_count ? p->cp_count : 1, sizeof *p->strings);
    if (!p->cp || !p->strings)
        return 0;
    size_t at = host_class_file_pool(p->b, p->n, p->cp_count, p->cp);
    if (at == 0 || !fits(p, at, 8))
        return 0;
    at += 8 + 2 * (size_t)get_u2(p->b + at + 6); /* access, this, super, interfaces */
    if (!fits(p, at, 2))
        return 0;
    p->n_fields = get_u2(p->b + at);
    p->fields = calloc(p->n_fields ? p->n_fields : 1, sizeof *p->fields);
    if (!p->fields)
        return 0;
    at += 2;
    for (unsigned i = 0; i < p->n_fields; i++) {
        static_field *f = &p->fields[i];
        if (!member_header(p, &at, &f->access, &f->name, &f->descriptor) || !attributes(p, &at, NULL))
            return 0;
    }
    if (!fits(p, at, 2))
        return 0;
    p->n_methods = get_u2(p->b + at);
    p->methods = calloc(p->n_methods ? p->n_methods : 1, sizeof *p->methods);
    if (!p->methods)
        return 0;
    at += 2;
    for (unsigned i = 0; i < p->n_methods; i++) {
        method_code *m = &p->methods[i];
        if (!member_header(p, &at, &m->access, &m->name, &m->descriptor) || !attributes(p, &at, m))
            return 0;
    }
    return 1;
}

/* ---- descriptors ---- */

/* The argument slots a descriptor takes (long and double two each) and
 * each slot's tag ('I', 'J' on a pair's first slot, 0 on its second, 'L',
 * 'F', 'D'), at most max; -1 if it is not a method descriptor. */
static int arguments(const char *d, char *tags, int max)
{
    int n = 0;
    if (*d++ != '(')
        return -1;
    while (*d && *d != ')') {
        char tag = *d == 'L' || *d == '[' ? 'L' : strchr("ZBCSI", *d) ? 'I' : *d;
        while (*d == '[')
            d++;
        if (*d == 'L')
            d = strchr(d, ';');
        if (!d || !*d || n + 2 > max)
            return -1;
        d++;
        tags[n++] = tag;
        if (tag == 'J' || tag == 'D')
            tags[n++] = 0;
    }
    return *d == ')' ? n : -1;
}

/* The first character of a method descriptor's return type. */
static char returns(const char *d)
{
    const char *close = strchr(d, ')');
    return close ? close[1] : 'V';
}

/* ---- the interpreter ---- */

static const char *const mnemonics[256] = {
    "nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3",
    "iconst_4", "iconst_5", "lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2",
    "dconst_0", "dconst_1", "bipush", "sipush", "ldc", "ldc_w", "ldc2_w", "iload", "lload",
    "fload", "dload", "aload", "iload_0", "iload_1", "iload_2", "iload_3", "lload_0",
    "lload_1", "lload_2", "lload_3", "fload_0", "fload_1", "fload_2", "fload_3", "dload_0",
    "dload_1", "dload_2", "dload_3", "aload_0", "aload_1", "aload_2", "aload_3", "iaload",
    "laload", "faload", "daload", "aaload", "baload", "caload", "saload", "istore", "lstore",
    "fstore", "dstore", "astore", "istore_0", "istore_1", "istore_2", "istore_3", "lstore_0",
    "lstore_1", "lstore_2", "lstore_3", "fstore_0", "fstore_1", "fstore_2", "fstore_3",
    "dstore_0", "dstore_1", "dstore_2", "dstore_3", "astore_0", "astore_1", "astore_2",
    "astore_3", "iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore",
    "sastore", "pop", "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap",
    "iadd", "ladd", "fadd", "dadd", "isub", "lsub", "fsub", "dsub", "imul", "lmul", "fmul",
    "dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem", "frem", "drem", "ineg", "lneg",
    "fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr", "lushr", "iand", "land", "ior",
    "lor", "ixor", "lxor", "iinc", "i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l",
    "f2d", "d2i", "d2l", "d2f", "i2b", "i2c", "i2s", "lcmp", "fcmpl", "fcmpg", "dcmpl",
    "dcmpg", "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle", "if_icmpeq", "if_icmpne",
    "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple", "if_acmpeq", "if_acmpne", "goto",
    "jsr", "ret", "tableswitch", "lookupswitch", "ireturn", "lreturn", "freturn", "dreturn",
    "areturn", "return", "getstatic", "putstatic", "getfield", "putfield", "invokevirtual",
    "invokespecial", "invokestatic", "invokeinterface", "invokedynamic", "new", "newarray",
    "anewarray", "arraylength", "athrow", "checkcast", "instanceof", "monitorenter",
    "monitorexit", "wide", "multianewarray", "ifnull", "ifnonnull", "goto_w", "jsr_w",
};

/* One activation: its method, its operand stack (a long takes two
 * entries, the value in the first) and where it is. */
typedef struct activation {
    program *p;
    host_thread *t;
    method_code *m;
    host_frame *f; /* the thread's frame: the locals */
    jvalue *stack;
    int sp;
    size_t pc;
} activation;

/* What an instruction asks of the loop after its safe move. */
enum { NEXT, CALL, RETURN, STOP };

/* A CALL: what the loop does outside the instruction's move (the callee's
 * moves are its own; a start or join waits for another thread). */
typedef struct pending {
    method_code *callee;              /* its arguments (this first) on the stack */
    enum { INTERPRETED, START, JOIN } what;
    jobject thread;                   /* START, JOIN: the thread object */
} pending;

/* Stops the program: one message naming the method, the location and why. */
static int stop(activation *a, const char *fmt, const char *what)
{
    fprintf(stderr, "jvmti-host: %s.%s%s at location %zu: ", a->p->class_name, a->m->name,
            a->m->descriptor, a->pc);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return STOP;
}

static int outside(activation *a, unsigned op)
{
    char what[48];
    snprintf(what, sizeof what, "%s (0x%02x)", mnemonics[op] ? mnemonics[op] : "(unassigned)",
             op);
    return stop(a, "%s is outside the interpreter's subset (host/interp.c)", what);
}

#define PUSH_CHECK(k) \
    if (a->sp + (k) > (int)a->m->max_stack) return stop(a, "%s", "the operand stack overflows")
#define POP_CHECK(k) \
    if (a->sp < (k)) return stop(a, "%s", "the operand stack underflows")
#define NEED(k) \
    if (a->pc + 1 + (k) > a->m->code_len) return stop(a, "%s", "the instruction runs past the code")
#define LOCAL(k) \
    if ((unsigned)(k) >= a->m->max_locals) return stop(a, "%s", "a local outside max_locals")

static int push_i(activation *a, jint v)
{
    PUSH_CHECK(1);
    a->stack[a->sp++] = (jvalue){.i = v};
    return NEXT;
}

static int push_j(activation *a, jlong v)
{
    PUSH_CHECK(2);
    a->stack[a->sp] = (jvalue){.j = v};
    a->stack[a->sp + 1] = (jvalue){.j = 0};
    a->sp += 2;
    return NEXT;
}

static int push_l(activation *a, jobject v)
{
    PUSH_CHECK(1);
    a->stack[a->sp++] = (jvalue){.l = v};
    return NEXT;
}

/* Jumps by the signed 16-bit offset after the opcode when taken. */
static int branch(activation *a, int taken, size_t *next)
{
    NEED(2);
    *next = a->pc + 3;
    if (!taken)
        return NEXT;
    long target = (long)a->pc + (int16_t)get_u2(a->m->code + a->pc + 1);
    if (target < 0 || (size_t)target >= a->m->code_len)
        return stop(a, "%s", "a branch outside the code");
    *next = (size_t)target;
    return NEXT;
}

/* The program's threads share its String constants. */
static pthread_mutex_t strings_lock = PTHREAD_MUTEX_INITIALIZER;

/* ldc, ldc_w: an int or a String (made once per constant, kept: the
 * constant pool's strings are interned). ldc2_w: a long. */
static int load_constant(activation *a, unsigned i, int wide)
{
    program *p = a->p;
    size_t at;
    if (wide && (at = entry(p, i, CP_LONG)) != 0 && fits(p, at, 9))
        return push_j(a, (jlong)((uint64_t)get_u4(p->b + at + 1) << 32 | get_u4(p->b + at + 5)));
    if (!wide && (at = entry(p, i, CP_INTEGER)) != 0)
        return push_i(a, (jint)get_u4(p->b + at + 1));
    if (!wide && (at = entry(p, i, CP_STRING)) != 0) {
        pthread_mutex_lock(&strings_lock);
        if (!p->strings[i]) {
            size_t u = entry(p, get_u2(p->b + at + 1), CP_UTF8);
            if (u)
                p->strings[i] = host_string_new((const char *)p->b + u + 3, get_u2(p->b + u + 1));
        }
        jstring str = p->strings[i];
        pthread_mutex_unlock(&strings_lock);
        if (!str)
            return stop(a, "%s", "a String constant could not be made");
        return push_l(a, str);
    }
    return stop(a, "%s", "a constant outside the subset (float, double, class, ...)");
}

/* System.out.println, natively. */
static int println(activation *a, const member_ref *r)
{
    char out[32];
    const char *text = "";
    int slots = strcmp(r->descriptor, "(J)V") == 0 ? 2 : strcmp(r->descriptor, "()V") == 0 ? 0 : 1;
    POP_CHECK(slots + 1);
    jvalue v = a->stack[a->sp - slots];
    if (strcmp(r->descriptor, "(Ljava/lang/String;)V") == 0) {
        /* the string's own text, not through a JNI table an agent may have interposed */
        text = v.l ? host_object_text(v.l) : "null";
    } else if (strcmp(r->descriptor, "(I)V") == 0) {
        snprintf(out, sizeof out, "%d", (int)v.i);
        text = out;
    } else if (strcmp(r->descriptor, "(J)V") == 0) {
        snprintf(out, sizeof out, "%lld", (long long)v.j);
        text = out;
    } else if (slots) {
        return stop(a, "println%s is outside the interpreter's subset", r->descriptor);
    }
    if (a->stack[a->sp - slots - 1].l != (jobject)&system_out)
        return stop(a, "%s", "println on something other than System.out");
    a->sp -= slots + 1;
    printf("%s\n", text ? text : "");
    fflush(stdout);
    return NEXT;
}

/* The class's own method of r's name and descriptor, static or not; NULL if none. */
static method_code *own_method(const program *p, const member_ref *r, int is_static)
{
    if (strcmp(r->klass, p->class_name) != 0)
        return NULL;
    for (unsigned i = 0; i < p->n_methods; i++) {
        method_code *m = &p->methods[i];
        if (!(m->access & ACC_STATIC) == !is_static && strcmp(m->name, r->name) == 0 &&
            strcmp(m->descriptor, r->descriptor) == 0)
            return m;
    }
    return NULL;
}

/* The class's own static int or boolean field r names; NULL if none. */
static static_field *own_field(const program *p, const member_ref *r)
{
    if (strcmp(r->klass, p->class_name) != 0 ||
        (strcmp(r->descriptor, "I") != 0 && strcmp(r->descriptor, "Z") != 0))
        return NULL;
    for (unsigned i = 0; i < p->n_fields; i++) {
        static_field *f = &p->fields[i];
        if ((f->access & ACC_STATIC) && strcmp(f->name, r->name) == 0 &&
            strcmp(f->descriptor, r->descriptor) == 0)
            return f;
    }
    return NULL;
}

/* new: an unstarted thread object of the class (which extends Thread). */
static int new_object(activation *a, unsigned index)
{
    char name[256];
    size_t at = entry(a->p, index, CP_CLASS);
    if (!at || !utf8(a->p, get_u2(a->p->b + at + 1), name, sizeof name) ||
        strcmp(name, a->p->class_name) != 0 || !a->p->is_thread)
        return outside(a, 0xbb); /* the only objects it makes are its threads */
    jobject o = host_thread_new();
    if (!o)
        return stop(a, "%s", "out of memory");
    host_thread_of(o)->klass = a->p->klass; /* before its constructor lists it in group main */
    return push_l(a, o);
}

/* invokespecial: the class's own constructors and instance methods, and
 * natively Object() and Thread(String). */
static int invoke_special(activation *a, const member_ref *r, pending *call)
{
    jvalue *s = a->stack;
    if ((call->callee = own_method(a->p, r, 0)) != NULL)
        return CALL;
    if (strcmp(r->name, "<init>") == 0 && strcmp(r->klass, "java/lang/Object") == 0 &&
        strcmp(r->descriptor, "()V") == 0) {
        POP_CHECK(1);
        a->sp--;
        return NEXT;
    }
    if (strcmp(r->name, "<init>") != 0 || strcmp(r->klass, "java/lang/Thread") != 0 ||
        strcmp(r->descriptor, "(Ljava/lang/String;)V") != 0)
        return stop(a, "%s", "invokespecial of a method outside the subset");
    POP_CHECK(2);
    host_thread *t = host_thread_of(s[a->sp - 2].l);
    jstring name = s[a->sp - 1].l;
    if (!t || !name)
        return stop(a, "%s", "Thread(String) with a null argument (exceptions are outside the subset)");
    /* the string's own text, as println's; the group the constructing thread's */
    host_thread_construct(t, host_thread_group_of(a->t), host_object_text(name));
    a->sp -= 2;
    return NEXT;
}

/* invokevirtual: the class's own instance methods, Thread's start() and
 * join() (done by the loop, outside the move), PrintStream.println. */
static int invoke_virtual(activation *a, const member_ref *r, pending *call)
{
    if (strcmp(r->klass, "java/io/PrintStream") == 0 && strcmp(r->name, "println") == 0)
        return println(a, r);
    if ((call->callee = own_method(a->p, r, 0)) != NULL)
        return CALL;
    int thread_class = strcmp(r->klass, "java/lang/Thread") == 0 ||
                       (a->p->is_thread && strcmp(r->klass, a->p->class_name) == 0);
    int start = strcmp(r->name, "start") == 0, join = strcmp(r->name, "join") == 0;
    if (!thread_class || (!start && !join) || strcmp(r->descriptor, "()V") != 0)
        return stop(a, "%s", "invokevirtual of a method outside the subset");
    POP_CHECK(1);
    call->thread = a->stack[--a->sp].l;
    call->what = start ? START : JOIN;
    return CALL;
}

/* One instruction at a->pc, inside its safe move. CALL leaves what to do
 * in *call (a callee's arguments still on the stack); RETURN the value in
 * *ret. */
static int execute(activation *a, size_t *next, pending *call, jvalue *ret)
{
    const unsigned char *c = a->m->code;
    unsigned op = c[a->pc];
    jvalue *s = a->stack;
    jvalue *locals = a->f->locals;
    char *tags = a->f->tags;
    *next = a->pc + 1;
    switch (op) {
    case 0x00: return NEXT;                                            /* nop */
    case 0x01: return push_l(a, NULL);                                 /* aconst_null */
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07: case 0x08:
        return push_i(a, (jint)op - 3);                                /* iconst_<n> */
    case 0x09: case 0x0a: return push_j(a, (jlong)op - 9);             /* lconst_<n> */
    case 0x10: NEED(1); *next += 1; return push_i(a, (int8_t)c[a->pc + 1]);            /* bipush */
    case 0x11: NEED(2); *next += 2; return push_i(a, (int16_t)get_u2(c + a->pc + 1));  /* sipush */
    case 0x12: NEED(1); *next += 1; return load_constant(a, c[a->pc + 1], 0);          /* ldc */
    case 0x13: NEED(2); *next += 2; return load_constant(a, get_u2(c + a->pc + 1), 0); /* ldc_w */
    case 0x14: NEED(2); *next += 2; return load_constant(a, get_u2(c + a->pc + 1), 1); /* ldc2_w */
    case 0x15: case 0x16: case 0x19: case 0x36: case 0x37: case 0x3a: { /* ?load, ?store n */
        NEED(1);
        *next += 1;
        unsigned n = c[a->pc + 1];
        int kind = op == 0x15 || op == 0x36 ? 'I' : op == 0x16 || op == 0x37 ? 'J' : 'L';
        int store = op >= 0x36;
        LOCAL(n + (kind == 'J'));
        if (!store)
            return kind == 'I' ? push_i(a, locals[n].i)
                   : kind == 'J' ? push_j(a, locals[n].j) : push_l(a, locals[n].l);
        POP_CHECK(kind == 'J' ? 2 : 1);
        a->sp -= kind == 'J' ? 2 : 1;
        locals[n] = s[a->sp];
        tags[n] = (char)kind;
        return NEXT;
    }
    case 0x1a: case 0x1b: case 0x1c: case 0x1d:                        /* iload_<n> */
        LOCAL(op - 0x1a);
        return push_i(a, locals[op - 0x1a].i);
    case 0x1e: case 0x1f: case 0x20: case 0x21:                        /* lload_<n> */
        LOCAL(op - 0x1e + 1);
        return push_j(a, locals[op - 0x1e].j);
    case 0x2a: case 0x2b: case 0x2c: case 0x2d:                        /* aload_<n> */
        LOCAL(op - 0x2a);
        return push_l(a, locals[op - 0x2a].l);
    case 0x3b: case 0x3c: case 0x3d: case 0x3e:                        /* istore_<n> */
    case 0x4b: case 0x4c: case 0x4d: case 0x4e: {                      /* astore_<n> */
        unsigned n = op >= 0x4b ? op - 0x4b : op - 0x3b;
        LOCAL(n);
        POP_CHECK(1);
        locals[n] = s[--a->sp];
        tags[n] = op >= 0x4b ? 'L' : 'I';
        return NEXT;
    }
    case 0x3f: case 0x40: case 0x41: case 0x42: {                      /* lstore_<n> */
        unsigned n = op - 0x3f;
        LOCAL(n + 1);
        POP_CHECK(2);
        a->sp -= 2;
        locals[n] = s[a->sp];
        tags[n] = 'J';
        tags[n + 1] = 0;
        return NEXT;
    }
    case 0x57: POP_CHECK(1); a->sp -= 1; return NEXT;                  /* pop */
    case 0x58: POP_CHECK(2); a->sp -= 2; return NEXT;                  /* pop2 */
    case 0x59: POP_CHECK(1); PUSH_CHECK(1); s[a->sp] = s[a->sp - 1]; a->sp++; return NEXT; /* dup */
    case 0x5f: {                                                       /* swap */
        POP_CHECK(2);
        jvalue v = s[a->sp - 1];
        s[a->sp - 1] = s[a->sp - 2];
        s[a->sp - 2] = v;
        return NEXT;
    }
    /* int arithmetic: two ints in, one out (wrapping, as Java's do) */
    case 0x60: case 0x64: case 0x68: case 0x6c: case 0x70: case 0x78: case 0x7a: case 0x7c:
    case 0x7e: case 0x80: case 0x82: {
        POP_CHECK(2);
        uint32_t x = (uint32_t)s[a->sp - 2].i, y = (uint32_t)s[a->sp - 1].i;
        jint r;
        if ((op == 0x6c || op == 0x70) && y == 0)
            return stop(a, "%s by zero: exceptions are outside the subset", mnemonics[op]);
        switch (op) {
        case 0x60: r = (jint)(x + y); break;                           /* iadd */
        case 0x64: r = (jint)(x - y); break;                           /* isub */
        case 0x68: r = (jint)(x * y); break;                           /* imul */
        case 0x6c: /* idiv; INT_MIN / -1 is INT_MIN in Java, undefined in C */
            r = (jint)x == INT32_MIN && (jint)y == -1 ? INT32_MIN : (jint)x / (jint)y; break;
        case 0x70: r = (jint)y == -1 ? 0 : (jint)x % (jint)y; break;   /* irem */
        case 0x78: r = (jint)(x << (y & 31)); break;                   /* ishl */
        case 0x7a: /* ishr: arithmetic, written with logical shifts */
            r = (jint)x < 0 ? ~(jint)(~x >> (y & 31)) : (jint)(x >> (y & 31)); break;
        case 0x7c: r = (jint)(x >> (y & 31)); break;                   /* iushr */
        case 0x7e: r = (jint)(x & y); break;                           /* iand */
        case 0x80: r = (jint)(x | y); break;                           /* ior */
        default: r = (jint)(x ^ y); break;                             /* ixor */
        }
        a->sp -= 2;
        return push_i(a, r);
    }
    /* long arithmetic: two longs in (a shift's count an int), one out */
    case 0x61: case 0x65: case 0x69: case 0x6d: case 0x71: case 0x79: case 0x7b: case 0x7d:
    case 0x7f: case 0x81: case 0x83: {
        int shift = op == 0x79 || op == 0x7b || op == 0x7d;
        POP_CHECK(shift ? 3 : 4);
        int yat = a->sp - (shift ? 1 : 2), xat = yat - 2;
        uint64_t x = (uint64_t)s[xat].j, y = shift ? (uint64_t)(s[yat].i & 63) : (uint64_t)s[yat].j;
        jlong r;
        if ((op == 0x6d || op == 0x71) && y == 0)
            return stop(a, "%s by zero: exceptions are outside the subset", mnemonics[op]);
        switch (op) {
        case 0x61: r = (jlong)(x + y); break;                          /* ladd */
        case 0x65: r = (jlong)(x - y); break;                          /* lsub */
        case 0x69: r = (jlong)(x * y); break;                          /* lmul */
        case 0x6d: /* ldiv; LONG_MIN / -1 as idiv's */
            r = (jlong)x == INT64_MIN && (jlong)y == -1 ? INT64_MIN : (jlong)x / (jlong)y; break;
        case 0x71: r = (jlong)y == -1 ? 0 : (jlong)x % (jlong)y; break; /* lrem */
        case 0x79: r = (jlong)(x << y); break;                         /* lshl */
        case 0x7b: r = (jlong)x < 0 ? ~(jlong)(~x >> y) : (jlong)(x >> y); break;  /* lshr */
        case 0x7d: r = (jlong)(x >> y); break;                         /* lushr */
        case 0x7f: r = (jlong)(x & y); break;                          /* land */
        case 0x81: r = (jlong)(x | y); break;                          /* lor */
        default: r = (jlong)(x ^ y); break;                            /* lxor */
        }
        a->sp = xat;
        return push_j(a, r);
    }
    case 0x74:                                                         /* ineg */
        POP_CHECK(1);
        s[a->sp - 1].i = (jint)(0u - (uint32_t)s[a->sp - 1].i);
        return NEXT;
    case 0x75:                                                         /* lneg */
        POP_CHECK(2);
        s[a->sp - 2].j = (jlong)(0u - (uint64_t)s[a->sp - 2].j);
        return NEXT;
    case 0x84: {                                                       /* iinc */
        NEED(2);
        *next += 2;
        unsigned n = c[a->pc + 1];
        LOCAL(n);
        locals[n].i = (jint)((uint32_t)locals[n].i + (uint32_t)(int8_t)c[a->pc + 2]);
        return NEXT;
    }
    case 0x85: { POP_CHECK(1); jint v = s[--a->sp].i; return push_j(a, v); }          /* i2l */
    case 0x88:                                                         /* l2i */
        POP_CHECK(2);
        a->sp -= 2;
        return push_i(a, (jint)(uint32_t)(uint64_t)s[a->sp].j);
    case 0x94: {                                                       /* lcmp */
        POP_CHECK(4);
        jlong x = s[a->sp - 4].j, y = s[a->sp - 2].j;
        a->sp -= 4;
        return push_i(a, x < y ? -1 : x > y);
    }
    case 0x99: case 0x9a: case 0x9b: case 0x9c: case 0x9d: case 0x9e: { /* if<cond> */
        POP_CHECK(1);
        jint v = s[--a->sp].i;
        int t = op == 0x99 ? v == 0 : op == 0x9a ? v != 0 : op == 0x9b ? v < 0
              : op == 0x9c ? v >= 0 : op == 0x9d ? v > 0 : v <= 0;
        return branch(a, t, next);
    }
    case 0x9f: case 0xa0: case 0xa1: case 0xa2: case 0xa3: case 0xa4: { /* if_icmp<cond> */
        POP_CHECK(2);
        jint x = s[a->sp - 2].i, y = s[a->sp - 1].i;
        a->sp -= 2;
        int t = op == 0x9f ? x == y : op == 0xa0 ? x != y : op == 0xa1 ? x < y
              : op == 0xa2 ? x >= y : op == 0xa3 ? x > y : x <= y;
        return branch(a, t, next);
    }
    case 0xa5: case 0xa6: {                                            /* if_acmp<eq|ne> */
        POP_CHECK(2);
        int same = s[a->sp - 2].l == s[a->sp - 1].l;
        a->sp -= 2;
        return branch(a, op == 0xa5 ? same : !same, next);
    }
    case 0xc6: case 0xc7: {                                            /* ifnull, ifnonnull */
        POP_CHECK(1);
        int null = s[--a->sp].l == NULL;
        return branch(a, op == 0xc6 ? null : !null, next);
    }
    case 0xa7: return branch(a, 1, next);                              /* goto */
    case 0xac: case 0xad: case 0xb0: case 0xb1: {                      /* ?return */
        char want = returns(a->m->descriptor), kind = op == 0xac ? 'I' : op == 0xad ? 'J'
                                                    : op == 0xb0 ? 'L' : 'V';
        char have = want == 'L' || want == '[' ? 'L' : strchr("ZBCSI", want) ? 'I' : want;
        if (have != kind)
            return stop(a, "%s does not match the method's return type", mnemonics[op]);
        int slots = kind == 'V' ? 0 : kind == 'J' ? 2 : 1;
        POP_CHECK(slots);
        *ret = slots ? s[a->sp - slots] : (jvalue){.j = 0};
        return RETURN;
    }
    case 0xb2: case 0xb3: {                                            /* get/putstatic */
        member_ref r;
        NEED(2);
        *next += 2;
        if (!resolve(a->p, get_u2(c + a->pc + 1), CP_FIELDREF, &r))
            return stop(a, "%s", "a field reference that does not resolve");
        if (op == 0xb2 && strcmp(r.klass, "java/lang/System") == 0 && strcmp(r.name, "out") == 0)
            return push_l(a, (jobject)&system_out);
        static_field *f = own_field(a->p, &r);
        if (!f)
            return stop(a, "%s of a field other than System.out and the class's own static "
                           "int and boolean ones", mnemonics[op]);
        if (op == 0xb2)
            return push_i(a, __atomic_load_n(&f->value, __ATOMIC_SEQ_CST));
        POP_CHECK(1);
        jint v = s[--a->sp].i;
        __atomic_store_n(&f->value, r.descriptor[0] == 'Z' ? v & 1 : v, __ATOMIC_SEQ_CST);
        return NEXT;
    }
    case 0xb6: case 0xb7: {                                            /* invokevirtual, invokespecial */
        member_ref r;
        NEED(2);
        *next += 2;
        if (!resolve(a->p, get_u2(c + a->pc + 1), CP_METHODREF, &r))
            return stop(a, "%s", "a method reference that does not resolve");
        return op == 0xb6 ? invoke_virtual(a, &r, call) : invoke_special(a, &r, call);
    }
    case 0xb8: {                                                       /* invokestatic */
        member_ref r;
        NEED(2);
        *next += 2;
        if (!resolve(a->p, get_u2(c + a->pc + 1), CP_METHODREF, &r) ||
            strcmp(r.klass, a->p->class_name) != 0)
            return stop(a, "%s", "invokestatic of another class's method");
        if ((call->callee = own_method(a->p, &r, 1)) == NULL)
            return stop(a, "%s", "invokestatic of a method the class does not declare");
        return CALL;
    }
    case 0xbb: NEED(2); *next += 2; return new_object(a, get_u2(c + a->pc + 1)); /* new */
    default:
        return outside(a, op);
    }
}

static int run(program *p, host_thread *t, method_code *m, const jvalue *args, const char *tags,
               int n_args, jvalue *result);

/* ---- the program's threads ---- */

/* Each thread object start() was called on: kept for the run (a second
 * start is an error; join waits for its end). */
typedef struct started {
    host_thread *t;
    program *p;
    method_code *run;              /* its run()V; NULL: Thread.run, which does nothing */
    enum { STARTING, RUNNING, ENDED } state; /* under threads_lock */
    struct started *next;
} started;

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t threads_changed = PTHREAD_COND_INITIALIZER;
static started *threads;      /* under threads_lock */
static int threads_running;   /* started and not ended */
static int thread_stopped;    /* one stopped outside the subset */

static started *started_of(host_thread *t)
{
    started *s = threads;
    while (s && s->t != t)
        s = s->next;
    return s;
}

/* A started thread, as a Java thread runs: registered (start() returns
 * once it is), ThreadStart, run() interpreted with the object as `this`,
 * ThreadEnd. */
static void *thread_body(void *arg)
{
    started *s = arg;
    host_thread *t = s->t;
    host_thread_begin(t, t->name, 0);
    pthread_mutex_lock(&threads_lock);
    s->state = RUNNING;
    pthread_cond_broadcast(&threads_changed);
    pthread_mutex_unlock(&threads_lock);
    jvmtirt_post_ThreadStart(host_current_jni(), (jthread)&t->obj);
    jvalue self = {.l = (jobject)&t->obj}, result;
    int ok = !s->run || run(s->p, t, s->run, &self, "L", 1, &result) == NEXT;
    host_thread_finish(t, 1);
    pthread_mutex_lock(&threads_lock);
    s->state = ENDED;
    threads_running--;
    thread_stopped |= !ok;
    pthread_cond_broadcast(&threads_changed);
    pthread_mutex_unlock(&threads_lock);
    return NULL;
}

/* Thread.start(): a new host thread (detached: join and the program's end
 * wait on the state, not on the pthread). */
static int start_thread(activation *a, jobject thread)
{
    host_thread *t = host_thread_of(thread);
    if (!t)
        return stop(a, "%s", "start() on null (NullPointerException is outside the subset)");
    member_ref run_ref = {.name = "run", .descriptor = "()V"};
    snprintf(run_ref.klass, sizeof run_ref.klass, "%s", a->p->class_name);
    started *s = calloc(1, sizeof *s);
    if (!s)
        return stop(a, "%s", "out of memory");
    *s = (started){t, a->p, t->klass ? own_method(a->p, &run_ref, 0) : NULL, STARTING, NULL};
    pthread_mutex_lock(&threads_lock);
    int again = started_of(t) != NULL;
    if (!again) {
        s->next = threads;
        threads = s;
        threads_running++;
    }
    pthread_mutex_unlock(&threads_lock);
    if (again) {
        free(s);
        return stop(a, "%s", "a second start() (IllegalThreadStateException is outside the subset)");
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t os;
    int rc = pthread_create(&os, &attr, thread_body, s);
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&threads_lock);
    if (rc != 0) {
        s->state = ENDED;
        threads_running--;
    }
    while (s->state == STARTING)
        pthread_cond_wait(&threads_changed, &threads_lock);
    pthread_mutex_unlock(&threads_lock);
    return rc == 0 ? NEXT : stop(a, "%s", "a thread could not be created");
}

/* Thread.join(): waits until the thread has ended (at once if it was
 * never started), in native code as far as suspension goes; then a safe
 * point, where a thread suspended meanwhile stops. */
static int join_thread(activation *a, jobject thread)
{
    host_thread *t = host_thread_of(thread);
    if (!t)
        return stop(a, "%s", "join() on null (NullPointerException is outside the subset)");
    pthread_mutex_lock(&threads_lock);
    for (started *s = started_of(t); s && s->state != ENDED;)
        pthread_cond_wait(&threads_changed, &threads_lock);
    pthread_mutex_unlock(&threads_lock);
    host_safepoint(a->t);
    return NEXT;
}

/* The launcher's end: once main returns, every started thread's; 0 if one
 * stopped outside the subset. */
static int threads_end(void)
{
    pthread_mutex_lock(&threads_lock);
    while (threads_running > 0)
        pthread_cond_wait(&threads_changed, &threads_lock);
    int ok = !thread_stopped;
    pthread_mutex_unlock(&threads_lock);
    return ok;
}

/* Calls callee with the arguments on a's stack (an instance method's
 * `this` first, into slot 0); pushes what it returns. */
static int call(activation *a, method_code *callee)
{
    char tags[HOST_MAX_LOCALS];
    int self = !(callee->access & ACC_STATIC);
    tags[0] = 'L';
    int n = arguments(callee->descriptor, tags + self, HOST_MAX_LOCALS - self);
    if (n < 0)
        return stop(a, "%s", "a call with more arguments than the host's locals hold");
    n += self;
    if (a->sp < n)
        return stop(a, "%s", "the operand stack underflows");
    if (self && !a->stack[a->sp - n].l)
        return stop(a, "%s", "a call on null (NullPointerException is outside the subset)");
    if (a->t->height >= HOST_MAX_FRAMES)
        return stop(a, "%s", "the stack is full (StackOverflowError is outside the subset)");
    a->sp -= n;
    jvalue result;
    if (run(a->p, a->t, callee, a->stack + a->sp, tags, n, &result) != NEXT)
        return STOP;
    char r = returns(callee->descriptor);
    return r == 'V' ? NEXT : r == 'J' || r == 'D' ? push_j(a, result.j)
           : r == 'L' || r == '[' ? push_l(a, result.l) : push_i(a, result.i);
}

/* Runs method m on t with its arguments in slots 0..n_args: pushes its
 * frame (MethodEntry), steps through its instructions (each a safe point;
 * SingleStep, Breakpoint), and pops it (MethodExit, FramePop). NEXT once
 * it returned, STOP if the program stopped (the frame popped, no events). */
static int run(program *p, host_thread *t, method_code *m, const jvalue *args, const char *tags,
               int n_args, jvalue *result)
{
    activation a = {p, t, m, NULL, NULL, 0, 0};
    if (!m->code || m->max_locals > HOST_MAX_LOCALS || (int)m->max_locals < n_args) {
        fprintf(stderr, "jvmti-host: %s.%s%s: %s\n", p->class_name, m->name, m->descriptor,
                !m->code ? "no code to run (native or abstract)"
                         : "more locals than the host's frames hold (HOST_MAX_LOCALS)");
        return STOP;
    }
    a.stack = calloc(m->max_stack + 1, sizeof *a.stack);
    if (!a.stack) {
        fprintf(stderr, "jvmti-host: out of memory\n");
        return STOP;
    }
    host_frames_enter(t, m->id);
    a.f = &t->frames[t->height - 1];
    host_move_begin(t);
    for (int i = 0; i < n_args; i++) {
        a.f->locals[i] = args[i];
        a.f->tags[i] = tags[i];
    }
    host_move_end();
    int what = NEXT;
    jvalue ret = {.j = 0};
    while (what == NEXT) {
        if (a.pc >= m->code_len) {
            what = stop(&a, "%s", "the code ends without a return");
            break;
        }
        host_frames_step(t, m->id, (jlocation)a.pc); /* SingleStep, Breakpoint */
        size_t next = a.pc;
        pending todo = {NULL, INTERPRETED, NULL};
        host_move_begin(t); /* the instruction: a safe point */
        what = execute(&a, &next, &todo, &ret);
        host_move_end();
        if (what == CALL) /* outside the move: the callee's moves are its own */
            what = todo.what == INTERPRETED ? call(&a, todo.callee)
                   : todo.what == START     ? start_thread(&a, todo.thread)
                                            : join_thread(&a, todo.thread);
        a.pc = next;
    }
    free(a.stack);
    if (what == STOP) {
        host_stack_pop(t);
        return STOP;
    }
    *result = ret;
    host_frames_return_value(t, ret); /* MethodExit, FramePop */
    return NEXT;
}

/* Once the class is defined, before ClassLoad and ClassPrepare (before an
 * agent can hold a method ID): its code read, and the IDs' facts the
 * host's frames read (stacks.c, frames.c) filled in. */
static int prepare(jclass klass, void *arg)
{
    program *p = arg;
    host_member *ids;
    p->b = host_class_bytes(klass, &p->n, &ids);
    p->klass = (const host_class *)(const void *)klass;
    const char *super = host_class_super_name(klass);
    p->is_thread = super && strcmp(super, "java/lang/Thread") == 0;
    if (!parse(p)) {
        fprintf(stderr, "jvmti-host: %s: cannot read the class's code\n", p->class_name);
        return 0;
    }
    for (unsigned i = 0; i < p->n_methods; i++) {
        method_code *m = &p->methods[i];
        m->id = &ids[i];
        m->id->name = m->name;
        m->id->signature = m->descriptor;
        m->id->modifiers = (jint)m->access;
        m->id->max_locals = (int)m->max_locals;
        m->id->is_static = (m->access & ACC_STATIC) != 0;
        /* breakpoints (frames.c) may be set from now on */
        __atomic_store_n(&m->id->code_length, m->code ? (jlocation)m->code_len : 0,
                         __ATOMIC_RELEASE);
    }
    return 1;
}

/* The program lives as long as the process: agents hold its IDs. */
static program the_program;

int host_interp_main(host_thread *t, const char *dir, const char *class_name)
{
    program *p = &the_program;
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/%s.class", dir, class_name);
    if (k < 0 || (size_t)k >= sizeof path) {
        fprintf(stderr, "jvmti-host: -cp %s: the path is too long\n", dir);
        return 0;
    }
    for (char *s = path + strlen(dir) + 1; *s; s++)
        if (*s == '.' && strcmp(s, ".class") != 0)
            *s = '/'; /* pkg.Main: pkg/Main.class */
    p->class_name = strdup(class_name);
    for (char *s = p->class_name; s && *s; s++)
        if (*s == '.')
            *s = '/';
    if (!p->class_name || !host_class_load_file(host_current_jni(), (jthread)&t->obj, path,
                                               prepare, p))
        return 0;
    method_code *main_method = NULL;
    for (unsigned i = 0; i < p->n_methods; i++) {
        method_code *m = &p->methods[i];
        if (m->id->is_static && strcmp(m->name, "main") == 0 &&
            strcmp(m->descriptor, "([Ljava/lang/String;)V") == 0)
            main_method = m;
    }
    if (!main_method) {
        fprintf(stderr, "jvmti-host: %s: no static void main(String[])\n", path);
        return 0;
    }
    jvalue args[1] = {{.l = NULL}}; /* the host has no arrays: args is null */
    jvalue result;
    return run(p, t, main_method, args, "L", 1, &result) == NEXT && threads_end();
}
