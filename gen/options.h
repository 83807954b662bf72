/* jvmtigen's command line: the options of every command, their usage text,
 * and the parser that checks them (which options go with which command,
 * values, numbers). */
#ifndef JVMTIGEN_OPTIONS_H
#define JVMTIGEN_OPTIONS_H

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

/* What --help prints. */
extern const char usage_text[];

/* Reads the arguments after the command word into o (the command's flag,
 * o->command and o->argv0 set already): 0, or EXIT_USAGE after saying
 * what is wrong. A missing SPEC becomes the installed one where the command
 * allows it (o->default_spec, for the caller to free). */
int parse_options(int argc, char **argv, Options *o);

#endif
