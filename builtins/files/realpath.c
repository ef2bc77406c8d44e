/* realpath.c - GNU realpath: canonical absolute (or relative) names. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_realpath[] = "Usage: realpath [OPTION]... FILE...";
const char bi_help_realpath[] =
    "Print the resolved absolute name of each FILE; all but the last "
    "component\n"
    "must exist.\n"
    "\n"
    "  -e, --canonicalize-existing  every component must exist\n"
    "  -m, --canonicalize-missing   no component needs to exist or be a "
    "directory\n"
    "  -L, --logical                resolve '..' before symbolic links\n"
    "  -P, --physical               resolve symbolic links as met (the "
    "default)\n"
    "  -q, --quiet                  say nothing about most errors\n"
    "      --relative-to=DIR        print the name relative to DIR\n"
    "      --relative-base=DIR      print names under DIR relative to it, "
    "others\n"
    "                               absolute\n"
    "  -s, --strip, --no-symlinks   do not expand symbolic links\n"
    "  -z, --zero                   end each output line with NUL, not "
    "newline\n"
    "      --help                   show this help and exit\n"
    "      --version                show version information and exit\n";

enum { OPT_REL_TO = 0x100, OPT_REL_BASE };

/* Is path equal to or below dir (both canonical)? */
static int under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1)
    return 1; /* everything is under "/" */
  return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

int bi_realpath(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"canonicalize-existing", 'e', BI_ARG_NONE},
      {"canonicalize-missing", 'm', BI_ARG_NONE},
      {"logical", 'L', BI_ARG_NONE},
      {"physical", 'P', BI_ARG_NONE},
      {"quiet", 'q', BI_ARG_NONE},
      {"relative-to", OPT_REL_TO, BI_ARG_REQUIRED},
      {"relative-base", OPT_REL_BASE, BI_ARG_REQUIRED},
      {"strip", 's', BI_ARG_NONE},
      {"no-symlinks", 's', BI_ARG_NONE},
      {"zero", 'z', BI_ARG_NONE},
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", BI_OPT_VERSION, BI_ARG_NONE},
      {NULL, 0, 0}};
  bi_getopt g;
  bi_getopt_init(&g, c, "emLPqsz", opts);
  int o, need = FU_CANON_LAST, flags = 0, quiet = 0, zero = 0;
  const char *rel_to = NULL, *rel_base = NULL;
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'e':
      need = FU_CANON_EXISTING;
      break;
    case 'm':
      need = FU_CANON_MISSING;
      break;
    case 'L':
      flags = (flags & ~FU_CANON_NOLINKS) | FU_CANON_LOGICAL;
      break;
    case 'P':
      flags &= ~(FU_CANON_LOGICAL | FU_CANON_NOLINKS);
      break;
    case 's':
      flags = FU_CANON_NOLINKS;
      break;
    case 'q':
      quiet = 1;
      break;
    case 'z':
      zero = 1;
      break;
    case OPT_REL_TO:
      rel_to = g.arg;
      break;
    case OPT_REL_BASE:
      rel_base = g.arg;
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
  int mode = need | flags, err;
  const char *to = NULL, *base = NULL;
  if (rel_to) {
    to = fu_canon(c, rel_to, mode, &err);
    if (!to) {
      bi_error(c, "%s: %s", fu_quotef(c, rel_to), bi_strerror(err));
      return 1;
    }
  }
  if (rel_base) {
    base = fu_canon(c, rel_base, mode, &err);
    if (!base) {
      bi_error(c, "%s: %s", fu_quotef(c, rel_base), bi_strerror(err));
      return 1;
    }
  }
  /* GNU: with both, --relative-to applies only when it is itself below
   * the base; otherwise names print absolute. */
  if (to && base && !under(to, base))
    to = base = NULL;
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    const char *r = fu_canon(c, p, mode, &err);
    if (!r) {
      if (!quiet) {
        wr_flush(&w);
        bi_error(c, "%s: %s", fu_quotef(c, p), bi_strerror(err));
      }
      status = 1;
      continue;
    }
    if (base && !under(r, base)) {
      /* printed absolute */
    } else if (to) {
      r = fu_relpath(c, to, r);
    } else if (base) {
      r = fu_relpath(c, base, r);
    }
    wr_puts(&w, r);
    wr_putc(&w, zero ? 0 : '\n');
    if (w.err)
      return fu_out_status(&w);
  }
  if (wr_flush(&w) < 0)
    return fu_out_status(&w);
  return status;
}
