/*
 * xz.c - xz, unxz and xzcat (XZ Utils 5.4's everyday options and
 * messages, named by the name they were called by).
 */
#include <string.h>

#include "builtins/archive/zfront.h"

const char bi_usage_xz[] = "Usage: xz [OPTION]... [FILE]...";
const char bi_help_xz[] =
    "Compress each FILE into FILE.xz (or with -d restore it), removing the\n"
    "original unless asked to keep it. Without FILE, or for -, standard input\n"
    "goes to standard output.\n"
    "\n"
    "  -z, --compress      compress (the default)\n"
    "  -d, --decompress    restore compressed files\n"
    "  -t, --test          check that compressed files are intact\n"
    "  -k, --keep          do not remove the input files\n"
    "  -f, --force         replace existing output files\n"
    "  -c, --stdout        write to standard output, leave the files alone\n"
    "  -0 ... -9           compression preset (6 by default)\n"
    "  -q, --quiet         leave out warnings\n"
    "  -v, --verbose       report each file\n"
    "  -S, --suffix=SUF    use SUF in place of .xz\n"
    "      --help          print this summary and quit\n"
    "      --version       print the version line and quit\n";
const char bi_usage_unxz[] = "Usage: unxz [OPTION]... [FILE]...";
const char bi_help_unxz[] =
    "Restore each FILE.xz to FILE (as xz -d). The options are xz's.\n";
const char bi_usage_xzcat[] = "Usage: xzcat [OPTION]... [FILE]...";
const char bi_help_xzcat[] =
    "Print the decompressed content of each FILE (as xz -dc). The options\n"
    "are xz's.\n";

static int xz_main(bi_ctx *c, int decompress, int to_stdout) {
  static const bi_opt opts[] = {
      {"compress", 'z', BI_ARG_NONE},   {"decompress", 'd', BI_ARG_NONE},
      {"uncompress", 'd', BI_ARG_NONE}, {"test", 't', BI_ARG_NONE},
      {"keep", 'k', BI_ARG_NONE},       {"force", 'f', BI_ARG_NONE},
      {"stdout", 'c', BI_ARG_NONE},     {"to-stdout", 'c', BI_ARG_NONE},
      {"quiet", 'q', BI_ARG_NONE},      {"verbose", 'v', BI_ARG_NONE},
      {"suffix", 'S', BI_ARG_REQUIRED}, BI_OPTS_END};
  const char *prog = c->argv[0];
  zf_opts o;
  memset(&o, 0, sizeof o);
  o.decompress = decompress;
  o.to_stdout = to_stdout;
  o.suffix = ".xz";
  o.level = -1;
  bi_getopt g;
  bi_getopt_init(&g, c, "zdtkfcqvS:hV0123456789", opts);
  int op;
  while ((op = zf_getopt(&g, "%s: Try `%s --help' for more information.\n",
                         prog)) != -1) {
    switch (op) {
    case 'z':
      o.decompress = 0;
      break;
    case 'd':
      o.decompress = 1;
      break;
    case 't':
      o.test = 1;
      break;
    case 'k':
      o.keep = 1;
      break;
    case 'f':
      o.force = 1;
      break;
    case 'c':
      o.to_stdout = 1;
      break;
    case 'q':
      o.quiet = 1;
      break;
    case 'v':
      o.verbose = 1;
      break;
    case 'S':
      o.suffix = g.arg;
      break;
    case 'h':
    case BI_OPT_HELP:
      return bi_print_help(c);
    case 'V':
    case BI_OPT_VERSION:
      stream_printf(c->out, "%s (vsh) 5.4.1\n", prog);
      return 0;
    case '?':
      return 1;
    default:
      if (op >= '0' && op <= '9')
        o.level = op - '0';
    }
  }
  return zf_run(c, ZC_XZ, prog, &o, g.operands, g.noperands);
}

int bi_xz(bi_ctx *c) {
  return xz_main(c, 0, 0);
}
int bi_unxz(bi_ctx *c) {
  return xz_main(c, 1, 0);
}
int bi_xzcat(bi_ctx *c) {
  return xz_main(c, 1, 1);
}
