/*
 * zfront.h - what gzip, bzip2 and xz share around their codecs: the file
 * operands (FILE -> FILE.gz and back, -c, -k, -f, -t, -l, -r), the copy of
 * mode and times to the new file, the removal of the old one, and each
 * tool's own wording of the same troubles.
 */
#ifndef VSH_BUILTINS_ARCHIVE_ZFRONT_H
#define VSH_BUILTINS_ARCHIVE_ZFRONT_H

#include "builtins/archive/zcore.h"
#include "builtins/builtin.h"

typedef struct zf_opts {
  int decompress, to_stdout, keep, force, test, list, recursive, verbose;
  int quiet, level;
  int name; /* gzip -N (1) / -n (0); -1: the default */
  const char *suffix;
} zf_opts;

/* Runs the tool `kind` on the operands (none: stdin to stdout). prog is
 * the name messages carry. Returns the exit status. */
int zf_run(bi_ctx *c, int kind, const char *prog, zf_opts *o, char **ops,
           int n);

/* Option parsing with the tool's own complaint: like bi_getopt_next, but
 * an error's "Try" line is printed as try_fmt (a printf format given the
 * program name twice, using one or both), or not at all when try_fmt is
 * NULL. */
int zf_getopt(bi_getopt *g, const char *try_fmt, const char *prog);

#endif
