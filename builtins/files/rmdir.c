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
    "                    the operand; 'rmdir -p a/b/c' acts like "
    "'rmdir a/b/c a/b a'\n"
    "  -v, --verbose     report each directory removed\n"
    "      --help        show this help and exit\n"
    "      --version     show version information and exit\n";

enum { OPT_IGNORE = 0x100 };

static int non_empty(int rc) {
  return rc == -ENOTEMPTY || rc == -EEXIST;
}

int bi_rmdir(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"ignore-fail-on-non-empty", OPT_IGNORE, BI_ARG_NONE},
      {"parents", 'p', BI_ARG_NONE},
      {"verbose", 'v', BI_ARG_NONE},
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", BI_OPT_VERSION, BI_ARG_NONE},
      {NULL, 0, 0}};
  bi_getopt g;
  bi_getopt_init(&g, c, "pv", opts);
  int o, parents = 0, verbose = 0, ignore = 0;
  while ((o = bi_getopt_next(&g)) != -1) {
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
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return fu_version(c);
    default:
      return 1;
    }
  }
  if (g.noperands == 0) {
    bi_error(c, "missing operand");
    fu_try_help(c);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    if (verbose && wr_printf(&w, "%s: removing directory, %s\n", c->argv[0],
                             fu_quote(c, p)) < 0)
      return fu_out_status(&w);
    int rc = vfs_rmdir(c->vfs, c->cwd, p);
    if (rc < 0) {
      if (!(ignore && non_empty(rc))) {
        wr_flush(&w);
        bi_error(c, "failed to remove %s: %s", fu_quote(c, p),
                 bi_strerror(-rc));
        status = 1;
      }
      continue;
    }
    if (!parents)
      continue;
    /* Walk up the operand's own ancestors: a/b/c, then a/b, then a. */
    char *q = arena_strdup(c->scratch, p);
    if (!q)
      return 1;
    for (;;) {
      size_t n = strlen(q);
      while (n > 1 && q[n - 1] == '/')
        n--;
      while (n > 0 && q[n - 1] != '/')
        n--;
      while (n > 1 && q[n - 1] == '/')
        n--;
      if (n == 0 || (n == 1 && q[0] == '/'))
        break;
      q[n] = 0;
      if (verbose && wr_printf(&w, "%s: removing directory, %s\n", c->argv[0],
                               fu_quote(c, q)) < 0)
        return fu_out_status(&w);
      rc = vfs_rmdir(c->vfs, c->cwd, q);
      if (rc < 0) {
        if (!(ignore && non_empty(rc))) {
          wr_flush(&w);
          bi_error(c, "failed to remove directory %s: %s", fu_quote(c, q),
                   bi_strerror(-rc));
          status = 1;
        }
        break;
      }
    }
  }
  if (wr_flush(&w) < 0)
    return fu_out_status(&w);
  return status;
}
