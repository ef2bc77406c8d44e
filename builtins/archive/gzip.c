/*
 * gzip.c - gzip, gunzip and zcat (GNU gzip 1.12's options and messages;
 * gunzip and zcat speak as "gzip", as GNU's wrapper scripts do).
 */
#include <string.h>

#include "builtins/archive/zfront.h"

const char bi_usage_gzip[] = "Usage: gzip [OPTION]... [FILE]...";
const char bi_help_gzip[] =
    "Compress each FILE into FILE.gz (or with -d restore it), removing the\n"
    "original unless asked to keep it. Without FILE, or for -, standard input\n"
    "goes to standard output.\n"
    "\n"
    "  -c, --stdout      write to standard output, leave the files alone\n"
    "  -d, --decompress  restore compressed files\n"
    "  -f, --force       replace existing output files\n"
    "  -k, --keep        do not remove the input files\n"
    "  -l, --list        show sizes and ratio of compressed files\n"
    "  -n, --no-name     do not store the name and time stamp in the header\n"
    "  -N, --name        store (and on -d use) the name and time stamp\n"
    "  -q, --quiet       leave out warnings\n"
    "  -r, --recursive   walk into directories\n"
    "  -S, --suffix=SUF  use SUF in place of .gz\n"
    "  -t, --test        check that compressed files are intact\n"
    "  -v, --verbose     report each file and its ratio\n"
    "  -1, --fast        quickest compression\n"
    "  -9, --best        smallest output\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

const char bi_usage_gunzip[] = "Usage: gunzip [OPTION]... [FILE]...";
const char bi_help_gunzip[] =
    "Restore each FILE.gz to FILE (as gzip -d). The options are gzip's.\n";
const char bi_usage_zcat[] = "Usage: zcat [OPTION]... [FILE]...";
const char bi_help_zcat[] =
    "Print the decompressed content of each FILE (as gzip -dc). The options\n"
    "are gzip's.\n";

enum { O_FAST = 0x100, O_BEST };

static int gzip_main(bi_ctx *c, int decompress, int to_stdout) {
  static const bi_opt opts[] = {
      {"stdout", 'c', BI_ARG_NONE},     {"to-stdout", 'c', BI_ARG_NONE},
      {"decompress", 'd', BI_ARG_NONE}, {"uncompress", 'd', BI_ARG_NONE},
      {"force", 'f', BI_ARG_NONE},      {"keep", 'k', BI_ARG_NONE},
      {"list", 'l', BI_ARG_NONE},       {"no-name", 'n', BI_ARG_NONE},
      {"name", 'N', BI_ARG_NONE},       {"quiet", 'q', BI_ARG_NONE},
      {"silent", 'q', BI_ARG_NONE},     {"recursive", 'r', BI_ARG_NONE},
      {"suffix", 'S', BI_ARG_REQUIRED}, {"test", 't', BI_ARG_NONE},
      {"verbose", 'v', BI_ARG_NONE},    {"fast", O_FAST, BI_ARG_NONE},
      {"best", O_BEST, BI_ARG_NONE},    BI_OPTS_END};
  zf_opts o;
  memset(&o, 0, sizeof o);
  o.decompress = decompress;
  o.to_stdout = to_stdout;
  o.name = -1;
  o.level = -1;
  o.suffix = ".gz";
  bi_getopt g;
  bi_getopt_init(&g, c, "cdfhklnNqrS:tvV123456789", opts);
  int op;
  while ((op = zf_getopt(&g, "Try `%s --help' for more information.\n",
                         "gzip")) != -1) {
    switch (op) {
    case 'c':
      o.to_stdout = 1;
      break;
    case 'd':
      o.decompress = 1;
      break;
    case 'f':
      o.force = 1;
      break;
    case 'k':
      o.keep = 1;
      break;
    case 'l':
      o.list = 1;
      break;
    case 'n':
      o.name = 0;
      break;
    case 'N':
      o.name = 1;
      break;
    case 'q':
      o.quiet = 1, o.verbose = 0;
      break;
    case 'r':
      o.recursive = 1;
      break;
    case 'S':
      if (!*g.arg || strchr(g.arg, '/')) {
        stream_printf(c->err, "gzip: invalid suffix '%s'\n", g.arg);
        return 1;
      }
      o.suffix = g.arg;
      break;
    case 't':
      o.test = 1;
      break;
    case 'v':
      o.verbose = 1, o.quiet = 0;
      break;
    case O_FAST:
      o.level = 1;
      break;
    case O_BEST:
      o.level = 9;
      break;
    case 'h':
    case BI_OPT_HELP:
      return bi_print_help(c);
    case 'V':
    case BI_OPT_VERSION:
      stream_puts(c->out, "gzip (vsh) 1.12\n");
      return 0;
    case '?':
      return 1;
    default:
      if (op >= '1' && op <= '9')
        o.level = op - '0';
    }
  }
  return zf_run(c, ZC_GZIP, "gzip", &o, g.operands, g.noperands);
}

int bi_gzip(bi_ctx *c) {
  return gzip_main(c, 0, 0);
}
int bi_gunzip(bi_ctx *c) {
  return gzip_main(c, 1, 0);
}
int bi_zcat(bi_ctx *c) {
  return gzip_main(c, 1, 1);
}
