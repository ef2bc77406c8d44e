/* readlink.c - GNU readlink: a symlink's target, or with -f/-e/-m the
 * canonical path of any name. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_readlink[] = "Usage: readlink [OPTION]... FILE...";
const char bi_help_readlink[] =
    "For each FILE that is a symbolic link, print what it points to; with -f,\n"
    "-e or -m, print FILE's full resolved path instead.\n"
    "\n"
    "  -f, --canonicalize            resolve every symbolic link on the whole\n"
    "                                path; every part but the last must exist\n"
    "  -e, --canonicalize-existing   as -f, but every part must exist\n"
    "  -m, --canonicalize-missing    as -f, but no part needs to exist\n"
    "  -n, --no-newline              leave out the newline after the result\n"
    "  -q, --quiet, -s, --silent     say nothing about errors (the default)\n"
    "  -v, --verbose                 print a message for each error\n"
    "  -z, --zero                    end each result with a NUL byte, not a\n"
    "                                newline\n"
    "      --help                    print this summary and quit\n"
    "      --version                 print the version line and quit\n";

int bi_readlink(bi_ctx *c) {
  static const bi_opt opts[] = {{"canonicalize", 'f', BI_ARG_NONE},
                                {"canonicalize-existing", 'e', BI_ARG_NONE},
                                {"canonicalize-missing", 'm', BI_ARG_NONE},
                                {"no-newline", 'n', BI_ARG_NONE},
                                {"quiet", 'q', BI_ARG_NONE},
                                {"silent", 's', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"zero", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "efmnqsvz", opts);
  int o, mode = -1, no_newline = 0, verbose = 0, zero = 0;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'f':
      mode = FU_CANON_LAST;
      break;
    case 'e':
      mode = FU_CANON_EXISTING;
      break;
    case 'm':
      mode = FU_CANON_MISSING;
      break;
    case 'n':
      no_newline = 1;
      break;
    case 'q':
    case 's':
      verbose = 0;
      break;
    case 'v':
      verbose = 1;
      break;
    case 'z':
      zero = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  if (no_newline && g.noperands > 1) {
    bi_error(c, "ignoring --no-newline with multiple arguments");
    no_newline = 0;
  }
  fu_job j;
  fu_job_init(&j, c);
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    const char *value = NULL;
    size_t len = 0;
    char *target = NULL;
    int err = 0;
    if (mode >= 0) {
      value = fu_canon(c, p, mode, &err);
      if (value)
        len = strlen(value);
    } else {
      int rc = vfs_readlink(c->vfs, c->cwd, p, &target, &len);
      if (rc < 0)
        err = -rc;
      value = target;
    }
    if (!value) {
      if (verbose)
        fu_job_error(&j, "%s: %s", fu_quotef(c, p), bi_strerror(err));
      status = 1;
      continue;
    }
    wr_write(&j.w, value, len);
    if (target)
      vfs_release(c->vfs, target);
    if (!no_newline)
      wr_putc(&j.w, zero ? 0 : '\n');
    if (j.w.err)
      return fu_out_status(&j.w);
  }
  return fu_job_end(&j, status);
}
