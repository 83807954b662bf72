/* jvmtigen's exit statuses: the man page's EXIT STATUS and the README's
 * table say the same. Every stage returns or exits with these names, never
 * with a bare number. */
#ifndef JVMTIGEN_STATUS_H
#define JVMTIGEN_STATUS_H

enum {
    EXIT_OK = 0,      /* success */
    EXIT_INVALID = 1, /* the spec (or a template, or a fill target) is invalid */
    EXIT_USAGE = 2,   /* the command line */
    EXIT_IO = 3,      /* a file could not be read or written; memory ran out */
    EXIT_STALE = 4,   /* --verify: the output directory is not current */
};

#endif
