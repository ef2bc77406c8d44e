/*
 * bzip2.c - bzip2, bunzip2 and bzcat (bzip2 1.0.8's flags, read in any
 * order, and its messages, named by the name they were called by).
 */
#include <string.h>

#include "builtins/archive/zfront.h"

const char bi_usage_bzip2[] = "Usage: bzip2 [FLAGS] [FILE]...";
const char bi_help_bzip2[] =
    "Compress each FILE into FILE.bz2 (or with -d restore it), removing the\n"
    "original unless asked to keep it. Without FILE, standard input goes to\n"
    "standard output. Flags may come anywhere and be combined (-kv9).\n"
    "\n"
    "  -z, --compress    compress (the default for bzip2)\n"
    "  -d, --decompress  restore compressed files\n"
    "  -c, --stdout      write to standard output, leave the files alone\n"
    "  -k, --keep        do not remove the input files\n"
    "  -f, --force       replace existing output files\n"
    "  -t, --test        check that compressed files are intact\n"
    "  -q, --quiet       leave out warnings\n"
    "  -v, --verbose     report each file\n"
    "  -s, --small       accepted; memory is the sandbox's to limit\n"
    "  -1 .. -9          block size of 100k .. 900k (900k by default)\n"
    "      --fast        same as -1\n"
    "      --best        same as -9\n"
    "  -h, --help        print this summary and quit\n"
    "  -V, --version     print the version line and quit\n";
const char bi_usage_bunzip2[] = "Usage: bunzip2 [FLAGS] [FILE]...";
const char bi_help_bunzip2[] =
    "Restore each FILE.bz2 to FILE (as bzip2 -d). The flags are bzip2's.\n";
const char bi_usage_bzcat[] = "Usage: bzcat [FLAGS] [FILE]...";
const char bi_help_bzcat[] =
    "Print the decompressed content of each FILE (as bzip2 -dc). The flags\n"
    "are bzip2's.\n";

static int bad_flag(bi_ctx *c, const char *prog, const char *a) {
  stream_printf(c->err, "%s: Bad flag `%s'\n", prog, a);
  stream_puts(c->err, bi_usage_bzip2);
  stream_puts(c->err, "\n");
  stream_puts(c->err, bi_help_bzip2);
  return 1;
}

static int flag(zf_opts *o, int ch, int *help, int *version) {
  switch (ch) {
  case 'c':
    o->to_stdout = 1;
    break;
  case 'd':
    o->decompress = 1;
    break;
  case 'z':
    o->decompress = 0;
    break;
  case 'f':
    o->force = 1;
    break;
  case 'k':
    o->keep = 1;
    break;
  case 't':
    o->test = 1;
    break;
  case 'q':
    o->quiet = 1;
    break;
  case 'v':
    o->verbose = 1;
    break;
  case 's':
    break;
  case 'h':
    *help = 1;
    break;
  case 'L':
  case 'V':
    *version = 1;
    break;
  default:
    if (ch >= '1' && ch <= '9') {
      o->level = ch - '0';
      break;
    }
    return -1;
  }
  return 0;
}

static int bzip2_main(bi_ctx *c, int decompress, int to_stdout) {
  static const struct {
    const char *name;
    int ch;
  } longs[] = {{"--stdout", 'c'},  {"--decompress", 'd'}, {"--compress", 'z'},
               {"--force", 'f'},   {"--keep", 'k'},       {"--test", 't'},
               {"--quiet", 'q'},   {"--verbose", 'v'},    {"--small", 's'},
               {"--fast", '1'},    {"--best", '9'},       {"--help", 'h'},
               {"--version", 'V'}, {"--license", 'L'},    {NULL, 0}};
  const char *prog = c->argv[0];
  zf_opts o;
  memset(&o, 0, sizeof o);
  o.decompress = decompress;
  o.to_stdout = to_stdout;
  o.level = -1;
  o.suffix = ".bz2";
  int help = 0, version = 0, nfiles = 0, dashdash = 0;
  char **files = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  if (!files)
    return 1;
  for (int i = 1; i < c->argc; i++) {
    char *a = c->argv[i];
    if (dashdash || a[0] != '-' || a[1] == 0) {
      files[nfiles++] = a;
    } else if (strcmp(a, "--") == 0) {
      dashdash = 1;
    } else if (a[1] == '-') {
      int k = 0;
      while (longs[k].name && strcmp(longs[k].name, a) != 0)
        k++;
      if (!longs[k].name)
        return bad_flag(c, prog, a);
      flag(&o, longs[k].ch, &help, &version);
    } else {
      for (const char *p = a + 1; *p; p++)
        if (flag(&o, (unsigned char)*p, &help, &version) < 0)
          return bad_flag(c, prog, a);
    }
  }
  if (help)
    return bi_print_help(c);
  if (version) {
    stream_printf(c->out, "%s (vsh) 1.0.8\n", prog);
    return 0;
  }
  if (o.test)
    o.decompress = 1;
  return zf_run(c, ZC_BZIP2, prog, &o, files, nfiles);
}

int bi_bzip2(bi_ctx *c) {
  return bzip2_main(c, 0, 0);
}
int bi_bunzip2(bi_ctx *c) {
  return bzip2_main(c, 1, 0);
}
int bi_bzcat(bi_ctx *c) {
  return bzip2_main(c, 1, 1);
}
