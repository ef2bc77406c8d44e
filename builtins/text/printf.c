/*
 * printf.c - bash's printf builtin.
 *
 * The format is walked once per round; a round that used arguments is
 * repeated while arguments remain (bash), missing arguments read as 0 or "".
 * Numbers are formatted by the C library (as bash does), from a conversion
 * spec rebuilt with '*' already resolved and a j/L length modifier, so the
 * flags (#-+ 0') keep their C meaning. Output goes to a buffer that is
 * flushed when large, or becomes the variable of -v.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins/numfmt.h"
#include "builtins/textutil.h"
#include "builtins/tzutil.h"

const char bi_usage_printf[] = "printf: printf [-v var] format [arguments]";
const char bi_help_printf[] =
    "    Print the ARGUMENTS as laid out by FORMAT.\n"
    "\n"
    "    Options:\n"
    "      -v var\tstore the result in the shell variable VAR instead of\n"
    "    \t\tprinting it\n"
    "\n"
    "    FORMAT mixes three things: ordinary characters, printed as they are;\n"
    "    backslash sequences, which stand for a character and are printed as\n"
    "    that character; and conversions starting with %, each of which takes\n"
    "    the next ARGUMENT and prints it in its own way.\n"
    "\n"
    "    Conversions are those of printf(3) (csndiouxXeEfFgGaA) plus:\n"
    "\n"
    "      %b\tthe argument with its backslash sequences expanded\n"
    "      %q\tthe argument quoted so that the shell reads it back unchanged\n"
    "      %Q\tas %q, with any precision cutting the argument before it is\n"
    "    \t\tquoted\n"
    "      %(fmt)T\tthe time given by the argument, formatted by strftime(3)\n"
    "    \t        with fmt\n"
    "\n"
    "    When ARGUMENTS remain after FORMAT has been used up, FORMAT is used\n"
    "    again from the start, as often as needed. Conversions left without "
    "an\n"
    "    argument act as if given an empty string, or zero for numbers.\n"
    "\n"
    "    Exit Status:\n"
    "    0, or non-zero for a bad option or when writing or assigning fails.\n";

typedef struct pf {
  bi_ctx *c;
  buf out;
  int tostdout; /* flush out to c->out when it grows */
  int werr;     /* stream error seen */
  int rc;
  int stop;      /* \c in %b: end everything */
  char **args;   /* remaining arguments */
  int nargs, ai; /* count and next index */
} pf;

static void pf_flush(pf *p) {
  if (!p->tostdout || p->werr || p->out.len == 0)
    return;
  if (stream_write(p->c->out, p->out.data, p->out.len))
    p->werr = p->c->out->err ? p->c->out->err : EIO;
  buf_clear(&p->out);
}

/* The sink of numfmt: the output buffer, flushed to stdout as it grows;
 * with -v, bounded by the string limit. */
static int pf_sink(void *ud, const char *s, size_t n) {
  pf *p = ud;
  if (p->werr)
    return -1;
  if (buf_append(&p->out, s, n)) {
    p->werr = ENOMEM;
    return -1;
  }
  if (p->tostdout) {
    if (p->out.len >= 65536)
      pf_flush(p);
  } else {
    budget *b = p->c->bud;
    if (b && p->out.len > b->lim.max_string_bytes)
      budget_set_stop(b, BUDGET_STRING, b->lim.max_string_bytes);
    if (b && budget_poll(b))
      p->werr = ECANCELED;
  }
  return p->werr ? -1 : 0;
}

static const char *next_arg(pf *p) {
  if (p->ai < p->nargs)
    return p->args[p->ai++];
  return NULL;
}

/* 'c or "c: the character's code (a UTF-8 character's code point). */
static int char_const(const char *a, uintmax_t *v) {
  if (a[0] != '\'' && a[0] != '"')
    return 0;
  uint32_t cp;
  size_t n = strlen(a + 1);
  if (n == 0)
    *v = 0;
  else if (tu_utf8_get(a + 1, n, &cp) > 1)
    *v = cp;
  else
    *v = (unsigned char)a[1];
  return 1;
}

static void bad_number(pf *p, const char *a) {
  /* bash names the base it tried: "08" is a bad octal number. */
  const char *what = "number";
  if (a[0] == '0' && a[1] >= '0' && a[1] <= '9')
    what = "octal number";
  else if (a[0] == '0' && a[1] == 'x')
    what = "hex number";
  bi_error(p->c, "%s: invalid %s", a, what);
  p->rc = 1;
}

/* After converting a up to end (errno set by the conversion): anything
 * left over is an error, a value out of range only a warning. */
static void check_number(pf *p, const char *a, const char *end) {
  if (*end)
    bad_number(p, a);
  else if (errno == ERANGE)
    bi_error(p->c, "warning: %s: %s", a, bi_strerror(ERANGE));
}

static intmax_t get_int(pf *p, const char *a) {
  if (!a)
    return 0;
  uintmax_t cv;
  if (char_const(a, &cv))
    return (intmax_t)cv;
  char *end;
  errno = 0;
  intmax_t v = strtoimax(a, &end, 0);
  check_number(p, a, end);
  return v;
}

static uintmax_t get_uint(pf *p, const char *a) {
  if (!a)
    return 0;
  uintmax_t cv;
  if (char_const(a, &cv))
    return cv;
  char *end;
  errno = 0;
  uintmax_t v = strtoumax(a, &end, 0);
  check_number(p, a, end);
  return v;
}

static long double get_float(pf *p, const char *a) {
  if (!a)
    return 0;
  uintmax_t cv;
  if (char_const(a, &cv))
    return (long double)cv;
  char *end;
  errno = 0;
  long double v = strtold(a, &end);
  check_number(p, a, end);
  return v;
}

/* Width or precision from '*': an int argument (bash clamps to int). */
static int get_star(pf *p) {
  intmax_t v = get_int(p, next_arg(p));
  if (v > INT32_MAX)
    v = INT32_MAX;
  if (v < -INT32_MAX)
    v = -INT32_MAX;
  return (int)v;
}

/* Append s (n bytes) honouring %s-style width, precision and '-'. */
static void put_padded(pf *p, const char *s, size_t n, int ljust, int width,
                       int prec) {
  if (prec >= 0 && (size_t)prec < n)
    n = (size_t)prec;
  size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
  if (!ljust && bi_fill(' ', pad, pf_sink, p))
    return;
  if (pf_sink(p, s, n))
    return;
  if (ljust)
    bi_fill(' ', pad, pf_sink, p);
}

/* bash's backslash table for %q: characters special to the shell. */
static int shell_special(int ch) {
  return ch && strchr(" \t\n!\"$&'()*,;<>?[\\]^`{|}", ch) != NULL;
}

/* %q: $'...' when something is not printable, else backslashes. Under
 * UTF-8 printable multi-byte characters stay as they are; in the C locale
 * every byte past ASCII is unprintable. */
static void shell_quote(const char *s, size_t n, buf *o, int utf8) {
  if (n == 0) {
    buf_puts(o, "''");
    return;
  }
  int ansi = 0;
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t k = utf8 ? tu_utf8_get(s + i, n - i, &cp) : 1;
    unsigned char u = (unsigned char)s[i];
    if ((k == 1 && (u < 0x20 || u >= 0x7F)) || (k > 1 && cp < 0xA0)) {
      ansi = 1;
      break;
    }
    i += k;
  }
  if (ansi) {
    buf_puts(o, "$'");
    for (size_t i = 0; i < n;) {
      uint32_t cp = 0;
      size_t k = utf8 ? tu_utf8_get(s + i, n - i, &cp) : 1;
      unsigned char u = (unsigned char)s[i];
      if (k > 1 && cp >= 0xA0) {
        buf_append(o, s + i, k);
        i += k;
        continue;
      }
      i++;
      switch (u) {
      case '\a':
        buf_puts(o, "\\a");
        break;
      case '\b':
        buf_puts(o, "\\b");
        break;
      case 033:
        buf_puts(o, "\\E");
        break;
      case '\f':
        buf_puts(o, "\\f");
        break;
      case '\n':
        buf_puts(o, "\\n");
        break;
      case '\r':
        buf_puts(o, "\\r");
        break;
      case '\t':
        buf_puts(o, "\\t");
        break;
      case '\v':
        buf_puts(o, "\\v");
        break;
      case '\\':
        buf_puts(o, "\\\\");
        break;
      case '\'':
        buf_puts(o, "\\'");
        break;
      default:
        if (u < 0x20 || u >= 0x7F)
          buf_printf(o, "\\%03o", u);
        else
          buf_putc(o, u);
      }
    }
    buf_putc(o, '\'');
    return;
  }
  for (size_t i = 0; i < n; i++) {
    int ch = (unsigned char)s[i];
    if (shell_special(ch) || (ch == '#' && i == 0) ||
        (ch == '~' && (i == 0 || s[i - 1] == ':' || s[i - 1] == '=')))
      buf_putc(o, '\\');
    buf_putc(o, ch);
  }
}

/* %b: the argument with escapes expanded; \c ends all output. */
static void expand_b(pf *p, const char *a, buf *o) {
  size_t n = strlen(a);
  for (size_t k = 0; k < n && !p->stop;) {
    const char *bs = memchr(a + k, '\\', n - k);
    size_t run = bs ? (size_t)(bs - (a + k)) : n - k;
    buf_append(o, a + k, run);
    k += run;
    if (!bs)
      break;
    k++;
    k += tu_escape(p->c, a + k, n - k, TU_ESC_B, o, &p->stop);
  }
}

static void put_time(pf *p, const char *tfmt, size_t tlen, int ljust, int width,
                     int prec) {
  const char *a = next_arg(p);
  intmax_t t = (a && *a) ? get_int(p, a) : -1;
  if (t == -1 || t == -2) /* now, and the shell's start (we take now) */
    t = p->c->now_ns ? p->c->now_ns(p->c) / 1000000000 : 0;
  /* Local time of the exported TZ, converted here: the host process's
   * zone and environment are not the script's. */
  const tz_zone *z = bi_tz_open(p->c);
  tz_tm tm;
  tz_localtime(z, (int64_t)t, 0, &tm);
  tz_close(z);
  char *f = mem_strndup(p->c->m, tlen ? tfmt : "%X", tlen ? tlen : 2);
  buf res;
  buf_init(&res, p->c->m);
  if (f)
    tz_format(&res, f, &tm, 0); /* as glibc's strftime: no GNU extras */
  mem_free(p->c->m, f);
  /* bash formats into 128 bytes and prints nothing when that is short. */
  if (!f || res.oom)
    p->werr = ENOMEM;
  else
    put_padded(p, res.data ? res.data : "", res.len < 128 ? res.len : 0, ljust,
               width, prec);
  buf_free(&res);
}

/* Format one number: numfmt streams what a huge width or precision adds. */
static void put_num(pf *p, const char *flags, size_t nflags, int ljust,
                    int width, int prec, char conv, const char *arg) {
  bi_numspec sp = {flags, nflags, ljust != 0, width, prec, conv};
  intmax_t iv = 0;
  uintmax_t uv = 0;
  long double ld = 0;
  if (conv == 'd' || conv == 'i')
    iv = get_int(p, arg);
  else if (strchr("ouxX", conv))
    uv = get_uint(p, arg);
  else
    ld = get_float(p, arg);
  if (bi_fmt_number(p->c->m, &sp, iv, uv, ld, pf_sink, p) == -2 && !p->werr)
    p->werr = ENOMEM;
}

/* One conversion starting at fmt[i] == '%'. Returns the index after it, or
 * -1 to stop with an error. */
static long do_conv(pf *p, const char *fmt, size_t len, size_t i) {
  size_t start = i++;
  if (i < len && fmt[i] == '%') {
    buf_putc(&p->out, '%');
    return (long)i + 1;
  }
  const char *flags = fmt + i;
  while (i < len && strchr("#-+ 0'", fmt[i]) && fmt[i])
    i++;
  size_t nflags = (size_t)(fmt + i - flags);
  int ljust = memchr(flags, '-', nflags) != NULL;
  long long width = -1, prec = -1;
  if (i < len && fmt[i] == '*') {
    i++;
    width = get_star(p);
    if (width < 0) { /* a negative '*' width left-justifies */
      ljust = 2;
      width = -width;
    }
  } else {
    while (i < len && isdigit((unsigned char)fmt[i])) {
      if (width < 0)
        width = 0;
      if (width <= INT_MAX)
        width = width * 10 + (fmt[i] - '0');
      i++;
    }
  }
  if (i < len && fmt[i] == '.') {
    i++;
    prec = 0;
    if (i < len && fmt[i] == '*') {
      i++;
      prec = get_star(p);
      if (prec < 0)
        prec = -1;
    } else {
      while (i < len && isdigit((unsigned char)fmt[i])) {
        if (prec <= INT_MAX)
          prec = prec * 10 + (fmt[i] - '0');
        i++;
      }
    }
  }
  /* bash: a width or precision beyond an int makes the conversion print
   * nothing (its argument is still used). */
  int overflow = width > INT_MAX || prec > INT_MAX;
  while (i < len && fmt[i] && strchr("hjlLtz", fmt[i]))
    i++;
  if (i >= len) {
    bi_error(p->c, "`%.*s': missing format character", (int)(len - start),
             fmt + start);
    p->rc = 1;
    return -1;
  }
  char conv = fmt[i++];
  if (overflow && conv && strchr("sbcqQdiouxXeEfFgGaA", conv)) {
    next_arg(p);
    return (long)i;
  }
  if (width > INT_MAX)
    width = INT_MAX;
  if (prec > INT_MAX)
    prec = INT_MAX;
  int swidth = width < 0 ? 0 : (int)width;
  switch (conv) {
  case 's': {
    const char *a = next_arg(p);
    if (!a)
      a = "";
    put_padded(p, a, strlen(a), ljust, swidth, prec);
    break;
  }
  case 'c': {
    const char *a = next_arg(p);
    char ch = a ? a[0] : 0;
    put_padded(p, &ch, 1, ljust, swidth, -1);
    break;
  }
  case 'b': {
    const char *a = next_arg(p);
    buf t;
    buf_init(&t, p->c->m);
    expand_b(p, a ? a : "", &t);
    put_padded(p, t.data ? t.data : "", t.len, ljust, swidth, prec);
    buf_free(&t);
    break;
  }
  case 'q':
  case 'Q': {
    const char *a = next_arg(p);
    if (!a)
      a = "";
    size_t n = strlen(a);
    int qprec = prec;
    if (conv == 'Q' && prec >= 0) {
      if ((size_t)prec < n)
        n = (size_t)prec;
      qprec = -1;
    }
    buf t;
    buf_init(&t, p->c->m);
    shell_quote(a, n, &t, tu_utf8_locale(p->c));
    put_padded(p, t.data ? t.data : "", t.len, ljust, swidth, qprec);
    buf_free(&t);
    break;
  }
  case '(': {
    const char *close = memchr(fmt + i, ')', len - i);
    size_t after = close ? (size_t)(close - fmt) + 1 : len;
    if (after >= len || fmt[after] != 'T') {
      /* bash warns, prints "%(" and goes on parsing after it. */
      bi_error(p->c, "warning: `%c': invalid time format specification",
               after < len ? fmt[after] : 0);
      buf_puts(&p->out, "%(");
      return (long)i;
    }
    put_time(p, fmt + i, (size_t)(close - (fmt + i)), ljust, swidth, prec);
    i = after + 1;
    break;
  }
  case 'd':
  case 'i':
  case 'o':
  case 'u':
  case 'x':
  case 'X':
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    put_num(p, flags, nflags, ljust, width, prec, conv, next_arg(p));
    break;
  default:
    bi_error(p->c, "`%c': invalid format character", conv);
    p->rc = 1;
    return -1;
  }
  return (long)i;
}

static void usage_error(bi_ctx *c) {
  stream_printf(c->err, "%s: usage: printf [-v var] format [arguments]\n",
                c->argv[0]);
}

int bi_printf(bi_ctx *c) {
  int i = 1;
  const char *var = NULL;
  /* bash's builtin option parsing: only -v, "--" ends, --help. */
  while (i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]) {
    const char *a = c->argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (strcmp(a, "--help") == 0)
      return bi_print_help(c);
    if (a[1] == 'v') {
      if (a[2]) {
        var = a + 2;
        i++;
      } else if (i + 1 < c->argc) {
        var = c->argv[i + 1];
        i += 2;
      } else {
        bi_error(c, "-v: option requires an argument");
        usage_error(c);
        return 2;
      }
      continue;
    }
    bi_error(c, "%.2s: invalid option", a);
    usage_error(c);
    return 2;
  }
  if (i >= c->argc) {
    usage_error(c);
    return 2;
  }
  pf p;
  memset(&p, 0, sizeof p);
  p.c = c;
  buf_init(&p.out, c->m);
  p.tostdout = var == NULL;
  const char *fmt = c->argv[i];
  size_t flen = strlen(fmt);
  p.args = c->argv + i + 1;
  p.nargs = c->argc - i - 1;
  int bad = 0;
  for (;;) {
    int before = p.ai;
    for (size_t k = 0; k < flen && !p.stop && !bad;) {
      const char *sp = fmt + k;
      while (k < flen && fmt[k] != '%' && fmt[k] != '\\')
        k++;
      buf_append(&p.out, sp, (size_t)(fmt + k - sp));
      if (k >= flen)
        break;
      if (fmt[k] == '\\') {
        k++;
        k += tu_escape(c, fmt + k, flen - k, TU_ESC_FMT, &p.out, NULL);
      } else {
        long r = do_conv(&p, fmt, flen, k);
        if (r < 0)
          bad = 1;
        else
          k = (size_t)r;
      }
      if (p.out.len >= 65536)
        pf_flush(&p);
      if (p.werr)
        break;
    }
    if (p.stop || bad || p.werr || p.ai >= p.nargs || p.ai == before)
      break;
    if (c->bud && budget_poll(c->bud))
      break;
  }
  int rc = p.rc;
  if (var) {
    if (c->setvar &&
        c->setvar(c, var, p.out.data ? p.out.data : "", p.out.len) != 0)
      rc = 2;
  } else {
    pf_flush(&p);
    if (p.werr)
      rc = bi_stream_status(p.werr);
  }
  buf_free(&p.out);
  return rc;
}
