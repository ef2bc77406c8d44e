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
    "  -m, --canonicalize-missing   components may be missing, or be files "
    "where\n"
    "                               a directory would be expected\n"
    "  -L, --logical                apply '..' to the name first, then follow\n"
    "                               symbolic links\n"
    "  -P, --physical               follow symbolic links in path order (the\n"
    "                               default)\n"
    "  -q, --quiet                  leave most error messages out\n"
    "      --relative-to=DIR        give each result as a path starting from "
    "DIR\n"
    "      --relative-base=DIR      print names under DIR relative to it, "
    "others\n"
    "                               absolute\n"
    "  -s, --strip, --no-symlinks   leave symbolic links unresolved\n"
    "  -z, --zero                   end each result with a NUL byte, not a\n"
    "                               newline\n"
    "      --help                   print this summary and quit\n"
    "      --version                print the version line and quit\n";

enum { OPT_REL_TO = 0x100, OPT_REL_BASE };

/* Is path equal to or below dir (both canonical)? */
static int under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1)
    return 1; /* everything is under "/" */
  return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* The canonical form of a --relative-to/--relative-base directory, or NULL
 * after the message. */
static const char *canon_dir(bi_ctx *c, const char *dir, int mode) {
  int err;
  const char *r = fu_canon(c, dir, mode, &err);
  if (!r)
    bi_error(c, "%s: %s", fu_quotef(c, dir), bi_strerror(err));
  return r;
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
      BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "emLPqsz", opts);
  int o, need = FU_CANON_LAST, flags = 0, quiet = 0, zero = 0;
  const char *rel_to = NULL, *rel_base = NULL;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
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
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  int mode = need | flags, err;
  const char *to = NULL, *base = NULL;
  if (rel_to && !(to = canon_dir(c, rel_to, mode)))
    return 1;
  if (rel_base && !(base = canon_dir(c, rel_base, mode)))
    return 1;
  /* GNU: with both, --relative-to applies only when it is itself below
   * the base; otherwise names print absolute. */
  if (to && base && !under(to, base))
    to = base = NULL;
  fu_job j;
  fu_job_init(&j, c);
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    const char *r = fu_canon(c, p, mode, &err);
    if (!r) {
      if (!quiet)
        fu_job_error(&j, "%s: %s", fu_quotef(c, p), bi_strerror(err));
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
    wr_puts(&j.w, r);
    wr_putc(&j.w, zero ? 0 : '\n');
    if (j.w.err)
      return fu_out_status(&j.w);
  }
  return fu_job_end(&j, status);
}
