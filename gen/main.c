/* jvmtigen: the command line. Subcommands share one pipeline:
 * load (load.c) -> build the model (build.c) -> check (check.c) -> emit. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxslt/xslt.h>

#include "spec/build.h"
#include "base/diag.h"
#include "spec/check.h"
#include "tools/diff.h"
#include "docs/docs.h"
#include "c/emit.h"
#include "tools/fill.h"
#include "spec/load.h"
#include "tools/model_json.h"
#include "base/heap.h"
#include "base/keep.h"
#include "base/output.h"
#include "base/phases.h"
#include "base/status.h"
#include "tools/verify.h"

#ifndef JVMTIGEN_VERSION /* the Makefile passes the file VERSION's line */
#error "JVMTIGEN_VERSION is not defined: build with make (it reads the file VERSION)"
#endif

typedef struct Options {
    const char *spec;
    const char *outdir;
    const char *version;
    const char *banner_file;
    const char *depfile;
    int md;                 /* -MD: depfile in the output directory */
    const char *dep_target; /* -MT: the depfile rule's target, instead of the outputs */
    int verbose;
    int quiet;
    int fill;  /* the fill command: SPEC FILE */
    int core;  /* fill --core */
    int model; /* the model command: JSON on stdout */
    int diff;  /* the diff command: OLD (spec) and NEW (file) */
    int json;  /* diff --json */
    int abi;   /* diff --abi: layouts instead of the API */
    const char *file;
    const char *templates; /* --templates DIR */
    int no_docs;           /* --no-docs */
    int verify;            /* --verify: compare with DIR, write nothing */
    int check;             /* the check command */
    const char *argv0;
    int command;            /* a command word (generate, fill, ...) was given */
    char *default_spec;     /* the installed spec, when no SPEC was given */
    const char *time_limit; /* --time-limit SECONDS, as given */
    unsigned seconds;       /* ... parsed: 0 = none */
    const char *max_errors; /* --max-errors N, as given */
    int errors_shown;       /* ... parsed: 0 = all */
} Options;

/* Reading a spec may take at most this long (--time-limit): real specs take
 * a fraction of a second, and a document built to drive libxml2 into its
 * quadratic corners is stopped with an error instead of hanging a build. */
#define DEFAULT_TIME_LIMIT 60
/* Error lines printed at most (--max-errors): the first hundred say what
 * is wrong; a broken spec gave 96,204. */
#define DEFAULT_MAX_ERRORS 100

static const char usage_text[] =
    "usage: jvmtigen [generate] [OPTIONS] SPEC\n"
    "       jvmtigen [generate] --verify [OPTIONS] SPEC\n"
    "       jvmtigen check [OPTIONS] SPEC\n"
    "       jvmtigen fill [--core] [--jvmti-version V] [-q] [-v] SPEC FILE\n"
    "       jvmtigen model [-q] SPEC\n"
    "       jvmtigen diff [--abi] [--json] [-q] OLD NEW\n"
    "\n"
    "Reads a JVM TI specification (jvmti.xml) and writes C for it. Without\n"
    "SPEC, generate, fill and model read the jvmti.xml installed with jvmtigen\n"
    "(PREFIX/share/jvmtigen/jvmti.xml, the facts of JDK 25).\n"
    "\n"
    "Commands:\n"
    "  generate    (the default) check SPEC and write every output into DIR\n"
    "  check       check SPEC and write nothing\n"
    "  fill        start FILE, the C file of jvmti_impl_ functions, with a stub for\n"
    "              each; later runs add the stubs it lacks and flag changed\n"
    "              signatures, and keep all that you wrote; with --core, leave out\n"
    "              the functions jvmtigen's runtime core (libjvmtirt) implements\n"
    "  model       check SPEC and print its model as JSON on stdout: the version;\n"
    "              categories, functions, callbacks, events, typedefs, capabilities,\n"
    "              constant groups, errors and base types with their attributes,\n"
    "              in document order. No prose and no line numbers: specs with the\n"
    "              same facts print the same bytes. An attribute the spec leaves\n"
    "              out is null (false for flags); every key is always there.\n"
    "              The format is in README.md.\n"
    "  diff        check the specs OLD and NEW and print what changed from one to\n"
    "              the other: functions, events, callbacks, types, base types,\n"
    "              capabilities, errors, constant groups and constants added,\n"
    "              removed or changed (number, phase, since, capabilities,\n"
    "              signature, parameters, ...); --json prints it as JSON. Exit\n"
    "              status 0 whether or not they differ. --abi: what changed in\n"
    "              layout instead (struct sizes and offsets, function table and\n"
    "              event callback slots, capability bits).\n"
    "\n"
    "Options:\n"
    "  -o, --output DIR          output directory (default: out)\n"
    "      --jvmti-version V     MAJOR[.MINOR.MICRO] for JVMTI_VERSION (default: the\n"
    "                            highest version in the spec's change history)\n"
    "      --banner FILE         opening comment for generated files, instead of the\n"
    "                            spec's copyright lines\n"
    "      --depfile FILE        write a make rule: outputs depend on every file read\n"
    "      -MD                   the same, as DIR/jvmtigen.d\n"
    "      -MT TARGET            the rule's target is TARGET (a stamp file, say),\n"
    "                            not the outputs\n"
    "      --templates DIR       XSLT templates of the documentation (default: the\n"
    "                            templates/ installed with jvmtigen)\n"
    "      --no-docs             write the C outputs only\n"
    "      --verify              write nothing: compare what SPEC generates with the\n"
    "                            files in DIR, print a unified diff of each that\n"
    "                            differs, is missing or would be removed; exit 4 if\n"
    "                            any does\n"
    "      --json                (diff) print the changes as JSON\n"
    "      --abi                 (diff) compare layouts, not the API\n"
    "      --time-limit S        give up (exit 1) when reading and checking SPEC, or\n"
    "                            running the templates, takes longer than S seconds\n"
    "                            (default 60; 0: no limit)\n"
    "      --max-errors N        print the first N errors only (default 100; 0: all)\n"
    "  -q, --quiet               print errors only\n"
    "  -v, --verbose             say which files were written or left unchanged\n"
    "  -h, --help                show this help\n"
    "      --version             show jvmtigen's version\n"
    "\n"
    "Outputs: jvmti.h, jvmtigen_impl.h, jvmtigen_entry.c, jvmtigen_tables.h,\n"
    "         jvmtigen_tables.c, jvmtigen_post.h, jvmtigen_post.c, jvmtigen_defaults.c,\n"
    "         jvmti.html, man/man3/*.3\n"
    "Exit status: 0 success, 1 invalid spec, 2 usage error, 3 I/O error,\n"
    "             4 files in DIR differ from the spec's (--verify).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "jvmtigen: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'jvmtigen --help'.\n");
    return EXIT_USAGE;
}

/* Matches "--name VALUE" and "--name=VALUE"; returns 1 and advances *i. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **out, int *err)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *out = a + n + 1;
    } else if (a[n] != '\0') {
        return 0;
    } else if (*i + 1 >= argc) {
        *err = usage_error("%s needs a value", name);
        return 1;
    } else {
        /* "-o -q" is far likelier a forgotten value than a directory named
         * "-q"; such a name can still be given as --output=-q or ./-q. */
        const char *v = argv[*i + 1];
        if (v[0] == '-' && v[1] != '\0') {
            Buf m;
            buf_init(&m);
            buf_printf(&m,
                       "%s needs a value, and '%s' looks like an option (for a file "
                       "of that name write ./%s or %s=%s)",
                       name, v, v, name, v);
            *err = usage_error("%s", m.data);
            buf_free(&m);
            return 1;
        }
        *out = argv[++*i];
    }
    if (!**out)
        *err = usage_error("%s needs a value, and it is empty", name);
    return 1;
}

/* A whole decimal number from 0 to max (no sign, nothing after it). */
static bool parse_count(const char *text, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || n > max)
        return false;
    *out = n;
    return true;
}

static int parse_options(int argc, char **argv, Options *o)
{
    int err = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (opt_value(argc, argv, &i, "--output", &o->outdir, &err) ||
            opt_value(argc, argv, &i, "-o", &o->outdir, &err) ||
            opt_value(argc, argv, &i, "--jvmti-version", &o->version, &err) ||
            opt_value(argc, argv, &i, "--banner", &o->banner_file, &err) ||
            opt_value(argc, argv, &i, "--depfile", &o->depfile, &err) ||
            opt_value(argc, argv, &i, "-MT", &o->dep_target, &err) ||
            opt_value(argc, argv, &i, "--templates", &o->templates, &err) ||
            opt_value(argc, argv, &i, "--time-limit", &o->time_limit, &err) ||
            opt_value(argc, argv, &i, "--max-errors", &o->max_errors, &err)) {
            if (err)
                return err;
        } else if (strcmp(a, "--no-docs") == 0) {
            o->no_docs = 1;
        } else if (strcmp(a, "--verify") == 0 && !o->fill && !o->model && !o->diff) {
            o->verify = 1;
        } else if (strcmp(a, "-MD") == 0) {
            o->md = 1;
        } else if (strcmp(a, "--core") == 0 && o->fill) {
            o->core = 1;
        } else if (strcmp(a, "--json") == 0 && o->diff) {
            o->json = 1;
        } else if (strcmp(a, "--abi") == 0 && o->diff) {
            o->abi = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--") == 0 && i + 1 < argc && !o->spec &&
                   i + 2 + (o->fill || o->diff) == argc) {
            o->spec = argv[++i];
            if (o->fill || o->diff)
                o->file = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if ((o->fill || o->diff) && o->spec && !o->file) {
            o->file = a;
        } else if (o->spec) {
            return usage_error(o->fill   ? "fill takes one SPEC and one FILE ('%s' is a third)"
                               : o->diff ? "diff takes two specs, OLD and NEW ('%s' is a third)"
                                         : "more than one spec given ('%s')",
                               a);
        } else {
            o->spec = a;
        }
    }
    /* generate, fill and model without a SPEC read the spec installed with
     * jvmtigen; fill's one name is then its FILE (unless it names a spec).
     * A bare `jvmtigen` still prints the usage error. */
    size_t len = o->spec ? strlen(o->spec) : 0;
    if (o->fill && o->spec && !o->file && !(len >= 4 && strcmp(o->spec + len - 4, ".xml") == 0)) {
        o->file = o->spec;
        o->spec = NULL;
    }
    if (!o->spec && !o->check && !o->diff && (argc > 0 || o->command) && (!o->fill || o->file))
        o->spec = o->default_spec = docs_default_spec(o->argv0);
    if (!o->spec)
        return usage_error("%s", o->diff ? "diff needs two specs, OLD and NEW" : "no spec given");
    if (o->fill && !o->file)
        return usage_error("%s", "fill needs a FILE after the SPEC");
    if (o->diff && !o->file)
        return usage_error("%s", "diff needs two specs, OLD and NEW");
    if (o->diff && (o->outdir || o->version || o->banner_file || o->depfile || o->md ||
                    o->verbose || o->templates || o->no_docs))
        return usage_error("%s", "diff takes only --abi, --json and -q");
    if (o->fill && (o->outdir || o->banner_file || o->depfile || o->md))
        return usage_error("%s", "fill takes no -o, --banner, --depfile or -MD");
    if (o->model &&
        (o->outdir || o->version || o->banner_file || o->depfile || o->md || o->verbose))
        return usage_error("%s", "model takes no -o, --jvmti-version, --banner, --depfile, "
                                 "-MD or -v");
    if ((o->fill || o->model) && (o->templates || o->no_docs))
        return usage_error("%s takes no --templates or --no-docs", o->fill ? "fill" : "model");
    if (o->verify && o->check)
        return usage_error("%s", "check takes no --verify (check writes nothing anyway)");
    if (o->verify && (o->depfile || o->md))
        return usage_error("%s", "--verify writes nothing: no --depfile or -MD");
    if (o->dep_target && !o->depfile && !o->md)
        return usage_error("%s", "-MT names the target of a depfile: add -MD or --depfile");
    unsigned long n = DEFAULT_TIME_LIMIT;
    if (o->time_limit && !parse_count(o->time_limit, 86400, &n))
        return usage_error("--time-limit '%s' is not a number of seconds (0..86400)",
                           o->time_limit);
    o->seconds = (unsigned)n;
    n = DEFAULT_MAX_ERRORS;
    if (o->max_errors && !parse_count(o->max_errors, 1000000, &n))
        return usage_error("--max-errors '%s' is not a number (0..1000000)", o->max_errors);
    o->errors_shown = (int)n;
    if (o->version) {
        JvmtiVersion v;
        if (!version_parse(o->version, &v) || v.major < 1)
            return usage_error("--jvmti-version '%s' is not MAJOR[.MINOR.MICRO] "
                               "(major 1..4095, minor and micro 0..255)",
                               o->version);
    }
    return 0;
}

static void free_strings(Vec *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->items[i]);
    vec_free(v);
}

/* The message the time limit prints, made before the clock starts: a
 * signal handler may only write() it. */
static char time_limit_message[1024];
static size_t time_limit_message_len;

static void on_time_limit(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, time_limit_message, time_limit_message_len);
    (void)w;
    _exit(EXIT_INVALID); /* nothing has been written yet */
}

/* Loads, builds and checks the spec at path, within o->seconds. *spec is
 * set (to NULL when it cannot be loaded); returns an exit code. */
static int load_and_check(const Options *o, const char *path, Spec **spec, xmlDocPtr *doc,
                          Vec *deps)
{
    *spec = NULL;
    if (o->seconds) {
        int n = snprintf(time_limit_message, sizeof time_limit_message,
                         "%s: error: gave up after %u seconds of reading it (--time-limit); a "
                         "document made to keep the XML parser busy?\n",
                         path, o->seconds);
        time_limit_message_len = n < 0 ? 0
                                 : (size_t)n < sizeof time_limit_message
                                     ? (size_t)n
                                     : sizeof time_limit_message - 1;
        signal(SIGALRM, on_time_limit);
        alarm(o->seconds);
    }
    int rc = load_spec(path, doc, deps);
    if (rc == LOAD_OK) {
        /* Counted from here: diff loads a second spec after a first one's errors. */
        int before = diag_error_count();
        *spec = build_spec(*doc, path);
        if (diag_error_count() == before)
            check_spec(*spec);
        rc = diag_error_count() > before ? EXIT_INVALID : EXIT_OK;
    } else {
        rc = rc == LOAD_IO ? EXIT_IO : EXIT_INVALID;
    }
    alarm(0);
    diag_flush();
    return rc;
}

/* Frees what load_and_check made. */
static void unload(Spec *spec, xmlDocPtr doc)
{
    spec_free(spec);
    if (doc)
        xmlFreeDoc(doc);
}

/* The version outputs are made for: --jvmti-version, else the spec's
 * latest change. False (with the diagnostic printed) if neither is known. */
static bool resolve_version(const Options *o, const Spec *spec, JvmtiVersion *v)
{
    const char *vtext = o->version ? o->version : spec->latest_version;
    if (!vtext) {
        Loc l = {o->spec, 0};
        error_at(&l, "no <change version=...> says which JVM TI version this is; "
                     "pass --jvmti-version");
        diag_flush();
        return false;
    }
    version_parse(vtext, v);
    return true;
}

static int fill(const Options *o)
{
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    int rc = load_and_check(o, o->spec, &spec, &doc, &deps);
    FillOptions fo = {.spec_path = o->spec,
                      .file = o->file,
                      .verbose = o->verbose,
                      .quiet = o->quiet,
                      .core = o->core};
    if (rc == EXIT_OK && !resolve_version(o, spec, &fo.version))
        rc = EXIT_INVALID;
    if (rc == EXIT_OK)
        rc = fill_file(spec, &fo);
    unload(spec, doc);
    free_strings(&deps);
    return rc;
}

static int write_stdout(const Buf *b)
{
    if (fwrite(b->data, 1, b->len, stdout) != b->len || fflush(stdout) != 0) {
        Loc l = {"<stdout>", 0};
        error_at(&l, "cannot write: %s", strerror(errno));
        diag_flush();
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The model as JSON on stdout; nothing at all when the spec is invalid. */
static int model(const Options *o)
{
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    int rc = load_and_check(o, o->spec, &spec, &doc, &deps);
    if (rc == EXIT_OK) {
        Buf json;
        buf_init(&json);
        emit_model_json(spec, &json);
        rc = write_stdout(&json);
        buf_free(&json);
    }
    unload(spec, doc);
    free_strings(&deps);
    return rc;
}

/* The changes from OLD (o->spec) to NEW (o->file) on stdout. Both specs
 * are checked, and all their errors reported, before anything is printed. */
static int diff(const Options *o)
{
    Vec deps = {0};
    xmlDocPtr docs[2] = {NULL, NULL};
    Spec *specs[2] = {NULL, NULL};
    const char *paths[2] = {o->spec, o->file};
    int rc = EXIT_OK;
    for (int i = 0; i < 2; i++) {
        int r = load_and_check(o, paths[i], &specs[i], &docs[i], &deps);
        if (rc == EXIT_OK)
            rc = r;
    }
    if (rc == EXIT_OK) {
        Buf out;
        buf_init(&out);
        DiffNames names = {paths[0], paths[1]};
        emit_spec_diff(specs[0], specs[1], &names, o->json, o->abi, &out);
        rc = write_stdout(&out);
        buf_free(&out);
    }
    for (int i = 0; i < 2; i++)
        unload(specs[i], docs[i]);
    free_strings(&deps);
    return rc;
}

/* The output set: every file a run writes, made in memory before any is
 * written, then written all or nothing (a failure leaves DIR as it was).
 * In order: the C outputs (c/emit.c's outputs[]), the docs (jvmti.html,
 * the man pages), then the depfile when one is asked for. */
typedef struct OutputSet {
    OutFile *files;
    size_t n;
    /* files[0..n_outputs) are the outputs: what --verify compares, -v
     * lists and the depfile names as its targets. */
    size_t n_outputs;
} OutputSet;

/* Adds a file at DIR/NAME (NAME alone when dir is NULL), empty. */
static OutFile *set_add(OutputSet *set, const char *dir, const char *name)
{
    set->files = xrealloc(set->files, (set->n + 1) * sizeof *set->files);
    OutFile *f = &set->files[set->n++];
    Buf path;
    buf_init(&path);
    if (dir)
        buf_printf(&path, "%s/", dir);
    buf_puts(&path, name);
    *f = (OutFile){.path = path.data};
    buf_init(&f->data);
    return f;
}

static void set_free(OutputSet *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->files[i].path);
        buf_free(&set->files[i].data);
    }
    free(set->files);
}

/* The C outputs, the first files of the set: made while the docs' helper
 * process renders jvmti.html (docs.h), or first when there is none. */
typedef struct CEmit {
    const GenContext *ctx;
    OutFile *files;
} CEmit;

static void emit_c_outputs(void *arg)
{
    CEmit *ce = arg;
    phase_begin();
    emit_all(ce->ctx, ce->files);
    phase_end("c");
}

/* Every output into the set, in memory: the C outputs, and the docs unless
 * --no-docs. In the docs' helper process (docs->helper) only jvmti.html is
 * rendered, and sent to the parent: the set stays without docs. Returns an
 * exit status. */
static int make_outputs(const Options *o, const GenContext *ctx, xmlDocPtr doc, Vec *deps,
                        OutputSet *set, DocsResult *docs)
{
    for (int i = 0; i < n_outputs; i++)
        set_add(set, o->outdir, outputs[i].name);
    CEmit ce = {ctx, set->files};
    int rc = EXIT_OK;
    if (o->no_docs) {
        emit_c_outputs(&ce);
    } else {
        char *dir = o->templates ? xstrdup(o->templates) : docs_default_templates(o->argv0);
        rc = docs_render(ctx, doc, dir, o->seconds, docs, deps, emit_c_outputs, &ce);
        free(dir);
    }
    for (size_t i = 0; rc == EXIT_OK && !docs->helper && i < docs->n; i++) {
        OutFile *f = set_add(set, o->outdir, docs->files[i].name);
        f->data = docs->files[i].data; /* moved: docs keeps the names */
        buf_init(&docs->files[i].data);
    }
    set->n_outputs = set->n;
    return rc;
}

/* --verify: each output against its file in DIR, and the man pages a run
 * would remove. The diffs go to stdout; DIR is only read. */
static int verify(const Options *o, const OutputSet *set, const DocsResult *docs)
{
    Buf report;
    buf_init(&report);
    size_t differ = 0, total = set->n_outputs;
    int rc = EXIT_OK;
    for (size_t i = 0; i < set->n_outputs; i++) {
        const OutFile *f = &set->files[i];
        int r = verify_file(f->path, f->data.data ? f->data.data : "", f->data.len, &report);
        if (r < 0)
            rc = EXIT_IO;
        differ += r > 0;
        if (r >= 0 && o->verbose)
            fprintf(stderr, "jvmtigen: %s %s\n", r ? "differs" : "up to date", f->path);
    }
    if (!o->no_docs) {
        Vec stale = {0};
        docs_stale(o->outdir, docs, &stale);
        for (size_t i = 0; i < stale.n; i++) {
            int r = verify_removed(stale.items[i], &report);
            if (r < 0)
                rc = EXIT_IO;
            differ += r > 0;
            total += r > 0;
            if (r > 0 && o->verbose)
                fprintf(stderr, "jvmtigen: would remove %s\n", (char *)stale.items[i]);
        }
        free_strings(&stale);
    }
    diag_flush();
    if (rc == EXIT_OK && report.len)
        rc = write_stdout(&report);
    if (rc == EXIT_OK && differ) {
        if (!o->quiet)
            fprintf(stderr, "jvmtigen: %zu of %zu files in %s differ from what %s generates\n",
                    differ, total, o->outdir, o->spec);
        rc = EXIT_STALE;
    }
    buf_free(&report);
    return rc;
}

/* The depfile (--depfile FILE, or DIR/jvmtigen.d with -MD) as the set's
 * last file: the outputs (or -MT's target) depend on every file the run
 * read. Refused when it would replace one of them. Returns an exit status. */
static int add_depfile(const Options *o, OutputSet *set, Vec *deps)
{
    OutFile *dep =
        o->depfile ? set_add(set, NULL, o->depfile) : set_add(set, o->outdir, "jvmtigen.d");
    if (o->banner_file)
        vec_push(deps, xstrdup(o->banner_file));
    int rc = EXIT_OK;
    /* --depfile SPEC lost the spec: refused before anything is written. */
    for (size_t i = 0; i < deps->n + set->n_outputs && rc == EXIT_OK; i++) {
        const char *other = i < deps->n ? deps->items[i] : set->files[i - deps->n].path;
        if (same_file(dep->path, other)) {
            fprintf(stderr, "jvmtigen: error: the depfile '%s' would replace %s '%s'\n", dep->path,
                    i < deps->n ? "a file this run reads," : "the output", other);
            rc = EXIT_USAGE;
        }
    }
    if (rc != EXIT_OK)
        return rc;
    const char **targets = xcalloc(set->n_outputs, sizeof *targets);
    for (size_t i = 0; i < set->n_outputs; i++)
        targets[i] = set->files[i].path;
    const char *bad = NULL;
    const char *why = o->dep_target
                          ? depfile_append(&dep->data, &o->dep_target, 1,
                                           (const char *const *)deps->items, deps->n, &bad)
                          : depfile_append(&dep->data, targets, set->n_outputs,
                                           (const char *const *)deps->items, deps->n, &bad);
    free(targets);
    if (why) {
        Loc l = {dep->path, 0};
        error_at(&l,
                 "cannot name '%s' in a make rule: make cannot read a file name "
                 "with %s",
                 bad, why);
        rc = EXIT_IO;
    }
    return rc;
}

/* Writes the set into DIR, under its lock, and removes the man pages the
 * docs no longer have. Returns an exit status. */
static int write_set(const Options *o, OutputSet *set, const DocsResult *docs)
{
    if (make_dirs(o->outdir) != 0)
        return EXIT_IO;
    /* One writer at a time per output directory, up to the pruning of
     * stale pages: two runs at once would leave a mix of their sets. */
    int lock = output_lock(o->outdir);
    if (lock < 0)
        return EXIT_IO;
    int rc = EXIT_OK;
    if (docs->n > 1) {
        Buf man;
        buf_init(&man);
        buf_printf(&man, "%s/" DOCS_MAN_DIR, o->outdir);
        if (make_dirs(man.data) != 0)
            rc = EXIT_IO;
        buf_free(&man);
    }
    if (rc == EXIT_OK && write_files(set->files, set->n) != 0)
        rc = EXIT_IO;
    for (size_t i = 0; i < set->n_outputs && rc == EXIT_OK && o->verbose; i++)
        fprintf(stderr, "jvmtigen: %s %s\n", set->files[i].changed ? "wrote" : "unchanged",
                set->files[i].path);
    if (rc == EXIT_OK && !o->no_docs && docs_prune(o->outdir, docs, o->verbose) != 0)
        rc = EXIT_IO;
    output_unlock(lock);
    return rc;
}

/* generate and check: load, build and check the spec (check stops there);
 * make every output in memory, then compare them with DIR (--verify) or
 * write them into it, all or nothing, with the depfile last. */
static int generate(const Options *o, int write_outputs)
{
    Buf banner;
    buf_init(&banner);
    if (o->banner_file && read_file(o->banner_file, &banner) != 0) {
        Loc l = {o->banner_file, 0};
        error_at(&l, "cannot read: %s", read_file_error(errno));
        diag_flush();
        return EXIT_IO;
    }
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    phase_begin();
    int rc = load_and_check(o, o->spec, &spec, &doc, &deps);
    phase_end("load");
    GenContext ctx = {.spec = spec,
                      .spec_name = path_base_name(o->spec),
                      .banner = o->banner_file ? banner.data : NULL};
    if (rc == EXIT_OK && write_outputs && !resolve_version(o, spec, &ctx.version))
        rc = EXIT_INVALID;
    OutputSet set = {0};
    DocsResult docs = {0};
    if (rc == EXIT_OK && write_outputs) {
        rc = make_outputs(o, &ctx, doc, &deps, &set, &docs);
        /* The docs' helper process has sent its page: its status is
         * rc, and what to write is the parent's business. */
        if (rc == EXIT_OK && !docs.helper && o->verify)
            rc = verify(o, &set, &docs);
        else if (rc == EXIT_OK && !docs.helper) {
            if (o->depfile || o->md)
                rc = add_depfile(o, &set, &deps);
            if (rc == EXIT_OK)
                rc = write_set(o, &set, &docs);
        }
        /* A helper that failed after sending its page is no fault of the
         * spec's: an I/O status, which does not hide the spec's own. */
        int helper = docs_wait(&docs);
        if (helper != EXIT_OK && (rc == EXIT_OK || rc == EXIT_STALE))
            rc = helper;
        diag_flush();
    }
    set_free(&set);
    docs_result_free(&docs);
    keep_arena_until_exit(spec ? spec->arena : NULL); /* base/keep.h says why */
    keep_doc_until_exit(doc);
    free_strings(&deps);
    buf_free(&banner);
    return rc;
}

int main(int argc, char **argv)
{
    heap_setup();
    LIBXML_TEST_VERSION
    /* Past a file size limit (ulimit -f) a write fails with EFBIG, which is
     * reported and leaves the outputs as they were, instead of a signal
     * killing the generator half-way. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("jvmtigen %s (libxml2 %s, libxslt %s)\n", JVMTIGEN_VERSION, xmlParserVersion,
               xsltEngineVersion);
        return EXIT_OK;
    }
    int first = 1, write_outputs = 1;
    Options o = {.argv0 = argv[0]};
    if (argc >= 2 && strcmp(argv[1], "generate") == 0) {
        first = 2;
    } else if (argc >= 2 && strcmp(argv[1], "check") == 0) {
        first = 2;
        write_outputs = 0;
        o.check = 1;
    } else if (argc >= 2 && strcmp(argv[1], "fill") == 0) {
        first = 2;
        o.fill = 1;
    } else if (argc >= 2 && strcmp(argv[1], "model") == 0) {
        first = 2;
        o.model = 1;
    } else if (argc >= 2 && strcmp(argv[1], "diff") == 0) {
        first = 2;
        o.diff = 1;
    }
    o.command = first == 2;
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        }
    }
    int rc = parse_options(argc - first, argv + first, &o);
    if (!o.outdir)
        o.outdir = "out";
    if (rc == 0) {
        diag_set_quiet(o.quiet);
        diag_set_max_errors(o.errors_shown);
        rc = o.fill    ? fill(&o)
             : o.model ? model(&o)
             : o.diff  ? diff(&o)
                       : generate(&o, write_outputs);
    }
    free(o.default_spec);
    diag_reset();
    xsltCleanupGlobals();
    xmlCleanupParser();
    return rc;
}
