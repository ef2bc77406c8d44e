/*
 * regex.c - rg's patterns as one PCRE2 regex.
 *
 * ripgrep's default syntax is Rust's regex crate: Perl-like, leftmost-first,
 * Unicode-aware classes (\d \w \s \b know non-ASCII), no back-references
 * and no look-around. Its text is PCRE2's for everything both accept, so a
 * pattern is passed through with PCRE2_UTF | PCRE2_UCP (Unicode classes),
 * PCRE2_MATCH_INVALID_UTF (files need not be valid UTF-8) and
 * PCRE2_MULTILINE (^ and $ at line ends, a whole buffer searched at once);
 * what Rust refuses (look-around, back-references) is refused with rg's
 * message unless -P asked for PCRE2 itself.
 *
 * Several patterns become (?:P1)|(?:P2)...; -F quotes each one; -w wraps
 * the whole as (?<!\w)(?:...)(?!\w), the same test as rg 13's
 * (?:^|\W)(...)(?:$|\W) without swallowing the neighbours; -x as ^(?:...)$.
 * -S (smart case) makes the search caseless when the patterns hold some
 * literal character and no uppercase one, as ripgrep decides it.
 */
#include <string.h>

#include "builtins/search/rg/rg.h"
#include "builtins/textutil.h"
#include "core/buf.h"

static int utf8_valid(const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x80) {
      i++;
      continue;
    }
    size_t k = ch >= 0xf0 && ch < 0xf5   ? 4
               : ch >= 0xe0 && ch < 0xf0 ? 3
               : ch >= 0xc2 && ch < 0xe0 ? 2
                                         : 0;
    if (!k || i + k > n)
      return 0;
    for (size_t j = 1; j < k; j++)
      if (((unsigned char)s[i + j] & 0xc0) != 0x80)
        return 0;
    i += k;
  }
  return 1;
}

static int is_upper_cp(uint32_t cp) {
  if (cp < 0x80)
    return cp >= 'A' && cp <= 'Z';
  /* Latin-1, Greek, Cyrillic capitals: enough for smart case */
  if ((cp >= 0xc0 && cp <= 0xde && cp != 0xd7) ||
      (cp >= 0x391 && cp <= 0x3ab) || (cp >= 0x400 && cp <= 0x42f))
    return 1;
  if (cp >= 0x100 && cp <= 0x17f)
    return (cp & 1) == 0;
  return 0;
}

/* ripgrep's smart case test: some literal outside classes, and no
 * uppercase literal anywhere (class ranges included). Escapes that name
 * classes (\w, \p{Lu}, \x41 ...) are not literals. */
static void analyse(const char *p, size_t n, int *any_lit, int *any_upper) {
  int in_class = 0;
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '\\' && i + 1 < n) {
      char d = p[i + 1];
      i += 2;
      if (d == 'p' || d == 'P' || d == 'x') {
        if (i < n && p[i] == '{') {
          const char *e = memchr(p + i, '}', n - i);
          i = e ? (size_t)(e - p) + 1 : n;
        } else if (d == 'x') {
          i += i + 2 <= n ? 2 : n - i;
        } else if (i < n) {
          i++;
        }
        if (!in_class && d == 'x')
          *any_lit = 1;
        continue;
      }
      if (!strchr("dDwWsSbBAzntrfv0123456789", d) && !in_class)
        *any_lit = 1;
      continue;
    }
    if (in_class) {
      if (ch == ']')
        in_class = 0;
    } else if (ch == '[') {
      in_class = 1;
      if (i + 1 < n && p[i + 1] == '^')
        i++;
      if (i + 1 < n && p[i + 1] == ']')
        i++;
      if (i + 2 < n && p[i + 1] == '[' && p[i + 2] == ':') {
        const char *e = memchr(p + i + 1, ']', n - i - 1);
        if (e)
          i = (size_t)(e - p);
      }
    } else if (ch == '(' && i + 1 < n && p[i + 1] == '?') {
      /* flags and group names are not literals */
      size_t j = i + 2;
      while (j < n && p[j] != ')' && p[j] != ':' && p[j] != '>')
        j++;
      i = j < n ? j + 1 : n;
      continue;
    } else if (ch == '{') {
      const char *e = memchr(p + i, '}', n - i);
      if (e) {
        i = (size_t)(e - p) + 1;
        continue;
      }
    } else if (!strchr(".+*?()|^$", ch)) {
      *any_lit = 1;
    }
    uint32_t cp;
    size_t k = tu_utf8_get(p + i, n - i, &cp);
    if (is_upper_cp(cp))
      *any_upper = 1;
    i += k;
  }
}

/* What Rust's regex refuses and PCRE2 would take: the offset of a
 * look-around or back-reference, with rg's wording. */
static const char *unsupported(const char *p, size_t n, size_t *at,
                               size_t *len) {
  int in_class = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (ch == '\\' && i + 1 < n) {
      if (!in_class && p[i + 1] >= '1' && p[i + 1] <= '9') {
        *at = i;
        *len = 2;
        return "backreferences are not supported";
      }
      i++;
      continue;
    }
    if (in_class) {
      if (ch == ']')
        in_class = 0;
      continue;
    }
    if (ch == '[') {
      in_class = 1;
      if (i + 1 < n && p[i + 1] == '^')
        i++;
      if (i + 1 < n && p[i + 1] == ']')
        i++;
      continue;
    }
    if (ch == '(' && i + 2 < n && p[i + 1] == '?') {
      size_t k = 0;
      if (p[i + 2] == '=' || p[i + 2] == '!')
        k = 3;
      else if (p[i + 2] == '<' && i + 3 < n &&
               (p[i + 3] == '=' || p[i + 3] == '!'))
        k = 4;
      if (k) {
        *at = i;
        *len = k;
        return "look-around, including look-ahead and look-behind, is not "
               "supported";
      }
    }
  }
  return NULL;
}

/* rg's report of a bad pattern: the pattern, carets under the spot, and
 * the reason. */
static int parse_error(bi_ctx *c, const char *p, size_t n, size_t at,
                       size_t len, const char *msg) {
  buf b;
  buf_init(&b, c->m);
  buf_puts(&b, "regex parse error:\n    ");
  buf_append(&b, p, n);
  buf_puts(&b, "\n    ");
  for (size_t i = 0; i < at && i < n; i++)
    buf_putc(&b, ' ');
  for (size_t i = 0; i < (len ? len : 1); i++)
    buf_putc(&b, '^');
  buf_puts(&b, "\nerror: ");
  buf_puts(&b, msg);
  buf_putc(&b, '\n');
  if (!b.oom)
    stream_write(c->err, b.data, b.len);
  buf_free(&b);
  return -1;
}

/* Where the first '(' without its ')' is, for "unclosed group". */
static size_t unclosed_at(const char *p, size_t n) {
  size_t stack[64];
  int sp = 0, in_class = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\\') {
      i++;
      continue;
    }
    if (in_class) {
      if (p[i] == ']')
        in_class = 0;
      continue;
    }
    if (p[i] == '[')
      in_class = 1;
    else if (p[i] == '(' && sp < 64)
      stack[sp++] = i;
    else if (p[i] == ')' && sp > 0)
      sp--;
  }
  return sp ? stack[0] : n;
}

static void quote(buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (strchr("\\^$.|?*+()[]{}-#&~ /", ch) && ch)
      buf_putc(b, '\\');
    if (ch == 0) {
      buf_puts(b, "\\x00");
      continue;
    }
    buf_putc(b, (char)ch);
  }
}

#define PCRE2_HINT                                                             \
  "\nConsider enabling PCRE2 with the --pcre2 flag, which can handle "         \
  "backreferences\nand look-around.\n"

static int is_hex(char ch) {
  return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
         (ch >= 'A' && ch <= 'F');
}

/* Rust regex syntax -> PCRE2 text, refusing what Rust refuses with its
 * words: unknown escapes (\/ \< \h \K \Q), (?<name>), bad counted
 * repetitions, quantifiers with nothing to repeat. \A and \z become line
 * anchors (ripgrep matches line by line), \v the vertical tab, \uXXXX and
 * \UXXXXXXXX code points; 'u' flags are dropped (PCRE2 has no such flag). */
/* Rust's POSIX classes are ASCII only (PCRE2_UCP would widen them). */
static const char *posix_ascii(const char *name, size_t n) {
  static const char *const tab[][2] = {{"alnum", "0-9A-Za-z"},
                                       {"alpha", "A-Za-z"},
                                       {"ascii", "\\x00-\\x7f"},
                                       {"blank", "\\t "},
                                       {"cntrl", "\\x00-\\x1f\\x7f"},
                                       {"digit", "0-9"},
                                       {"graph", "!-~"},
                                       {"lower", "a-z"},
                                       {"print", " -~"},
                                       {"punct", "!-/:-@\\[-`{-~"},
                                       {"space", "\\t\\n\\x0b\\f\\r "},
                                       {"upper", "A-Z"},
                                       {"word", "0-9A-Za-z_"},
                                       {"xdigit", "0-9A-Fa-f"}};
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (strlen(tab[i][0]) == n && memcmp(tab[i][0], name, n) == 0)
      return tab[i][1];
  return NULL;
}

static int no_newline(bi_ctx *c) {
  stream_puts(c->err,
              "the literal '\"\\n\"' is not allowed in a regex\n\nConsider "
              "enabling multiline mode with the --multiline flag (or -U for "
              "short).\nWhen multiline mode is enabled, new line characters "
              "can be matched.\n");
  return -1;
}

static int translate(bi_ctx *c, buf *o, const char *p, size_t n, int *xmode,
                     int multiline) {
  int atom = 0; /* something a quantifier may follow */
  for (size_t i = 0; i < n;) {
    char ch = p[i];
    if (ch == '\\') {
      if (i + 1 >= n)
        return parse_error(c, p, n, i, 1,
                           "incomplete escape sequence, reached end of "
                           "pattern prematurely");
      char d = p[i + 1];
      atom = 1;
      if (strchr("\\.+*?()|[]{}^$#&-~ ", d) || strchr("dDwWsSbB", d)) {
        buf_append(o, p + i, 2);
        i += 2;
        atom = !strchr("bB", d);
      } else if (d == 'A' || d == 'z') {
        buf_puts(o, d == 'A' ? "(?m:^)" : "(?m:$)");
        i += 2;
        atom = 0;
      } else if (d == 'n' && !multiline) {
        return no_newline(c);
      } else if (d == 'n' || d == 't' || d == 'r' || d == 'f' || d == 'a') {
        buf_append(o, p + i, 2);
        i += 2;
      } else if (d == 'v') {
        buf_puts(o, "\\x0b");
        i += 2;
      } else if (d == 'p' || d == 'P' || d == 'x') {
        size_t j = i + 2;
        if (j < n && p[j] == '{') {
          const char *e = memchr(p + j, '}', n - j);
          j = e ? (size_t)(e - p) + 1 : n;
        } else {
          j += d == 'x' ? 2 : 1;
          if (j > n)
            j = n;
        }
        buf_append(o, p + i, j - i);
        i = j;
      } else if (d == 'u' || d == 'U') {
        size_t k = d == 'u' ? 4 : 8, j = i + 2;
        if (j < n && p[j] == '{') {
          const char *e = memchr(p + j, '}', n - j);
          size_t end = e ? (size_t)(e - p) : n;
          buf_puts(o, "\\x{");
          buf_append(o, p + j + 1, end - j - 1);
          buf_putc(o, '}');
          i = e ? end + 1 : n;
          continue;
        }
        size_t h = 0;
        while (h < k && j + h < n && is_hex(p[j + h]))
          h++;
        if (h == 0)
          return parse_error(c, p, n, i, 2, "unrecognized escape sequence");
        buf_puts(o, "\\x{");
        buf_append(o, p + j, h);
        buf_putc(o, '}');
        i = j + h;
      } else if (d >= '0' && d <= '9') {
        parse_error(c, p, n, i, 2, "backreferences are not supported");
        stream_puts(c->err, PCRE2_HINT);
        return -1;
      } else {
        return parse_error(c, p, n, i, 2, "unrecognized escape sequence");
      }
      continue;
    }
    if (ch == '[') { /* a class: copied up to its end */
      size_t j = i + 1;
      int neg = 0;
      if (j < n && p[j] == '^')
        j++, neg = 1;
      if (j < n && p[j] == ']')
        j++;
      buf_append(o, p + i, j - i);
      int depth = 1;
      while (j < n && depth) {
        if (p[j] == '\\' && j + 1 < n) {
          if (p[j + 1] == 'n' && !multiline && !neg)
            return no_newline(c);
          buf_append(o, p + j, 2);
          j += 2;
          continue;
        }
        if (p[j] == '[' && j + 1 < n && p[j + 1] == ':') {
          const char *e = memchr(p + j + 2, ']', n - j - 2);
          if (e && e > p + j + 2 && e[-1] == ':') {
            size_t k = (size_t)(e - p) + 1;
            const char *ascii = posix_ascii(p + j + 2, k - j - 4);
            if (ascii)
              buf_puts(o, ascii);
            else
              buf_append(o, p + j, k - j);
            j = k;
            continue;
          }
        }
        if (p[j] == '[')
          depth++;
        else if (p[j] == ']')
          depth--;
        buf_putc(o, p[j]);
        j++;
      }
      if (depth)
        return parse_error(c, p, n, i, 1, "unclosed character class");
      i = j;
      atom = 1;
      continue;
    }
    if (ch == '(' && i + 1 < n && p[i + 1] == '?') {
      size_t j = i + 2;
      if (j < n && p[j] == 'P' && j + 1 < n && p[j + 1] == '<') {
        buf_append(o, p + i, 4);
        i += 4;
        atom = 0;
        continue;
      }
      if (j < n && p[j] == ':') {
        buf_puts(o, "(?:");
        i += 3;
        atom = 0;
        continue;
      }
      buf_puts(o, "(?");
      size_t start = o->len;
      int neg = 0, any = 0;
      for (; j < n && p[j] != ')' && p[j] != ':'; j++) {
        if (p[j] == '-') {
          if (neg)
            return parse_error(c, p, n, j, 1, "unrecognized flag");
          neg = 1;
          buf_putc(o, '-');
          continue;
        }
        if (!strchr("imsUux", p[j]))
          return parse_error(c, p, n, j, 1, "unrecognized flag");
        any = 1;
        if (p[j] == 'x' && !neg)
          *xmode = 1;
        if (p[j] != 'u')
          buf_putc(o, p[j]);
      }
      if (j >= n)
        return parse_error(c, p, n, n, 1, "expected flag but got end of regex");
      if (neg && (j == 0 || p[j - 1] == '-'))
        return parse_error(c, p, n, j - 1, 1,
                           "dangling flag negation operator");
      if (!any && !neg && p[j] == ')')
        return parse_error(c, p, n, i + 1, 1,
                           "repetition operator missing expression");
      /* only 'u' given: nothing left for PCRE2 */
      if (o->len == start || (o->len == start + 1 && o->data[start] == '-'))
        o->len = start - 2, buf_puts(o, p[j] == ':' ? "(?:" : "");
      else
        buf_putc(o, p[j]);
      i = j + 1;
      atom = 0;
      continue;
    }
    if (ch == '{') {
      if (!atom)
        return parse_error(c, p, n, i, 1,
                           "repetition operator missing expression");
      size_t j = i + 1, a = 0, b = 0;
      int ha = 0, comma = 0, hb = 0;
      while (j < n && p[j] >= '0' && p[j] <= '9')
        a = a * 10 + (size_t)(p[j++] - '0'), ha = 1;
      if (j < n && p[j] == ',') {
        comma = 1;
        j++;
        while (j < n && p[j] >= '0' && p[j] <= '9')
          b = b * 10 + (size_t)(p[j++] - '0'), hb = 1;
      }
      if (i + 1 < n && !(p[i + 1] >= '0' && p[i + 1] <= '9'))
        return parse_error(c, p, n, i + 1, 1,
                           "repetition quantifier expects a valid decimal");
      if (j >= n || p[j] != '}' || !ha)
        return parse_error(c, p, n, i, (j < n ? j : n) - i,
                           "unclosed counted repetition");
      if (comma && hb && b < a)
        return parse_error(c, p, n, i, j + 1 - i,
                           "invalid repetition count range, the start must "
                           "be <= the end");
      buf_append(o, p + i, j + 1 - i);
      i = j + 1;
      continue;
    }
    if (ch == '*' || ch == '+' || ch == '?') {
      if (!atom)
        return parse_error(c, p, n, i, 1,
                           "repetition operator missing expression");
      buf_putc(o, ch);
      i++;
      continue;
    }
    if (ch == ')') {
      buf_putc(o, ch);
      i++;
      atom = 1;
      continue;
    }
    atom = !(ch == '(' || ch == '|' || ch == '^' || ch == '$');
    buf_putc(o, ch);
    i++;
  }
  return 0;
}

int rg_compile(bi_ctx *c, rx_env *env, rx *re, const rg_pat *pats, size_t npats,
               const rg_mcfg *cfg) {
  int utf = 1, any_lit = 0, any_upper = 0;
  for (size_t i = 0; i < npats; i++) {
    if (!utf8_valid(pats[i].s, pats[i].n))
      utf = 0;
    if (cfg->fixed) {
      if (pats[i].n)
        any_lit = 1;
      for (size_t j = 0; j < pats[i].n;) {
        uint32_t cp;
        j += tu_utf8_get(pats[i].s + j, pats[i].n - j, &cp);
        if (is_upper_cp(cp))
          any_upper = 1;
      }
    } else {
      analyse(pats[i].s, pats[i].n, &any_lit, &any_upper);
    }
    if (!cfg->fixed && !cfg->pcre) {
      size_t at, len;
      const char *why = unsupported(pats[i].s, pats[i].n, &at, &len);
      if (why) {
        parse_error(c, pats[i].s, pats[i].n, at, len, why);
        stream_puts(c->err,
                    "\nConsider enabling PCRE2 with the --pcre2 flag, "
                    "which can handle backreferences\nand look-around.\n");
        return -1;
      }
    }
  }
  int icase = cfg->icase || (cfg->smart && any_lit && !any_upper);
  buf pt;
  buf_init(&pt, c->m);
  buf_puts(&pt, cfg->line ? "^(?:" : cfg->word ? "(?<!\\w)(?:" : "(?:");
  for (size_t i = 0; i < npats; i++) {
    if (i)
      buf_putc(&pt, '|');
    buf_puts(&pt, "(?:");
    if (cfg->fixed) {
      quote(&pt, pats[i].s, pats[i].n);
    } else if (cfg->pcre) {
      buf_append(&pt, pats[i].s, pats[i].n);
    } else {
      int xmode = 0;
      if (translate(c, &pt, pats[i].s, pats[i].n, &xmode, cfg->multiline) < 0) {
        buf_free(&pt);
        return -1;
      }
      if (xmode) /* a '#' comment must not swallow the closing ')' */
        buf_putc(&pt, '\n');
    }
    buf_puts(&pt, ")");
  }
  buf_puts(&pt, cfg->line ? ")$" : cfg->word ? ")(?!\\w)" : ")");
  if (pt.oom) {
    buf_free(&pt);
    return bi_error(c, "memory exhausted");
  }
  uint32_t opts = PCRE2_MULTILINE;
  if (icase)
    opts |= PCRE2_CASELESS;
  if (cfg->dotall)
    opts |= PCRE2_DOTALL;
  if (utf)
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  pcre2_set_newline(env->cc, PCRE2_NEWLINE_LF);
  int ec;
  size_t eo;
  int rc = rx_compile(env, re, pt.data, pt.len, opts, 0, NULL, &ec, &eo);
  buf_free(&pt);
  if (rc == 0)
    return 0;
  if (ec == PCRE2_ERROR_NOMEMORY)
    return bi_error(c, "memory exhausted");
  /* Point into the pattern the error is in (the first one for a joined
   * list: the offset is the wrapper's). */
  const rg_pat *p = &pats[0];
  if (ec == PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS) {
    for (size_t i = 0; i < npats; i++)
      if (unclosed_at(pats[i].s, pats[i].n) < pats[i].n) {
        p = &pats[i];
        break;
      }
    return parse_error(c, p->s, p->n, unclosed_at(p->s, p->n), 1,
                       "unclosed group");
  }
  if (ec == 122) { /* PCRE2: unmatched closing parenthesis */
    for (size_t i = 0; i < npats; i++) {
      int depth = 0, cls = 0;
      const char *q = pats[i].s;
      for (size_t j = 0; j < pats[i].n; j++) {
        if (q[j] == '\\') {
          j++;
        } else if (cls) {
          cls = q[j] != ']';
        } else if (q[j] == '[') {
          cls = 1;
        } else if (q[j] == '(') {
          depth++;
        } else if (q[j] == ')' && --depth < 0) {
          return parse_error(c, q, pats[i].n, j, 1, "unopened group");
        }
      }
    }
  }
  PCRE2_UCHAR msg[256];
  if (pcre2_get_error_message(ec, msg, sizeof msg) < 0)
    strcpy((char *)msg, "invalid pattern");
  size_t pre = cfg->line || cfg->word ? (cfg->word ? 10 : 4) : 3;
  pre += 3; /* "(?:" of the pattern itself */
  size_t at = npats == 1 && eo >= pre ? eo - pre : 0;
  if (at > p->n)
    at = p->n;
  if (cfg->pcre) {
    bi_error(c, "PCRE2: error compiling pattern at offset %zu: %s", at,
             (const char *)msg);
    return -1;
  }
  return parse_error(c, p->s, p->n, at, 1, (const char *)msg);
}
