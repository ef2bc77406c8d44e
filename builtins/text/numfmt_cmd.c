/*
 * numfmt_cmd.c - GNU numfmt (coreutils 9.1): convert numbers to and from
 * the human forms with SI (1K = 1000) and IEC (1K = 1024, 1Ki) suffixes.
 *
 * Numbers come from the operands, else from the lines of standard input
 * (after --header lines, copied as they are). In each line the fields
 * --field names (the first by default) are converted; fields are split at
 * blanks (each field keeps the blanks before it, and a field that had
 * them, or any field after the first, is padded to its old width) or at
 * the -d character. Arithmetic is in long double, rounding as --round
 * says, as coreutils does (values up to 27 digits, 999Y). An invalid
 * number stops the command with status 2 (--invalid=abort), or is
 * reported and copied (fail: status 2 at the end; warn: status 0), or only
 * copied (ignore).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_numfmt[] = "Usage: numfmt [OPTION]... [NUMBER]...";
const char bi_help_numfmt[] =
    "Convert each NUMBER (or the numbers in the lines of standard input when\n"
    "there is none) to or from a form with a unit suffix.\n"
    "\n"
    "      --debug          warn about input that may not be what was meant\n"
    "  -d, --delimiter=X    fields are separated by X, not by blanks\n"
    "      --field=FIELDS   convert these fields (1 unless given): N, N-, "
    "N-M,\n"
    "                         -M or - (all), several joined by commas\n"
    "      --format=FORMAT  print with a printf-like FORMAT holding one\n"
    "                         %[0]['][-][N][.N]f\n"
    "      --from=UNIT      read suffixes as UNIT says (none unless given)\n"
    "      --from-unit=N    each input number counts N units (1)\n"
    "      --grouping       group digits as the locale does\n"
    "      --header[=N]     copy the first N lines (1) without converting\n"
    "      --invalid=MODE   on an invalid number: abort (the default), fail,\n"
    "                         warn or ignore\n"
    "      --padding=N      pad to N columns: N > 0 aligns right, N < 0 "
    "left\n"
    "      --round=METHOD   up, down, from-zero (the default), towards-zero\n"
    "                         or nearest, when scaling\n"
    "      --suffix=SUFFIX  print SUFFIX after each number, and accept it in\n"
    "                         the input\n"
    "      --to=UNIT        print with a suffix as UNIT says\n"
    "      --to-unit=N      each output number counts N units (1)\n"
    "  -z, --zero-terminated  lines end with a NUL byte, not a newline\n"
    "      --help           print this summary and quit\n"
    "      --version        print the version line and quit\n"
    "\n"
    "UNIT is none (no suffix), si (K = 1000, M = 1000000, ...), iec\n"
    "(K = 1024, M = 1048576, ...), iec-i (Ki = 1024, Mi = 1048576, ...) or,\n"
    "for --from only, auto (K = 1000 and Ki = 1024).\n"
    "\n"
    "Exit status: 0 when every number was converted, 2 when one was not\n"
    "(unless --invalid is warn or ignore), 1 for a usage error.\n";

enum { NF_NONE, NF_AUTO, NF_SI, NF_IEC, NF_IEC_I };
enum { RD_UP, RD_DOWN, RD_FROM_ZERO, RD_TO_ZERO, RD_NEAREST };
enum { INV_ABORT, INV_FAIL, INV_WARN, INV_IGNORE };
enum {
  SSE_OK,
  SSE_LOSS,
  SSE_OVERFLOW,
  SSE_INVALID,
  SSE_FORBIDDEN,
  SSE_BAD_SUFFIX,
  SSE_MISSING_I
};
enum { NF_UNSCALED_DIGITS = LDBL_DIG, NF_MAX_DIGITS = 27, NF_BUF = 128 };
enum {
  O_FROM = 0x100,
  O_FROM_UNIT,
  O_TO,
  O_TO_UNIT,
  O_ROUND,
  O_SUFFIX,
  O_GROUPING,
  O_PADDING,
  O_FIELD,
  O_DEBUG,
  O_HEADER,
  O_FORMAT,
  O_INVALID
};

typedef struct nf_range {
  uint64_t lo, hi;
} nf_range;

typedef struct nf {
  bi_ctx *c;
  writer *w;
  int from, to, round, inval, debug, grouping;
  const char *suffix;
  uint64_t from_unit, to_unit;
  long long padding; /* > 0 right, < 0 left */
  int auto_padding;
  long zero_pad;
  long precision; /* --format's .N, or -1 */
  char *fmt_prefix, *fmt_suffix;
  int delim; /* -1: blanks */
  nf_range *fields;
  size_t nfields;
  int stop; /* --invalid=abort hit an invalid number */
} nf;

static const char *const nf_from_args[] = {"none", "auto",  "si",
                                           "iec",  "iec-i", NULL};
static const int nf_from_vals[] = {NF_NONE, NF_AUTO, NF_SI, NF_IEC, NF_IEC_I};
static const char *const nf_to_args[] = {"none", "si", "iec", "iec-i", NULL};
static const int nf_to_vals[] = {NF_NONE, NF_SI, NF_IEC, NF_IEC_I};
static const char *const nf_round_args[] = {
    "up", "down", "from-zero", "towards-zero", "nearest", NULL};
static const char *const nf_inval_args[] = {"abort", "fail", "warn", "ignore",
                                            NULL};

static int is_blank(int ch) {
  return ch == ' ' || ch == '\t';
}
static int is_digit(int ch) {
  return ch >= '0' && ch <= '9';
}

/* ---- arithmetic -------------------------------------------------------- */

static long double pow_ld(long double base, int x) {
  long double r = base;
  if (x == 0)
    return 1;
  while (--x)
    r *= base;
  return r;
}

static long double abs_ld(long double v) {
  return v < 0 ? -v : v;
}

/* v = result * base^*x with |result| < base. */
static long double exp_ld(long double v, int base, int *x) {
  int p = 0;
  if (v >= -LDBL_MAX && v <= LDBL_MAX)
    while (abs_ld(v) >= base) {
      p++;
      v /= base;
    }
  if (x)
    *x = p;
  return v;
}

static intmax_t r_ceil(long double v) {
  intmax_t i = (intmax_t)v;
  if (i < v)
    i++;
  return i;
}
static intmax_t r_floor(long double v) {
  return -r_ceil(-v);
}

static long double nf_round(long double v, int how) {
  intmax_t mul = (intmax_t)(v / INTMAX_MAX);
  v -= (long double)INTMAX_MAX * mul;
  intmax_t r;
  switch (how) {
  case RD_UP:
    r = r_ceil(v);
    break;
  case RD_DOWN:
    r = r_floor(v);
    break;
  case RD_FROM_ZERO:
    r = v < 0 ? r_floor(v) : r_ceil(v);
    break;
  case RD_TO_ZERO:
    r = (intmax_t)v;
    break;
  default:
    r = (intmax_t)(v < 0 ? v - 0.5L : v + 0.5L);
    break;
  }
  return (long double)INTMAX_MAX * mul + r;
}

static int scale_base(int scale) {
  return scale == NF_IEC || scale == NF_IEC_I ? 1024 : 1000;
}

static int suffix_power(int ch) {
  static const char pw[] = "KMGTPEZY";
  const char *p = ch ? strchr(pw, ch) : NULL;
  return p ? (int)(p - pw) + 1 : 0;
}

/* An integer at s (an optional '-', digits): its value and where it ends. */
static int strtod_int(const char *s, const char **end, long double *v,
                      int *neg) {
  int e = SSE_OK, digits = 0, found = 0;
  long double val = 0;
  *neg = *s == '-';
  if (*neg)
    s++;
  for (*end = s; is_digit((unsigned char)**end); (*end)++) {
    int d = **end - '0';
    found = 1;
    if (val != 0 || d)
      digits++;
    if (digits > NF_UNSCALED_DIGITS)
      e = SSE_LOSS;
    if (digits > NF_MAX_DIGITS)
      return SSE_OVERFLOW;
    val = val * 10 + d;
  }
  if (!found && **end != '.')
    return SSE_INVALID;
  *v = *neg ? -val : val;
  return e;
}

static int strtod_float(const char *s, const char **end, long double *v,
                        size_t *prec) {
  int neg;
  *prec = 0;
  int e = strtod_int(s, end, v, &neg);
  if (e != SSE_OK && e != SSE_LOSS)
    return e;
  if (**end == '.') {
    const char *p2;
    long double frac = 0;
    int nfrac;
    (*end)++;
    int e2 = strtod_int(*end, &p2, &frac, &nfrac);
    if (e2 != SSE_OK && e2 != SSE_LOSS)
      return e2;
    if (e2 == SSE_LOSS)
      e = e2;
    if (nfrac)
      return SSE_INVALID;
    size_t n = (size_t)(p2 - *end);
    frac /= pow_ld(10, (int)n);
    if (neg)
      *v -= frac;
    else
      *v += frac;
    *prec = n;
    *end = p2;
  }
  return e;
}

static int strtod_human(const char *s, const char **end, long double *v,
                        size_t *prec, int scale) {
  int power = 0, base = scale_base(scale);
  int e = strtod_float(s, end, v, prec);
  if (e != SSE_OK && e != SSE_LOSS)
    return e;
  if (**end) {
    while (is_blank((unsigned char)**end))
      (*end)++;
    if (!suffix_power((unsigned char)**end) && **end)
      return SSE_BAD_SUFFIX;
    if (scale == NF_NONE)
      return SSE_FORBIDDEN;
    power = suffix_power((unsigned char)**end);
    if (**end)
      (*end)++;
    if (scale == NF_AUTO && **end == 'i') {
      base = 1024;
      (*end)++;
    }
    *prec = 0;
  }
  /* coreutils 9.1 wants the i even when there is no suffix at all */
  if (scale == NF_IEC_I) {
    if (**end == 'i')
      (*end)++;
    else
      return SSE_MISSING_I;
  }
  *v *= pow_ld(base, power);
  return e;
}

/* ---- messages ---------------------------------------------------------- */

/* A conversion error: reported (unless ignore); with abort it ends the
 * command. */
static void conv_error(nf *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void conv_error(nf *f, const char *fmt, ...) {
  if (f->inval != INV_IGNORE) {
    wr_flush(f->w); /* GNU's error() flushes stdout first */
    va_list ap;
    va_start(ap, fmt);
    tu_verror(f->c, "", fmt, ap);
    va_end(ap);
  }
  if (f->inval == INV_ABORT)
    f->stop = 1;
}

/* ---- output ------------------------------------------------------------ */

static int to_human(nf *f, long double val, int precision, char *out) {
  char fmt[64], *p = fmt;
  *p++ = '%';
  if (f->zero_pad)
    p += snprintf(p, sizeof fmt - 2, "0%ld", f->zero_pad);
  if (f->to == NF_NONE) {
    val *= pow_ld(10, precision);
    val = nf_round(val, f->round);
    val /= pow_ld(10, precision);
    strcpy(p, ".*Lf");
    int n = snprintf(out, NF_BUF, fmt, precision, val);
    return n < 0 || n >= NF_BUF ? -1 : 0;
  }
  int base = scale_base(f->to), power = 0;
  val = exp_ld(val, base, &power);
  int adjust = 0;
  if (f->precision != -1)
    adjust = power * 3 < f->precision ? power * 3 : (int)f->precision;
  else if (abs_ld(val) < 10)
    adjust = 1;
  val *= pow_ld(10, adjust);
  val = nf_round(val, f->round);
  val /= pow_ld(10, adjust);
  if (abs_ld(val) >= base) {
    val /= base;
    power++;
  }
  int show_point = val != 0 && abs_ld(val) < 10 && power > 0;
  static const char *const pc[] = {"", "K", "M", "G", "T", "P", "E", "Z", "Y"};
  strcpy(p, ".*Lf%s");
  int prec = f->precision == -1 ? show_point : (int)f->precision;
  int n = snprintf(out, NF_BUF - 1, fmt, prec, val,
                   power <= 8 ? pc[power] : "(error)");
  if (n < 0 || n >= NF_BUF - 1)
    return -1;
  if (f->to == NF_IEC_I && power > 0)
    strcat(out, "i");
  return 0;
}

/* n blanks of padding, the budget polled as they go. */
static int pad_out(nf *f, unsigned long long n) {
  static const char blanks[65] = "                                "
                                 "                                ";
  while (n && !f->w->err) {
    size_t k = n < sizeof blanks - 1 ? (size_t)n : sizeof blanks - 1;
    wr_write(f->w, blanks, k);
    n -= k;
    if ((n & 0xffff) < k && budget_poll(f->c->bud)) {
      f->stop = 2;
      return -1;
    }
  }
  return 0;
}

/* Prints the converted number; 0, or -1 when it cannot be printed. */
static int put_number(nf *f, long double val, size_t precision,
                      long long padding) {
  size_t used = f->precision == -1 ? precision : (size_t)f->precision;
  int x;
  exp_ld(val, 10, &x);
  if (f->to == NF_NONE && (size_t)x + used > NF_UNSCALED_DIGITS) {
    if (used)
      conv_error(f,
                 "value/precision too large to be printed: '%Lg/%zu' "
                 "(consider using --to)",
                 val, used);
    else
      conv_error(f,
                 "value too large to be printed: '%Lg' (consider using "
                 "--to)",
                 val);
    return -1;
  }
  if (x > NF_MAX_DIGITS - 1) {
    conv_error(f,
               "value too large to be printed: '%Lg' (cannot handle values "
               "> 999Y)",
               val);
    return -1;
  }
  char out[NF_BUF + 8];
  if (to_human(f, val, (int)used, out)) {
    bi_error(f->c, "failed to prepare value '%Lf' for printing", val);
    f->stop = 2;
    return -1;
  }
  if (f->suffix)
    strncat(out, f->suffix, NF_BUF - strlen(out) - 1);
  size_t len = strlen(out);
  unsigned long long width = padding < 0 ? 0ULL - (unsigned long long)padding
                                         : (unsigned long long)padding;
  if (f->fmt_prefix)
    wr_puts(f->w, f->fmt_prefix);
  unsigned long long fill = width > len ? width - len : 0;
  if (padding > 0 && pad_out(f, fill))
    return -1;
  wr_write(f->w, out, len);
  if (padding < 0 && pad_out(f, fill))
    return -1;
  if (f->fmt_suffix)
    wr_puts(f->w, f->fmt_suffix);
  return 0;
}

static int field_wanted(const nf *f, uint64_t n) {
  if (!f->nfields)
    return n == 1;
  for (size_t i = 0; i < f->nfields; i++)
    if (f->fields[i].lo <= n && n <= f->fields[i].hi)
      return 1;
  return 0;
}

/* One field (text, NUL-terminated, in writable memory): converted when it
 * is wanted. Returns 1 when it was fine. */
static int do_field(nf *f, char *text, uint64_t n) {
  if (!field_wanted(f, n)) {
    wr_puts(f->w, text);
    return 1;
  }
  if (f->suffix) {
    size_t tl = strlen(text), sl = strlen(f->suffix);
    if (tl > sl && strcmp(text + tl - sl, f->suffix) == 0)
      text[tl - sl] = 0;
  }
  char *p = text;
  while (*p && is_blank((unsigned char)*p))
    p++;
  if (f->auto_padding)
    f->padding = text < p || n > 1 ? (long long)strlen(text) : 0;
  long double val = 0;
  size_t prec = 0;
  const char *end = p;
  int e = strtod_human(p, &end, &val, &prec, f->from);
  int ok = e == SSE_OK || e == SSE_LOSS;
  if (!ok) {
    switch (e) {
    case SSE_OVERFLOW:
      conv_error(f, "value too large to be converted: %s", tu_quote(f->c, p));
      break;
    case SSE_INVALID:
      conv_error(f, "invalid number: %s", tu_quote(f->c, p));
      break;
    case SSE_FORBIDDEN:
      conv_error(f, "rejecting suffix in input: %s (consider using --from)",
                 tu_quote(f->c, p));
      break;
    case SSE_BAD_SUFFIX:
      conv_error(f, "invalid suffix in input: %s", tu_quote(f->c, p));
      break;
    default:
      conv_error(f, "missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)",
                 tu_quote(f->c, p));
      break;
    }
  } else if (*end) {
    conv_error(f, "invalid suffix in input %s: %s", tu_quote(f->c, p),
               tu_quote(f->c, end));
    ok = 0;
  }
  if (f->stop)
    return 0;
  if (ok && e == SSE_LOSS && f->debug) {
    wr_flush(f->w);
    bi_error(f->c, "large input value %s: possible precision loss",
             tu_quote(f->c, p));
  }
  if (ok) {
    if (f->from_unit != 1 || f->to_unit != 1)
      val = val * f->from_unit / f->to_unit;
    ok = put_number(f, val, prec, f->padding) == 0;
    if (f->stop)
      return 0;
  }
  if (!ok)
    wr_puts(f->w, text);
  return ok;
}

/* One line (NUL-terminated copy): each field, then the line's end. */
static int do_line(nf *f, char *line, int newline, int eol) {
  int valid = 1;
  for (uint64_t field = 1;; field++) {
    char *start = line, *e = line;
    if (f->delim >= 0) {
      if (*e != (char)f->delim)
        while (*e && *e != (char)f->delim)
          e++;
    } else {
      while (*e && (is_blank((unsigned char)*e) || *e == '\n'))
        e++;
      while (*e && !(is_blank((unsigned char)*e) || *e == '\n'))
        e++;
    }
    line = e;
    int last = *line == 0;
    *line = 0;
    if (!do_field(f, start, field))
      valid = 0;
    if (f->stop || f->w->err)
      return valid;
    if (last)
      break;
    wr_putc(f->w, f->delim >= 0 ? f->delim : ' ');
    line++;
    if ((field & 1023) == 0 && budget_poll(f->c->bud)) {
      f->stop = 2;
      return valid;
    }
  }
  if (newline)
    wr_putc(f->w, eol);
  return valid;
}

/* ---- option values ----------------------------------------------------- */

/* --from-unit / --to-unit: digits with an optional K, Ki, M, Mi, ...
 * (K = 1000, Ki = 1024). 0 when invalid. */
static uint64_t unit_size(const char *s) {
  const char *p = s;
  uint64_t v = 1; /* a suffix alone counts one */
  if (is_digit((unsigned char)*p))
    v = 0;
  else if (!suffix_power((unsigned char)*p))
    return 0;
  for (; is_digit((unsigned char)*p); p++) {
    if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
      return 0;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  if (*p) {
    int pw = suffix_power((unsigned char)*p);
    uint64_t base = 1000;
    if (!pw)
      return 0;
    if (p[1] == 'i' && !p[2])
      base = 1024;
    else if (p[1])
      return 0;
    for (int i = 0; i < pw; i++) {
      if (v > UINT64_MAX / base)
        return 0;
      v *= base;
    }
  }
  return v;
}

static int usage_fail(bi_ctx *c, const char *msg, const char *arg) {
  if (arg)
    bi_error(c, msg, tu_quote(c, arg));
  else
    bi_error(c, "%s", msg);
  bi_try_help(c);
  return 1;
}

/* --field's list, as cut's with "-" for all. Returns 0 or the status. */
static int parse_fields(nf *f, const char *s) {
  bi_ctx *c = f->c;
  size_t cap = 1;
  for (const char *p = s; *p; p++)
    cap += *p == ',' || is_blank((unsigned char)*p);
  f->fields = arena_alloc(c->scratch, cap * sizeof *f->fields);
  if (!f->fields) {
    bi_error(c, "memory exhausted");
    return 1;
  }
  int lhs = 0, rhs = 0, dash = 0;
  uint64_t initial = 1, value = 0;
  const char *num = s;
  if (strcmp(s, "-") == 0) {
    value = 1;
    lhs = dash = 1;
    s++;
  }
  for (;;) {
    if (*s == '-') {
      if (dash)
        return usage_fail(c, "invalid field range", NULL);
      dash = 1;
      s++;
      if (lhs && !value)
        return usage_fail(c, "fields are numbered from 1", NULL);
      initial = lhs ? value : 1;
      value = 0;
    } else if (*s == ',' || is_blank((unsigned char)*s) || !*s) {
      if (dash) {
        dash = 0;
        if (!lhs && !rhs)
          return usage_fail(c, "invalid range with no endpoint: -", NULL);
        if (!rhs) {
          f->fields[f->nfields++] = (nf_range){initial, UINT64_MAX};
        } else {
          if (value < initial)
            return usage_fail(c, "invalid decreasing range", NULL);
          f->fields[f->nfields++] = (nf_range){initial, value};
        }
      } else {
        if (value == 0)
          return usage_fail(c, "fields are numbered from 1", NULL);
        f->fields[f->nfields++] = (nf_range){value, value};
      }
      value = 0;
      if (!*s)
        break;
      s++;
      lhs = rhs = 0;
    } else if (is_digit((unsigned char)*s)) {
      if (!(dash ? rhs : lhs) || !is_digit((unsigned char)s[-1]))
        num = s;
      if (dash)
        rhs = 1;
      else
        lhs = 1;
      int d = *s - '0';
      if (value > (UINT64_MAX - (uint64_t)d) / 10 ||
          value * 10 + (uint64_t)d == UINT64_MAX) {
        size_t n = strspn(num, "0123456789");
        char *bad = arena_strndup(c->scratch, num, n);
        return usage_fail(c, "field number %s is too large", bad ? bad : num);
      }
      value = value * 10 + (uint64_t)d;
      s++;
    } else {
      return usage_fail(c, "invalid field value %s", s);
    }
  }
  return 0;
}

/* --format: the text before and after one %[0]['][-][N][.N]f. */
static int parse_format(nf *f, const char *fmt) {
  bi_ctx *c = f->c;
  size_t i, prefix_len = 0;
  for (i = 0; !(fmt[i] == '%' && fmt[i + 1] != '%'); i += (fmt[i] == '%') + 1) {
    if (!fmt[i]) {
      bi_error(c, "format %s has no %% directive", tu_quote(c, fmt));
      return 1;
    }
    prefix_len++;
  }
  i++;
  int zero = 0;
  for (;;) {
    size_t skip = strspn(fmt + i, " ");
    i += skip;
    if (fmt[i] == '\'') {
      f->grouping = 1;
      i++;
    } else if (fmt[i] == '0') {
      zero = 1;
      i++;
    } else if (!skip) {
      break;
    }
  }
  char *endp;
  errno = 0;
  long pad = strtol(fmt + i, &endp, 10);
  if (errno == ERANGE || pad < -LONG_MAX) {
    bi_error(c, "invalid format %s (width overflow)", tu_quote(c, fmt));
    return 1;
  }
  if (endp != fmt + i && pad != 0) {
    if (f->debug && f->padding && !(zero && pad > 0))
      bi_error(c, "--format padding overriding --padding");
    if (pad < 0)
      f->padding = pad;
    else if (zero)
      f->zero_pad = pad;
    else
      f->padding = pad;
  }
  i = (size_t)(endp - fmt);
  if (!fmt[i]) {
    bi_error(c, "format %s ends in %%", tu_quote(c, fmt));
    return 1;
  }
  if (fmt[i] == '.') {
    i++;
    errno = 0;
    f->precision = strtol(fmt + i, &endp, 10);
    if (errno == ERANGE || f->precision < 0 || is_blank(fmt[i]) ||
        fmt[i] == '+') {
      bi_error(c, "invalid precision in format %s", tu_quote(c, fmt));
      return 1;
    }
    i = (size_t)(endp - fmt);
  }
  if (fmt[i] != 'f') {
    bi_error(c, "invalid format %s, directive must be %%[0]['][-][N][.][N]f",
             tu_quote(c, fmt));
    return 1;
  }
  size_t suffix_pos = ++i;
  for (; fmt[i]; i += (fmt[i] == '%') + 1)
    if (fmt[i] == '%' && fmt[i + 1] != '%') {
      bi_error(c, "format %s has too many %% directives", tu_quote(c, fmt));
      return 1;
    }
  if (prefix_len)
    f->fmt_prefix = arena_strndup(c->scratch, fmt, prefix_len);
  if (fmt[suffix_pos])
    f->fmt_suffix =
        arena_strndup(c->scratch, fmt + suffix_pos, strlen(fmt + suffix_pos));
  if ((prefix_len && !f->fmt_prefix) || (fmt[suffix_pos] && !f->fmt_suffix)) {
    bi_error(c, "memory exhausted");
    return 1;
  }
  /* the width of a %0N is printed by snprintf into a small buffer */
  if (f->zero_pad > NF_BUF)
    f->zero_pad = NF_BUF;
  return 0;
}

static int choose(bi_ctx *c, const char *opt, const char *arg,
                  const char *const *args, int *out) {
  size_t n = strlen(arg);
  int found = -1, ambiguous = 0;
  for (int i = 0; args[i]; i++) {
    if (strcmp(args[i], arg) == 0) {
      *out = i;
      return 0;
    }
    if (n && strncmp(args[i], arg, n) == 0) {
      if (found >= 0)
        ambiguous = 1;
      found = i;
    }
  }
  if (found >= 0 && !ambiguous) {
    *out = found;
    return 0;
  }
  tu_bad_choice(c, ambiguous ? "ambiguous" : "invalid", opt, arg, args);
  return 1;
}

int bi_numfmt(bi_ctx *c) {
  static const bi_opt opts[] = {{"from", O_FROM, BI_ARG_REQUIRED},
                                {"from-unit", O_FROM_UNIT, BI_ARG_REQUIRED},
                                {"to", O_TO, BI_ARG_REQUIRED},
                                {"to-unit", O_TO_UNIT, BI_ARG_REQUIRED},
                                {"round", O_ROUND, BI_ARG_REQUIRED},
                                {"padding", O_PADDING, BI_ARG_REQUIRED},
                                {"suffix", O_SUFFIX, BI_ARG_REQUIRED},
                                {"grouping", O_GROUPING, BI_ARG_NONE},
                                {"delimiter", 'd', BI_ARG_REQUIRED},
                                {"field", O_FIELD, BI_ARG_REQUIRED},
                                {"debug", O_DEBUG, BI_ARG_NONE},
                                {"header", O_HEADER, BI_ARG_OPTIONAL},
                                {"format", O_FORMAT, BI_ARG_REQUIRED},
                                {"invalid", O_INVALID, BI_ARG_REQUIRED},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  nf f;
  memset(&f, 0, sizeof f);
  f.c = c;
  f.round = RD_FROM_ZERO;
  f.from_unit = f.to_unit = 1;
  f.precision = -1;
  f.delim = -1;
  int eol = '\n', o, k, fields_given = 0;
  uint64_t header = 0;
  const char *format = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "d:z", opts);
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case O_FROM:
      if (choose(c, "--from", g.arg, nf_from_args, &k))
        return 1;
      f.from = nf_from_vals[k];
      break;
    case O_TO:
      if (choose(c, "--to", g.arg, nf_to_args, &k))
        return 1;
      f.to = nf_to_vals[k];
      break;
    case O_FROM_UNIT:
    case O_TO_UNIT: {
      uint64_t u = unit_size(g.arg);
      if (!u) {
        bi_error(c, "invalid unit size: %s", tu_quote(c, g.arg));
        return 1;
      }
      if (o == O_FROM_UNIT)
        f.from_unit = u;
      else
        f.to_unit = u;
      break;
    }
    case O_ROUND:
      if (choose(c, "--round", g.arg, nf_round_args, &f.round))
        return 1;
      break;
    case O_GROUPING:
      f.grouping = 1;
      break;
    case O_PADDING: {
      char *end;
      errno = 0;
      long long v = strtoll(g.arg, &end, 10);
      if (end == g.arg || *end || v == 0 || (errno && errno != ERANGE)) {
        bi_error(c, "invalid padding value %s", tu_quote(c, g.arg));
        return 1;
      }
      f.padding = v;
      break;
    }
    case O_FIELD:
      if (fields_given) {
        bi_error(c, "multiple field specifications");
        return 1;
      }
      fields_given = 1;
      if (parse_fields(&f, g.arg))
        return 1;
      break;
    case 'd':
      if (g.arg[0] && g.arg[1]) {
        bi_error(c, "the delimiter must be a single character");
        return 1;
      }
      f.delim = (unsigned char)g.arg[0];
      break;
    case 'z':
      eol = 0;
      break;
    case O_SUFFIX:
      f.suffix = g.arg;
      break;
    case O_DEBUG:
      f.debug = 1;
      break;
    case O_HEADER:
      if (g.arg) {
        if (tu_parse_count(g.arg, &header) || header == 0 ||
            !is_digit((unsigned char)g.arg[strlen(g.arg) - 1])) {
          bi_error(c, "invalid header value %s", tu_quote(c, g.arg));
          return 1;
        }
      } else {
        header = 1;
      }
      break;
    case O_FORMAT:
      format = g.arg;
      break;
    case O_INVALID:
      if (choose(c, "--invalid", g.arg, nf_inval_args, &f.inval))
        return 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (format && f.grouping) {
    bi_error(c, "--grouping cannot be combined with --format");
    return 1;
  }
  if (f.debug && f.from == NF_NONE && f.to == NF_NONE && !f.grouping &&
      !f.padding && !format)
    bi_error(c, "no conversion option specified");
  if (format && parse_format(&f, format))
    return 1;
  if (f.grouping && f.to != NF_NONE) {
    bi_error(c, "grouping cannot be combined with --to");
    return 1;
  }
  /* the sandbox's locales (C, C.UTF-8) have no thousands separator */
  if (f.grouping && f.debug)
    bi_error(c, "grouping has no effect in this locale");
  f.auto_padding = f.padding == 0 && f.delim < 0;

  writer w;
  wr_init(&w, c->out);
  f.w = &w;
  int valid = 1, status = 0;
  if (g.noperands) {
    if (f.debug && header)
      bi_error(c, "--header ignored with command-line input");
    for (int i = 0; i < g.noperands && !f.stop && !w.err; i++) {
      char *line =
          arena_strndup(c->scratch, g.operands[i], strlen(g.operands[i]));
      if (!line) {
        bi_error(c, "memory exhausted");
        status = 1;
        break;
      }
      valid &= do_line(&f, line, 1, eol);
    }
  } else {
    reader r;
    rd_init(&r, c->m, c->in);
    rd_flush_to(&r, &w);
    buf line;
    buf_init(&line, c->m);
    const char *rec;
    size_t len;
    int rc;
    while ((rc = rd_record(&r, eol, &rec, &len)) == 1 && !w.err) {
      if (header) {
        header--;
        wr_write(&w, rec, strnlen(rec, len));
        continue;
      }
      if (budget_poll(c->bud)) {
        f.stop = 2;
        break;
      }
      int newline = rec[len - 1] == (char)eol;
      buf_clear(&line);
      if (buf_append(&line, rec, len - (size_t)newline)) {
        bi_error(c, "memory exhausted");
        status = 1;
        break;
      }
      valid &= do_line(&f, line.data, newline, eol);
      if (f.stop)
        break;
    }
    if (rc < 0 && r.err != ECANCELED) {
      wr_flush(&w);
      bi_error(c, "error reading input: %s", bi_strerror(r.err));
      status = 1;
    }
    buf_free(&line);
    rd_free(&r);
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (f.stop == 1)
    return 2;
  if (f.stop == 2 || status)
    return 1;
  if (f.debug && !valid)
    bi_error(c, "failed to convert some of the input numbers");
  if (!valid && f.inval != INV_WARN && f.inval != INV_IGNORE)
    return 2;
  return 0;
}
