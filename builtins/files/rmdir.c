/* rmdir.c - GNU rmdir: remove empty directories (-p, -v,
 * --ignore-fail-on-non-empty). */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_rmdir[] = "Usage: rmdir [OPTION]... DIRECTORY...";
const char bi_help_rmdir[] =
    "Remove each DIRECTORY, which must be empty.\n"
    "\n"
    "      --ignore-fail-on-non-empty\n"
    "                    say nothing about a directory that is not empty\n"
    "  -p, --parents     remove DIRECTORY and then each of its ancestors named "
    "in\n"
    "                    the operand; 'rmdir -p a/b/c' acts like 'rmdir a/b/c "
    "a/b a'\n"
    "  -v, --verbose     report each directory removed\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

enum { OPT_IGNORE = 0x100 };

static int non_empty(int rc) {
  return rc == -ENOTEMPTY || rc == -EEXIST;
}

typedef struct rdx {
  fu_job job;
  int verbose, ignore;
} rdx;

/* rmdir of one name (`what` words the error: "" for an operand,
 * "directory " for an ancestor, as GNU does). 0 when it is gone; -1 when
 * not, reported unless --ignore-fail-on-non-empty covers it, or when stdout
 * failed. */
static int remove_dir(rdx *x, const char *path, const char *what, int *status) {
  bi_ctx *c = x->job.c;
  if (x->verbose && fu_job_say(&x->job, "%s: removing directory, %s\n",
                               c->argv[0], fu_quote(c, path)) < 0)
    return -1;
  int rc = vfs_rmdir(c->vfs, c->cwd, path);
  if (rc < 0 && !(x->ignore && non_empty(rc))) {
    fu_job_error(&x->job, "failed to remove %s%s: %s", what, fu_quote(c, path),
                 bi_strerror(-rc));
    *status = 1;
  }
  return rc < 0 ? -1 : 0;
}

int bi_rmdir(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"ignore-fail-on-non-empty", OPT_IGNORE, BI_ARG_NONE},
      {"parents", 'p', BI_ARG_NONE},
      {"verbose", 'v', BI_ARG_NONE},
      BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "pv", opts);
  int o, parents = 0, verbose = 0, ignore = 0;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case OPT_IGNORE:
      ignore = 1;
      break;
    case 'p':
      parents = 1;
      break;
    case 'v':
      verbose = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  rdx x = {.verbose = verbose, .ignore = ignore};
  fu_job_init(&x.job, c);
  int status = 0;
  for (int i = 0; i < g.noperands && !x.job.out_failed; i++) {
    const char *p = g.operands[i];
    if (remove_dir(&x, p, "", &status) < 0 || !parents)
      continue;
    /* Walk up the operand's own ancestors: a/b/c, then a/b, then a. */
    char *q = arena_strdup(c->scratch, p);
    if (!q)
      return 1;
    for (;;) {
      size_t n = fu_dir_len(q);
      if (n == 0 || (n == 1 && q[0] == '/'))
        break;
      q[n] = 0;
      if (remove_dir(&x, q, "directory ", &status) < 0)
        break;
    }
  }
  return fu_job_end(&x.job, status);
}
