/* basename.c - GNU basename and dirname (pure string operations). */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_basename[] = "Usage: basename NAME [SUFFIX]\n"
                                 "  or:  basename OPTION... NAME...";
const char bi_help_basename[] =
    "Print NAME with any leading directory components removed.\n"
    "If specified, also remove a trailing SUFFIX.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -a, --multiple       support multiple arguments and treat each as a "
    "NAME\n"
    "  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a\n"
    "  -z, --zero           end each output line with NUL, not newline\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "Examples:\n"
    "  basename /usr/bin/sort          -> \"sort\"\n"
    "  basename include/stdio.h .h     -> \"stdio\"\n"
    "  basename -s .h include/stdio.h  -> \"stdio\"\n"
    "  basename -a any/str1 any/str2   -> \"str1\" followed by \"str2\"\n";

const char bi_usage_dirname[] = "Usage: dirname [OPTION] NAME...";
const char bi_help_dirname[] =
    "Output each NAME with its last non-slash component and trailing "
    "slashes\n"
    "removed; if NAME contains no /'s, output '.' (meaning the current "
    "directory).\n"
    "\n"
    "  -z, --zero     end each output line with NUL, not newline\n"
    "      --help     display this help and exit\n"
    "      --version  output version information and exit\n"
    "\n"
    "Examples:\n"
    "  dirname /usr/bin/          -> \"/usr\"\n"
    "  dirname dir1/str dir2/str  -> \"dir1\" followed by \"dir2\"\n"
    "  dirname stdio.h            -> \".\"\n";

static void try_help(bi_ctx *c) {
  stream_printf(c->err, "Try '%s --help' for more information.\n", c->argv[0]);
}

static void put_base(writer *w, const char *s, const char *suffix, int eol) {
  size_t n = strlen(s);
  while (n > 1 && s[n - 1] == '/')
    n--;
  if (n == 1 && s[0] == '/') { /* "/" or only slashes */
    wr_putc(w, '/');
    wr_putc(w, eol);
    return;
  }
  const char *b = s;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '/')
      b = s + i + 1;
  size_t bl = (size_t)(s + n - b);
  size_t sl = suffix ? strlen(suffix) : 0;
  if (sl && sl < bl && memcmp(b + bl - sl, suffix, sl) == 0)
    bl -= sl;
  wr_write(w, b, bl);
  wr_putc(w, eol);
}

int bi_basename(bi_ctx *c) {
  static const bi_opt opts[] = {{"multiple", 'a', BI_ARG_NONE},
                                {"suffix", 's', BI_ARG_REQUIRED},
                                {"zero", 'z', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int multi = 0, eol = '\n', ch;
  const char *suffix = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "as:z", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'a':
      multi = 1;
      break;
    case 's':
      suffix = g.arg;
      multi = 1;
      break;
    case 'z':
      eol = 0;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  if (g.noperands < 1) {
    bi_error(c, "missing operand");
    try_help(c);
    return 1;
  }
  if (!multi && g.noperands > 2) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[2]));
    try_help(c);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  if (multi)
    for (int i = 0; i < g.noperands; i++)
      put_base(&w, g.operands[i], suffix, eol);
  else
    put_base(&w, g.operands[0], g.noperands == 2 ? g.operands[1] : NULL, eol);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return 0;
}

static void put_dir(writer *w, const char *s, int eol) {
  size_t n = strlen(s);
  while (n > 1 && s[n - 1] == '/') /* trailing slashes */
    n--;
  while (n > 0 && s[n - 1] != '/') /* the last component */
    n--;
  while (n > 1 && s[n - 1] == '/') /* the slashes before it */
    n--;
  if (n == 0)
    wr_putc(w, '.');
  else
    wr_write(w, s, n);
  wr_putc(w, eol);
}

int bi_dirname(bi_ctx *c) {
  static const bi_opt opts[] = {{"zero", 'z', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int eol = '\n', ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "z", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'z':
      eol = 0;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  if (g.noperands < 1) {
    bi_error(c, "missing operand");
    try_help(c);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < g.noperands; i++)
    put_dir(&w, g.operands[i], eol);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return 0;
}
