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

#include "model/build.h"
#include "base/diag.h"
#include "model/check.h"
#include "tools/diff.h"
#include "docs/docs.h"
#include "c/emit.h"
#include "tools/fill.h"
#include "model/load.h"
#include "tools/model_json.h"
#include "base/heap.h"
#include "base/keep.h"
#include "base/output.h"
#include "base/phases.h"
#include "base/status.h"
#include "tools/verify.h"
#include "options.h"

#ifndef JVMTIGEN_VERSION /* the Makefile passes the file VERSION's line */
#error "JVMTIGEN_VERSION is not defined: build with make (it reads the file VERSION)"
#endif

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
    const char *vtext = o->version ? o->version : spec->version;
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

/* No file of the set (the outputs, the depfile) and no man page the run
 * would remove may be a file the run read (deps: the spec, its DTD, the
 * templates' files, the banner): compared by device and inode and by
 * canonical name (a hard link, a symbolic link, "..", a folder not made
 * yet). Returns an exit status; a refusal is a usage error, said here. */
static int spare_inputs(const Options *o, const OutputSet *set, const DocsResult *docs,
                        const Vec *deps)
{
    Vec written = {0};
    for (size_t i = 0; i < set->n; i++)
        vec_push(&written, xstrdup(set->files[i].path));
    if (!o->no_docs)
        docs_stale(o->outdir, docs, &written);
    FileId *in = xcalloc(deps->n + 1, sizeof *in);
    for (size_t i = 0; i < deps->n; i++)
        file_id(deps->items[i], &in[i]);
    int rc = EXIT_OK;
    for (size_t k = 0; k < written.n && rc == EXIT_OK; k++) {
        FileId out;
        file_id(written.items[k], &out);
        for (size_t i = 0; i < deps->n && rc == EXIT_OK; i++) {
            if (file_id_same(&out, &in[i])) {
                fprintf(stderr,
                        "jvmtigen: error: %s '%s' would replace '%s', a file this run reads\n",
                        k < set->n_outputs ? "the output"
                        : k < set->n       ? "the depfile"
                                           : "removing the stale man page",
                        (char *)written.items[k], (char *)deps->items[i]);
                rc = EXIT_USAGE;
            }
        }
        file_id_free(&out);
    }
    for (size_t i = 0; i < deps->n; i++)
        file_id_free(&in[i]);
    free(in);
    free_strings(&written);
    return rc;
}

/* The depfile (--depfile FILE, or DIR/jvmtigen.d with -MD) as the set's
 * last file: the outputs (or -MT's target) depend on every file the run
 * read. Refused when it would replace one of them. Returns an exit status. */
static int add_depfile(const Options *o, OutputSet *set, Vec *deps)
{
    OutFile *dep =
        o->depfile ? set_add(set, NULL, o->depfile) : set_add(set, o->outdir, "jvmtigen.d");
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
            if (o->banner_file)
                vec_push(&deps, xstrdup(o->banner_file));
            if (o->depfile || o->md)
                rc = add_depfile(o, &set, &deps);
            if (rc == EXIT_OK)
                rc = spare_inputs(o, &set, &docs, &deps);
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
