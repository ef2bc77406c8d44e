/* basename.c - GNU basename and dirname (pure string operations). */
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_basename[] = "Usage: basename NAME [SUFFIX]\n"
                                 "  or:  basename OPTION... NAME...";
const char bi_help_basename[] =
    "Strip the directory part from NAME and print what remains; when SUFFIX "
    "is\n"
    "given and NAME ends with it, cut that off as well.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -a, --multiple       every operand is a NAME (no SUFFIX operand)\n"
    "  -s, --suffix=SUFFIX  cut SUFFIX from the end of each NAME; turns on -a\n"
    "  -z, --zero           end each result with a NUL byte, not a newline\n"
    "      --help           print this summary and quit\n"
    "      --version        print the version line and quit\n"
    "\n"
    "Examples:\n"
    "  basename /etc/ssh/sshd_config   -> \"sshd_config\"\n"
    "  basename src/main.c .c          -> \"main\"\n"
    "  basename -s .c src/main.c       -> \"main\"\n"
    "  basename -a a/one b/two         -> \"one\", then \"two\"\n";

const char bi_usage_dirname[] = "Usage: dirname [OPTION] NAME...";
const char bi_help_dirname[] =
    "For each NAME, drop the final component and any slashes that end it, and\n"
    "print the rest; a NAME without a slash gives '.' (the current "
    "directory).\n"
    "\n"
    "  -z, --zero     end each result with a NUL byte, not a newline\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n"
    "\n"
    "Examples:\n"
    "  dirname /var/log/          -> \"/var\"\n"
    "  dirname a/x b/y            -> \"a\", then \"b\"\n"
    "  dirname notes.txt          -> \".\"\n";

static void put_base(writer *w, const char *s, const char *suffix, int eol) {
  size_t bl;
  const char *b = s + fu_base_span(s, &bl);
  /* A suffix never takes the whole name (nor the "/" of "/"). */
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
                                BI_OPTS_END};
  int multi = 0, eol = '\n', ch;
  const char *suffix = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "as:z", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
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
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  if (!multi && g.noperands > 2) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[2]));
    bi_try_help(c);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  if (multi)
    for (int i = 0; i < g.noperands; i++)
      put_base(&w, g.operands[i], suffix, eol);
  else
    put_base(&w, g.operands[0], g.noperands == 2 ? g.operands[1] : NULL, eol);
  return fu_out_end(&w, 0);
}

static void put_dir(writer *w, const char *s, int eol) {
  size_t n = fu_dir_len(s);
  if (n == 0)
    wr_putc(w, '.');
  else
    wr_write(w, s, n);
  wr_putc(w, eol);
}

int bi_dirname(bi_ctx *c) {
  static const bi_opt opts[] = {{"zero", 'z', BI_ARG_NONE}, BI_OPTS_END};
  int eol = '\n', ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "z", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'z':
      eol = 0;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < g.noperands; i++)
    put_dir(&w, g.operands[i], eol);
  return fu_out_end(&w, 0);
}
