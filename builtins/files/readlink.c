/* readlink.c - GNU readlink: a symlink's target, or with -f/-e/-m the
 * canonical path of any name. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_readlink[] = "Usage: readlink [OPTION]... FILE...";
const char bi_help_readlink[] =
    "Print the value of each symbolic link FILE, or its canonical name.\n"
    "\n"
    "  -f, --canonicalize            canonicalize by following every symlink "
    "in\n"
    "                                every component; all but the last must "
    "exist\n"
    "  -e, --canonicalize-existing   likewise, every component must exist\n"
    "  -m, --canonicalize-missing    likewise, no component needs to exist\n"
    "  -n, --no-newline              do not print the trailing delimiter\n"
    "  -q, --quiet, -s, --silent     say nothing about errors (the default)\n"
    "  -v, --verbose                 report errors\n"
    "  -z, --zero                    end each output line with NUL, not "
    "newline\n"
    "      --help                    show this help and exit\n"
    "      --version                 show version information and exit\n";

int bi_readlink(bi_ctx *c) {
  static const bi_opt opts[] = {{"canonicalize", 'f', BI_ARG_NONE},
                                {"canonicalize-existing", 'e', BI_ARG_NONE},
                                {"canonicalize-missing", 'm', BI_ARG_NONE},
                                {"no-newline", 'n', BI_ARG_NONE},
                                {"quiet", 'q', BI_ARG_NONE},
                                {"silent", 's', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"zero", 'z', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  bi_getopt g;
  bi_getopt_init(&g, c, "efmnqsvz", opts);
  int o, mode = -1, no_newline = 0, verbose = 0, zero = 0;
  while ((o = bi_getopt_next(&g)) != -1) {
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
  if (no_newline && g.noperands > 1) {
    bi_error(c, "ignoring --no-newline with multiple arguments");
    no_newline = 0;
  }
  writer w;
  wr_init(&w, c->out);
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
      if (verbose) {
        wr_flush(&w);
        bi_error(c, "%s: %s", fu_quotef(c, p), bi_strerror(err));
      }
      status = 1;
      continue;
    }
    wr_write(&w, value, len);
    if (target)
      vfs_release(c->vfs, target);
    if (!no_newline)
      wr_putc(&w, zero ? 0 : '\n');
    if (w.err)
      return fu_out_status(&w);
  }
  if (wr_flush(&w) < 0)
    return fu_out_status(&w);
  return status;
}
