/* The command line's options: the usage text and the parser. */
#include "options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "base/util.h"
#include "docs/docs.h"
#include "model/facts.h"

/* Reading a spec may take at most this long (--time-limit): real specs take
 * a fraction of a second, and a document built to drive libxml2 into its
 * quadratic corners is stopped with an error instead of hanging a build. */
#define DEFAULT_TIME_LIMIT 60
/* Error lines printed at most (--max-errors): the first hundred say what
 * is wrong; a broken spec gave 96,204. */
#define DEFAULT_MAX_ERRORS 100

const char usage_text[] =
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
    "      --jvmti-version V     MAJOR[.MINOR.MICRO] for JVMTI_VERSION, and jvmti.h in\n"
    "                            that release's style (default: the version the\n"
    "                            spec states: <specification majorversion=...>,\n"
    "                            else its latest <change>)\n"
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

int parse_options(int argc, char **argv, Options *o)
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
