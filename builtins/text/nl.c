/*
 * nl.c - GNU nl: number lines.
 *
 * Input is split in logical pages of header, body and footer sections by
 * the delimiter lines "\:\:\:", "\:\:" and "\:" (with -d). Each section has
 * its own numbering style (-h, -b, -f: a all, t non-empty, n none, pREGEX
 * matching lines); a delimiter line prints as an empty line and, unless -p,
 * a new page restarts numbering at -v. Unnumbered lines get blanks as wide
 * as the number and separator, like GNU.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_nl[] = "Usage: nl [OPTION]... [FILE]...";
const char bi_help_nl[] =
    "Print each FILE to standard output with numbers in front of its lines.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -b, --body-numbering=STYLE      which body lines get a number (STYLE)\n"
    "  -d, --section-delimiter=CC      CC marks the start of a page section\n"
    "  -f, --footer-numbering=STYLE    which footer lines get a number "
    "(STYLE)\n"
    "  -h, --header-numbering=STYLE    which header lines get a number "
    "(STYLE)\n"
    "  -i, --line-increment=NUMBER     add NUMBER to the count from line to "
    "line\n"
    "  -l, --join-blank-lines=NUMBER   count NUMBER blank lines in a row as "
    "one\n"
    "  -n, --number-format=FORMAT      lay out the numbers as FORMAT says\n"
    "  -p, --no-renumber               keep counting across sections\n"
    "  -s, --number-separator=STRING   put STRING between number and text\n"
    "  -v, --starting-line-number=NUMBER  number each section from NUMBER\n"
    "  -w, --number-width=NUMBER       numbers take NUMBER columns\n"
    "      --help                      print this summary and quit\n"
    "      --version                   print the version line and quit\n"
    "\n"
    "Without options nl acts as if given: -bt -d'\\:' -fn -hn -i1 -l1 -n'rn'\n"
    "-s<TAB> -v1 -w6\n"
    "\n"
    "CC is a pair of characters that, doubled or tripled on a line of its "
    "own,\n"
    "starts a section; when only one is given, ':' is the second.\n"
    "\n"
    "STYLE values:\n"
    "\n"
    "  a      every line\n"
    "  t      lines that are not empty\n"
    "  n      no line\n"
    "  pBRE   lines matching BRE, a basic regular expression\n"
    "\n"
    "FORMAT values:\n"
    "\n"
    "  ln     flush left, no zero padding\n"
    "  rn     flush right, no zero padding\n"
    "  rz     flush right, padded with zeros\n";

typedef struct style {
  char kind; /* a t n p */
  int have_re;
  regex_t re;
} style;

static int parse_style(bi_ctx *c, const char *a, style *s, const char *what) {
  if (s->have_re) {
    regfree(&s->re);
    s->have_re = 0;
  }
  if ((a[0] == 'a' || a[0] == 't' || a[0] == 'n') && !a[1]) {
    s->kind = a[0];
    return 0;
  }
  if (a[0] == 'p') {
    if (regcomp(&s->re, a + 1, REG_NOSUB)) {
      bi_error(c, "invalid regular expression");
      return -1;
    }
    s->have_re = 1;
    s->kind = 'p';
    return 0;
  }
  bi_error(c, "invalid %s numbering style: %s", what, tu_quote(c, a));
  bi_try_help(c);
  return -1;
}

static int parse_num(bi_ctx *c, const char *a, int64_t *v, int64_t lo,
                     const char *what) {
  char *e;
  errno = 0;
  long long x = strtoll(a, &e, 10);
  if (!*a || *e || errno) {
    bi_error(c, "invalid %s: %s%s", what, tu_quote(c, a),
             *a && !*e && errno == ERANGE
                 ? ": Value too large for defined data type"
                 : "");
    return -1;
  }
  if (x < lo) {
    bi_error(c, "invalid %s: %s: Numerical result out of range", what,
             tu_quote(c, a));
    return -1;
  }
  *v = x;
  return 0;
}

int bi_nl(bi_ctx *c) {
  static const bi_opt opts[] = {{"body-numbering", 'b', BI_ARG_REQUIRED},
                                {"section-delimiter", 'd', BI_ARG_REQUIRED},
                                {"footer-numbering", 'f', BI_ARG_REQUIRED},
                                {"header-numbering", 'h', BI_ARG_REQUIRED},
                                {"line-increment", 'i', BI_ARG_REQUIRED},
                                {"join-blank-lines", 'l', BI_ARG_REQUIRED},
                                {"number-format", 'n', BI_ARG_REQUIRED},
                                {"no-renumber", 'p', BI_ARG_NONE},
                                {"number-separator", 's', BI_ARG_REQUIRED},
                                {"starting-line-number", 'v', BI_ARG_REQUIRED},
                                {"number-width", 'w', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  static const char *const sect[] = {"header", "body", "footer"};
  style st[3]; /* header, body, footer */
  memset(st, 0, sizeof st);
  st[0].kind = 'n';
  st[1].kind = 't';
  st[2].kind = 'n';
  char dl[3] = {'\\', ':', 0};
  int64_t incr = 1, join = 1, start = 1, width = 6;
  const char *sep = "\t", *fmt = "rn";
  int renumber = 1, ch, status = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "b:d:f:h:i:l:n:ps:v:w:", opts);
  while ((ch = bi_getopt_next(&g)) != -1 && !status) {
    switch (ch) {
    case 'h':
    case 'b':
    case 'f': {
      int k = ch == 'h' ? 0 : ch == 'b' ? 1 : 2;
      status = parse_style(c, g.arg, &st[k], sect[k]) ? 1 : 0;
      break;
    }
    case 'd':
      if (g.arg[0]) {
        dl[0] = g.arg[0];
        dl[1] = g.arg[1] ? g.arg[1] : ':';
      }
      break;
    case 'i':
      status = parse_num(c, g.arg, &incr, INT64_MIN, "line number increment")
                   ? 1
                   : 0;
      break;
    case 'l':
      status =
          parse_num(c, g.arg, &join, 1, "line number of blank lines") ? 1 : 0;
      break;
    case 'n':
      if (strcmp(g.arg, "ln") && strcmp(g.arg, "rn") && strcmp(g.arg, "rz")) {
        bi_error(c, "invalid line numbering format: %s", tu_quote(c, g.arg));
        status = 1;
      }
      fmt = g.arg;
      break;
    case 'p':
      renumber = 0;
      break;
    case 's':
      sep = g.arg;
      break;
    case 'v':
      status = parse_num(c, g.arg, &start, INT64_MIN, "starting line number")
                   ? 1
                   : 0;
      break;
    case 'w':
      status =
          parse_num(c, g.arg, &width, 1, "line number field width") ? 1 : 0;
      break;
    case BI_OPT_HELP:
      status = -1;
      break;
    case BI_OPT_VERSION:
      status = -2;
      break;
    default:
      status = 1;
    }
  }
  if (status == 0) {
    writer w;
    wr_init(&w, c->out);
    int64_t num = start;
    int sect = 1;
    int64_t blanks = 0;
    size_t seplen = strlen(sep);
    buf tmp;
    buf_init(&tmp, c->m);
    tu_records recs;
    tu_records_init(&recs, c, g.operands, g.noperands, '\n', &w);
    const char *l;
    size_t n;
    while (tu_records_next(&recs, &l, &n) && !w.err) {
      size_t body = n - (l[n - 1] == '\n');
      /* Section delimiters: the pair repeated 3, 2 or 1 times alone. */
      int reps = 0;
      if (body && body % 2 == 0 && body <= 6) {
        reps = (int)body / 2;
        for (size_t j = 0; j < body; j += 2)
          if (l[j] != dl[0] || l[j + 1] != dl[1])
            reps = 0;
      }
      if (reps) {
        sect = reps == 3 ? 0 : reps == 2 ? 1 : 2;
        /* Every delimiter restarts numbering (GNU), unless -p. */
        if (renumber)
          num = start;
        wr_putc(&w, '\n');
        continue;
      }
      const style *s = &st[sect];
      int number = 0;
      if (s->kind == 'a') {
        if (body == 0) {
          /* -l N: only every Nth consecutive empty line is numbered */
          blanks++;
          number = blanks >= join;
          if (number)
            blanks = 0;
        } else {
          blanks = 0;
          number = 1;
        }
      } else if (s->kind == 't') {
        number = body > 0;
      } else if (s->kind == 'p') {
        buf_clear(&tmp);
        buf_append(&tmp, l, body);
        number = regexec(&s->re, buf_cstr(&tmp), 0, NULL, 0) == 0;
      }
      if (number) {
        if (fmt[0] == 'l')
          wr_printf(&w, "%-*lld", (int)width, (long long)num);
        else if (fmt[1] == 'z')
          wr_printf(&w, "%0*lld", (int)width, (long long)num);
        else
          wr_printf(&w, "%*lld", (int)width, (long long)num);
        wr_write(&w, sep, seplen);
        num += incr;
      } else {
        for (int64_t j = 0; j < width + (int64_t)seplen; j++)
          wr_putc(&w, ' ');
      }
      wr_write(&w, l, n);
    }
    status = tu_records_end(&recs);
    buf_free(&tmp);
    if (wr_flush(&w))
      status = bi_stream_status(w.err);
  }
  for (int i = 0; i < 3; i++)
    if (st[i].have_re)
      regfree(&st[i].re);
  if (status == -1)
    return bi_print_help(c);
  if (status == -2)
    return bi_print_version(c);
  return status;
}
