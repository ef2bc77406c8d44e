/* textutil.c - helpers shared by the text builtins (see textutil.h). */
#include "builtins/textutil.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "core/utf8.h"

int tu_hexval(int ch) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

size_t tu_utf8_put(uint32_t cp, char *o) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  if (cp < 0x200000) {
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
  }
  if (cp < 0x4000000) {
    o[0] = (char)(0xF8 | (cp >> 24));
    o[1] = (char)(0x80 | ((cp >> 18) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[3] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[4] = (char)(0x80 | (cp & 0x3F));
    return 5;
  }
  o[0] = (char)(0xFC | ((cp >> 30) & 1));
  o[1] = (char)(0x80 | ((cp >> 24) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 18) & 0x3F));
  o[3] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[4] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[5] = (char)(0x80 | (cp & 0x3F));
  return 6;
}

size_t tu_utf8_get(const char *s, size_t n, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  if (n == 0) {
    *cp = 0;
    return 0;
  }
  unsigned c0 = u[0];
  size_t len;
  uint32_t v, min;
  if (c0 < 0x80) {
    *cp = c0;
    return 1;
  } else if ((c0 & 0xE0) == 0xC0) {
    len = 2, v = c0 & 0x1F, min = 0x80;
  } else if ((c0 & 0xF0) == 0xE0) {
    len = 3, v = c0 & 0x0F, min = 0x800;
  } else if ((c0 & 0xF8) == 0xF0) {
    len = 4, v = c0 & 0x07, min = 0x10000;
  } else {
    *cp = c0;
    return 1;
  }
  if (len > n) {
    *cp = c0;
    return 1;
  }
  for (size_t i = 1; i < len; i++) {
    if ((u[i] & 0xC0) != 0x80) {
      *cp = c0;
      return 1;
    }
    v = (v << 6) | (u[i] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
    *cp = c0;
    return 1;
  }
  *cp = v;
  return len;
}

int tu_escape_char(int ch) {
  switch (ch) {
  case 'a':
    return '\a';
  case 'b':
    return '\b';
  case 'f':
    return '\f';
  case 'n':
    return '\n';
  case 'r':
    return '\r';
  case 't':
    return '\t';
  case 'v':
    return '\v';
  case '\\':
    return '\\';
  default:
    return -1;
  }
}

size_t tu_escape(bi_ctx *c, const char *s, size_t n, int mode, buf *out,
                 int *stop) {
  if (n == 0) { /* a trailing backslash stands for itself */
    buf_putc(out, '\\');
    return 0;
  }
  int ch = (unsigned char)s[0];
  int lit = tu_escape_char(ch);
  if (lit >= 0) {
    buf_putc(out, lit);
    return 1;
  }
  switch (ch) {
  case 'e':
  case 'E':
    buf_putc(out, 033);
    return 1;
  case '\'':
  case '"':
  case '?':
    /* Only the printf format takes these as quoting escapes. */
    if (mode == TU_ESC_FMT) {
      buf_putc(out, ch);
    } else {
      buf_putc(out, '\\');
      buf_putc(out, ch);
    }
    return 1;
  case 'c':
    if (mode == TU_ESC_FMT) {
      buf_puts(out, "\\c");
    } else if (stop) {
      *stop = 1;
    }
    return 1;
  case 'x': {
    size_t i = 1;
    unsigned v = 0;
    while (i < n && i <= 2 && tu_hexval((unsigned char)s[i]) >= 0)
      v = v * 16 + (unsigned)tu_hexval((unsigned char)s[i++]);
    if (i == 1) {
      if (mode != TU_ESC_ECHO)
        bi_error(c, "missing hex digit for \\x");
      buf_puts(out, "\\x");
      return 1;
    }
    buf_putc(out, (int)v);
    return i;
  }
  case 'u':
  case 'U': {
    size_t max = ch == 'u' ? 4 : 8, i = 1;
    uint32_t v = 0;
    while (i < n && i <= max && tu_hexval((unsigned char)s[i]) >= 0)
      v = v * 16 + (uint32_t)tu_hexval((unsigned char)s[i++]);
    if (i == 1) {
      if (mode != TU_ESC_ECHO)
        bi_error(c, "missing unicode digit for \\%c", ch);
      buf_putc(out, '\\');
      buf_putc(out, ch);
      return 1;
    }
    if (v >= 0x80 && !tu_utf8_locale(c)) {
      /* a character the C locale cannot hold: bash writes the escape
       * back, normalized */
      if (v <= 0xFFFF)
        buf_printf(out, "\\u%04X", (unsigned)v);
      else
        buf_printf(out, "\\U%08X", (unsigned)v);
      return i;
    }
    char enc[8];
    buf_append(out, enc, tu_utf8_put(v, enc));
    return i;
  }
  default:
    break;
  }
  if (ch >= '0' && ch <= '7') {
    /* echo wants \0NNN; printf's format \NNN; %b takes both. */
    if (mode == TU_ESC_ECHO && ch != '0') {
      buf_putc(out, '\\');
      buf_putc(out, ch);
      return 1;
    }
    size_t more = (mode != TU_ESC_FMT && ch == '0') ? 3 : 2, i = 1;
    unsigned v = (unsigned)(ch - '0');
    while (i < n && more && s[i] >= '0' && s[i] <= '7') {
      v = v * 8 + (unsigned)(s[i++] - '0');
      more--;
    }
    buf_putc(out, (int)(v & 0xFF));
    return i;
  }
  buf_putc(out, '\\');
  buf_putc(out, ch);
  return 1;
}

int tu_utf8_locale(bi_ctx *c) {
  const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    int r = u8_locale_name(c->getenv ? c->getenv(c, names[i]) : NULL);
    if (r >= 0)
      return r;
  }
  return 0;
}

void tu_verror(bi_ctx *c, const char *prefix, const char *fmt, va_list ap) {
  buf b;
  buf_init(&b, c->m);
  buf_puts(&b, prefix);
  buf_vprintf(&b, fmt, ap);
  bi_error(c, "%s", buf_cstr(&b));
  buf_free(&b);
}

void tu_file_error(bi_ctx *c, const char *name, int err) {
  bi_error(c, "%s: %s", fu_quotef(c, name), bi_strerror(err));
}

void tu_file_error_raw(bi_ctx *c, const char *name, int err) {
  bi_error(c, "%s: %s", name, bi_strerror(err));
}

void tu_records_init(tu_records *t, bi_ctx *c, char **names, int n, int delim,
                     writer *w) {
  bi_inputs_init(&t->in, c, names, n);
  t->s = NULL;
  t->delim = delim;
  t->w = w;
  t->status = 0;
}

static void records_close(tu_records *t) {
  rd_free(&t->r);
  stream_unref(t->s);
  t->s = NULL;
}

int tu_records_next(tu_records *t, const char **rec, size_t *len) {
  for (;;) {
    if (t->s) {
      int k = rd_record(&t->r, t->delim, rec, len);
      if (k > 0)
        return 1;
      int err = k < 0 ? t->r.err : 0;
      records_close(t);
      if (err) {
        t->status = 1;
        if (err == ECANCELED)
          return 0;
        tu_file_error(t->in.c, t->in.name, err);
      }
    }
    if (t->w && t->w->err)
      return 0;
    if (!(t->s = bi_inputs_next(&t->in)))
      return 0;
    rd_init(&t->r, t->in.c->m, t->s);
    rd_flush_to(&t->r, t->w);
  }
}

int tu_records_end(tu_records *t) {
  if (t->s)
    records_close(t);
  return t->status | t->in.status;
}

int tu_slurp(bi_ctx *c, stream *s, const char **data, size_t *len, buf *copy,
             int *err) {
  if (stream_take_all(s, data, len) == 0)
    return 0;
  if (s->err == ECANCELED) {
    *err = ECANCELED;
    return -1;
  }
  for (;;) {
    if (buf_reserve(copy, 65536)) {
      *err = ENOMEM;
      return -1;
    }
    long k = stream_read(s, copy->data + copy->len, copy->cap - copy->len - 1);
    if (k < 0) {
      *err = s->err;
      return -1;
    }
    if (k == 0)
      break;
    copy->len += (size_t)k;
    copy->data[copy->len] = 0;
  }
  *data = copy->data ? copy->data : "";
  *len = copy->len;
  return 0;
}

void tu_files0_conflict(bi_ctx *c, const char *op) {
  bi_error(c, "extra operand %s", fu_quote(c, op));
  stream_puts(c->err, "file operands cannot be combined with --files0-from\n");
  bi_try_help(c);
}

char **tu_split_names(bi_ctx *c, const char *d, size_t n, int *count) {
  size_t cnt = 0;
  for (size_t i = 0; i < n; i++)
    cnt += d[i] == 0;
  char **names = arena_alloc(c->scratch, sizeof(char *) * (cnt + 2));
  int k = 0;
  for (size_t i = 0; names && i < n;) {
    const char *e = memchr(d + i, 0, n - i);
    size_t l = e ? (size_t)(e - (d + i)) : n - i;
    names[k++] = arena_strndup(c->scratch, d + i, l);
    i += l + 1;
  }
  if (names)
    names[k] = NULL;
  *count = k;
  return names;
}

int tu_parse_count(const char *s, uint64_t *v) {
  while (*s == ' ' || *s == '\t' || *s == '\n')
    s++;
  if (*s == '+')
    s++;
  if (*s < '0' || *s > '9')
    return -1;
  uint64_t n = 0;
  int over = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (n > (UINT64_MAX - d) / 10)
      over = 1;
    else
      n = n * 10 + d;
  }
  uint64_t mult = 1;
  if (*s) {
    static const char units[] = "KMGTPEZY";
    const char *u = *s == 'k' ? units : strchr(units, *s);
    if (*s == 'b' && !s[1]) {
      mult = 512;
    } else if (u && *s) {
      int pow = (int)(u - units) + 1;
      uint64_t base = 1024;
      if (!s[1]) {
      } else if (s[1] == 'B' && !s[2]) {
        base = 1000;
      } else if (s[1] == 'i' && s[2] == 'B' && !s[3]) {
      } else {
        return -1;
      }
      for (int i = 0; i < pow; i++) {
        if (mult > UINT64_MAX / base)
          over = 1;
        else
          mult *= base;
      }
    } else {
      return -1;
    }
  }
  if (!over && mult > 1 && n > UINT64_MAX / mult)
    over = 1;
  if (over) {
    *v = UINT64_MAX;
    return -2;
  }
  *v = n * mult;
  return 0;
}

double tu_parse_duration(const char *s) {
  char *end;
  if (!*s)
    return -1;
  double v = strtod(s, &end);
  if (end == s || v < 0 || isnan(v))
    return -1;
  if (*end) {
    if (end[1])
      return -1;
    switch (*end) {
    case 's':
      break;
    case 'm':
      v *= 60;
      break;
    case 'h':
      v *= 3600;
      break;
    case 'd':
      v *= 86400;
      break;
    default:
      return -1;
    }
  }
  return v;
}

int tu_getopt_bare(bi_ctx *c, bi_getopt *g) {
  static const bi_opt opts[] = {BI_OPTS_END};
  bi_getopt_init(g, c, "", opts);
  /* With no option of its own, the first stop is the only one. */
  return bi_getopt_each(g, 1) == BI_OPT_STOP;
}

int tu_extra_operand(bi_ctx *c, const char *op) {
  bi_error(c, "extra operand %s", tu_quote(c, op));
  bi_try_help(c);
  return 1;
}

/* Whether a is an option that takes the next argument as its value: -<opt>
 * alone or ending a cluster of letters, or --<longname> abbreviated. */
static int takes_next(const char *a, int opt, const char *longname) {
  if (a[0] != '-')
    return 0;
  if (a[1] == '-') {
    size_t n = strlen(a + 2);
    return n >= 1 && !strchr(a + 2, '=') && !strncmp(longname, a + 2, n);
  }
  size_t n = strlen(a);
  if (n < 2 || a[n - 1] != opt)
    return 0;
  for (size_t i = 1; i + 1 < n; i++)
    if (!((a[i] >= 'a' && a[i] <= 'z') || (a[i] >= 'A' && a[i] <= 'Z')) ||
        a[i] == opt)
      return 0;
  return 1;
}

int tu_obsolete_num(bi_ctx *c, bi_ctx *sub, int opt, const char *longname) {
  *sub = *c;
  char **av = NULL; /* copied at the first argument to rewrite */
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (!strcmp(a, "--"))
      break;
    if (a[0] != '-' || a[1] < '0' || a[1] > '9')
      continue;
    if (takes_next(c->argv[i - 1], opt, longname))
      continue;
    if (!av) {
      av = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
      if (!av)
        return -1;
      memcpy(av, c->argv, sizeof(char *) * (size_t)(c->argc + 1));
      sub->argv = av;
    }
    size_t l = strlen(a);
    char *na = arena_alloc(c->scratch, l + 2);
    if (!na)
      return -1;
    na[0] = '-';
    na[1] = (char)opt;
    memcpy(na + 2, a + 1, l);
    av[i] = na;
  }
  return 0;
}

const char *tu_char_escape(unsigned ch) {
  switch (ch) {
  case 0:
    return "\\0";
  case '\a':
    return "\\a";
  case '\b':
    return "\\b";
  case '\f':
    return "\\f";
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  case '\v':
    return "\\v";
  }
  return NULL;
}

const char *tu_quote(bi_ctx *c, const char *name) {
  /* GNU's quote(): in a UTF-8 locale between ‘ and ’, elsewhere between
   * apostrophes with an apostrophe inside escaped; a backslash, control
   * characters and bytes that are not characters of the locale as
   * backslash escapes. */
  int utf8 = tu_utf8_locale(c);
  const unsigned char *u = (const unsigned char *)name;
  size_t n = strlen(name);
  buf b;
  buf_init(&b, c->m);
  buf_puts(&b, utf8 ? "\xe2\x80\x98" : "'");
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = u[i];
    if (ch >= 0x80) {
      int32_t cp = -1;
      size_t l = utf8 ? u8_next(name + i, n - i, &cp) : 0;
      if (l && cp >= 0) {
        buf_append(&b, name + i, l);
        i += l - 1;
      } else {
        buf_printf(&b, "\\%03o", ch);
      }
      continue;
    }
    static const char esc[] = "\aa\bb\ff\nn\rr\tt\vv";
    const char *e = ch ? memchr(esc, ch, sizeof esc - 1) : NULL;
    if (ch == '\\')
      buf_puts(&b, "\\\\");
    else if (ch == '\'' && !utf8)
      buf_puts(&b, "\\'");
    else if (e && (e - esc) % 2 == 0)
      buf_printf(&b, "\\%c", e[1]);
    else if (ch < 0x20 || ch == 0x7f)
      buf_printf(&b, "\\%03o", ch);
    else
      buf_putc(&b, (char)ch);
  }
  buf_puts(&b, utf8 ? "\xe2\x80\x99" : "'");
  char *r = b.oom ? NULL : arena_strndup(c->scratch, buf_cstr(&b), b.len);
  buf_free(&b);
  return r ? r : name;
}

void tu_bad_arg(bi_ctx *c, const char *kind, const char *option,
                const char *arg, const char *valid) {
  int utf8 = tu_utf8_locale(c);
  bi_error(c, "%s argument %s for %s", kind, tu_quote(c, arg),
           tu_quote(c, option));
  stream_puts(c->err, "Valid arguments are:\n");
  while (*valid) {
    const char *nl = strchr(valid, '\n');
    size_t n = nl ? (size_t)(nl - valid) + 1 : strlen(valid);
    if (!utf8 || strncmp(valid, "  - '", 5) != 0) {
      stream_write(c->err, valid, n);
    } else {
      int open = 0;
      for (size_t i = 0; i < n; i++) {
        if (valid[i] == '\'') {
          stream_puts(c->err, open ? "\xe2\x80\x99" : "\xe2\x80\x98");
          open = !open;
        } else {
          stream_write(c->err, valid + i, 1);
        }
      }
    }
    valid += n;
  }
  bi_try_help(c);
}

void tu_bad_choice(bi_ctx *c, const char *kind, const char *option,
                   const char *arg, const char *const *valid) {
  bi_error(c, "%s argument %s for %s", kind, tu_quote(c, arg),
           tu_quote(c, option));
  stream_puts(c->err, "Valid arguments are:\n");
  for (int i = 0; valid[i]; i++)
    stream_printf(c->err, "  - %s\n", tu_quote(c, valid[i]));
  bi_try_help(c);
}
