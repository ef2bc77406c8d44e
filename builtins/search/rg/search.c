/*
 * search.c - searching one file and printing what ripgrep 13 prints for it.
 *
 * The whole file is one PCRE2 subject (multiline mode): each match found
 * gives its line by looking for the newlines around it, so files with few
 * matches cost one regex scan. A match that runs over a line end (\s can
 * match a newline) is checked again on its line alone.
 *
 * Output (stdout is never a terminal here, so rg's non-tty defaults hold):
 * "PATH:LINE:COL:text" with the parts the options ask for, '-' instead of
 * ':' on context lines, "--" between groups of context that do not touch
 * (and between files), --heading groups under the path with a blank line
 * between files; -0 ends paths with NUL; -o, --vimgrep, -r; -c and
 * --count-matches print counts of files that matched; -l and
 * --files-without-match paths; --json ripgrep's JSON lines.
 *
 * Binary files: a NUL byte makes a file binary. Found while walking, the
 * file is dropped (rg quits at the first NUL); named on the command line
 * (or with --binary), lines before the NUL's block are printed as usual and
 * a match at or after it prints "binary file matches (found "\0" byte
 * around offset N)" and ends the file. rg looks at blocks of 64 KiB as it
 * reads; with every operand a plain file it looks only at the first block.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/search/rg/rg.h"
#include "builtins/textutil.h"

#define RG_BLOCK 65536

typedef struct fs {
  rg *r;
  const char *name;
  const char *d;
  size_t n;   /* searched length */
  size_t lim; /* lines starting at or after lim are in the binary part */
  uint64_t nul_at;
  size_t ln_at;    /* line numbers counted up to here */
  uint64_t ln;     /* newlines before ln_at */
  size_t last_end; /* end (after the newline) of the last printed line */
  int printed;     /* a line of this file went out */
  int64_t after_left;
  uint64_t nsel, nmatch;
  int done;
  int begun; /* --json begin line / heading printed */
  uint64_t json_bytes;
} fs;

static int out(rg *r, const void *p, size_t n) {
  if (r->stop)
    return -1;
  if (wr_write(&r->w, p, n) < 0) {
    r->stop = 1;
    r->status = bi_stream_status(r->w.s->err ? r->w.s->err : r->w.err);
    return -1;
  }
  return 0;
}
static int outs(rg *r, const char *s) {
  return out(r, s, strlen(s));
}
static int outu(rg *r, uint64_t v) {
  char t[24];
  int k = 23;
  t[k] = 0;
  do {
    t[--k] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return out(r, t + k, (size_t)(23 - k));
}

static uint64_t line_no(fs *f, size_t pos) {
  if (pos < f->ln_at) { /* never goes back far: recount from 0 */
    f->ln_at = 0;
    f->ln = 0;
  }
  const char *p = f->d + f->ln_at, *e = f->d + pos;
  while (p < e) {
    const char *q = memchr(p, '\n', (size_t)(e - p));
    if (!q)
      break;
    f->ln++;
    p = q + 1;
  }
  f->ln_at = pos;
  return f->ln + 1;
}

static size_t line_start(const char *d, size_t lo, size_t pos) {
  if (pos <= lo)
    return lo;
  const char *q = memrchr(d + lo, '\n', pos - lo);
  return q ? (size_t)(q - d) + 1 : lo;
}
static size_t line_end(const char *d, size_t pos, size_t n) {
  const char *q = memchr(d + pos, '\n', n - pos);
  return q ? (size_t)(q - d) : n;
}

#define C_PATH "\x1b[0m\x1b[35m"
#define C_LINE "\x1b[0m\x1b[32m"
#define C_MATCH "\x1b[0m\x1b[1m\x1b[31m"
#define C_END "\x1b[0m"

/* A path, in magenta with --color always. */
static int outpath(rg *r, const char *name) {
  if (r->color && outs(r, C_PATH) < 0)
    return -1;
  if (outs(r, name) < 0)
    return -1;
  return r->color ? outs(r, C_END) : 0;
}

/* ---- JSON --------------------------------------------------------------- */

static int utf8_ok(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    size_t k = tu_utf8_get(s + i, n - i, &cp);
    if (k < 2)
      return 0;
    i += k;
  }
  return 1;
}

static void json_str(buf *b, const char *s, size_t n) {
  static const char hx[] = "0123456789abcdef";
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    switch (ch) {
    case '"':
      buf_puts(b, "\\\"");
      break;
    case '\\':
      buf_puts(b, "\\\\");
      break;
    case '\n':
      buf_puts(b, "\\n");
      break;
    case '\r':
      buf_puts(b, "\\r");
      break;
    case '\t':
      buf_puts(b, "\\t");
      break;
    case '\b':
      buf_puts(b, "\\b");
      break;
    case '\f':
      buf_puts(b, "\\f");
      break;
    default:
      if (ch < 0x20) {
        char t[6] = {'\\', 'u', '0', '0', hx[ch >> 4], hx[ch & 15]};
        buf_append(b, t, 6);
      } else {
        buf_putc(b, (char)ch);
      }
    }
  }
  buf_putc(b, '"');
}

/* {"text":"..."} or, for bytes that are not UTF-8, {"bytes":"base64"} */
static void json_data(buf *b, const char *s, size_t n) {
  if (utf8_ok(s, n)) {
    buf_puts(b, "{\"text\":");
    json_str(b, s, n);
    buf_putc(b, '}');
    return;
  }
  static const char b64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  buf_puts(b, "{\"bytes\":\"");
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)(unsigned char)s[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)(unsigned char)s[i + 1] << 8;
    if (i + 2 < n)
      v |= (unsigned char)s[i + 2];
    buf_putc(b, b64[(v >> 18) & 63]);
    buf_putc(b, b64[(v >> 12) & 63]);
    buf_putc(b, i + 1 < n ? b64[(v >> 6) & 63] : '=');
    buf_putc(b, i + 2 < n ? b64[v & 63] : '=');
  }
  buf_puts(b, "\"}");
}

static int json_emit(fs *f, buf *b) {
  rg *r = f->r;
  if (b->oom) {
    buf_free(b);
    r->stop = 1;
    r->status = 2;
    bi_error(r->c, "memory exhausted");
    return -1;
  }
  f->json_bytes += b->len;
  int rc = out(r, b->data, b->len);
  buf_free(b);
  return rc;
}

static int json_begin(fs *f) {
  if (f->begun)
    return 0;
  f->begun = 1;
  buf b;
  buf_init(&b, f->r->c->m);
  buf_puts(&b, "{\"type\":\"begin\",\"data\":{\"path\":");
  json_data(&b, f->name, strlen(f->name));
  buf_puts(&b, "}}\n");
  return json_emit(f, &b);
}

static void json_elapsed(buf *b, int64_t ns) {
  if (ns < 0)
    ns = 0;
  char t[128];
  snprintf(t, sizeof t, "{\"secs\":%lld,\"nanos\":%lld,\"human\":\"%.6fs\"}",
           (long long)(ns / 1000000000), (long long)(ns % 1000000000),
           (double)ns / 1e9);
  buf_puts(b, t);
}
static void json_elapsed_sorted(buf *b, int64_t ns) {
  if (ns < 0)
    ns = 0;
  char t[128];
  snprintf(t, sizeof t, "{\"human\":\"%.6fs\",\"nanos\":%lld,\"secs\":%lld}",
           (double)ns / 1e9, (long long)(ns % 1000000000),
           (long long)(ns / 1000000000));
  buf_puts(b, t);
}

static int64_t now(rg *r) {
  return r->c->now_ns ? r->c->now_ns(r->c) : 0;
}

/* ---- matches within one line -------------------------------------------- */

/* Next match in line l[0..n) at or after *from: 1 with [*ms, *me). Empty
 * matches move on by one character. */
static int next_in_line(rg *r, const char *l, size_t n, size_t *from,
                        size_t *ms, size_t *me, int want) {
  if (*from > n)
    return 0;
  int rc = rx_search(&r->re, l, n, *from, 0, want, ms, me);
  if (rc < 0) {
    if (rc != RX_STOPPED && !r->stop) {
      char t[128];
      bi_error(r->c, "%s", rx_strerror(rc, t, sizeof t));
      r->errored = 1;
    }
    r->stop = 1;
    if (!r->status)
      r->status = 2;
    return 0;
  }
  if (rc == 0)
    return 0;
  if (*me > *ms) {
    *from = *me;
  } else {
    size_t k = 1;
    if (*me < n) {
      uint32_t cp;
      k = tu_utf8_get(l + *me, n - *me, &cp);
    }
    *from = *me + k;
  }
  return 1;
}

/* Expand --replace for the match just found (groups in the ovector). */
static void expand(rg *r, buf *b, const char *l) {
  uint32_t cnt;
  PCRE2_SIZE *ov = rx_ovector(&r->re, &cnt);
  const char *t = r->replace;
  for (size_t i = 0; t[i];) {
    if (t[i] != '$') {
      buf_putc(b, t[i++]);
      continue;
    }
    if (t[i + 1] == '$') {
      buf_putc(b, '$');
      i += 2;
      continue;
    }
    const char *nm;
    size_t nl, j;
    if (t[i + 1] == '{') {
      const char *e = strchr(t + i + 2, '}');
      if (!e) {
        buf_putc(b, t[i++]);
        continue;
      }
      nm = t + i + 2;
      nl = (size_t)(e - nm);
      j = (size_t)(e - t) + 1;
    } else {
      j = i + 1;
      while (t[j] == '_' || (t[j] >= '0' && t[j] <= '9') ||
             (t[j] >= 'a' && t[j] <= 'z') || (t[j] >= 'A' && t[j] <= 'Z'))
        j++;
      nm = t + i + 1;
      nl = j - i - 1;
      if (!nl) {
        buf_putc(b, t[i++]);
        continue;
      }
    }
    long g = -1;
    size_t k = 0;
    while (k < nl && nm[k] >= '0' && nm[k] <= '9')
      k++;
    if (k == nl && nl < 10) {
      g = 0;
      for (k = 0; k < nl; k++)
        g = g * 10 + (nm[k] - '0');
    } else if (nl < 128) {
      char name[128];
      memcpy(name, nm, nl);
      name[nl] = 0;
      int num = pcre2_substring_number_from_name(r->re.re, (PCRE2_SPTR)name);
      g = num > 0 ? num : -1;
    }
    if (g >= 0 && (uint32_t)g < cnt && ov[2 * g] != PCRE2_UNSET)
      buf_append(b, l + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
    i = j;
  }
}

/* ---- standard output ---------------------------------------------------- */

static int heading(fs *f) {
  rg *r = f->r;
  if (f->begun)
    return 0;
  f->begun = 1;
  if (!r->heading || !r->with_fname)
    return 0;
  if (r->any_printed && outs(r, "\n") < 0)
    return -1;
  if (outpath(r, f->name) < 0)
    return -1;
  return out(r, r->nul ? "" : "\n", 1);
}

static int prefix(fs *f, size_t ls, char sep, size_t col) {
  rg *r = f->r;
  char s = sep;
  if (r->with_fname && !r->heading) {
    if (outpath(r, f->name) < 0 || out(r, r->nul ? "" : &s, 1) < 0)
      return -1;
  }
  if (r->lineno) {
    if ((r->color && outs(r, C_LINE) < 0) || outu(r, line_no(f, ls)) < 0 ||
        (r->color && outs(r, C_END) < 0) || out(r, &s, 1) < 0)
      return -1;
  }
  if (col && r->column) {
    if ((r->color && outs(r, C_END) < 0) || outu(r, col) < 0 ||
        (r->color && outs(r, C_END) < 0) || out(r, &s, 1) < 0)
      return -1;
  }
  return 0;
}

/* The "--" before a group that does not continue the previous one. */
static int separator(fs *f, size_t ls) {
  rg *r = f->r;
  if (r->before <= 0 && r->after <= 0)
    return 0;
  if (f->printed ? ls > f->last_end : r->any_printed && !r->heading) {
    if (outs(r, "--\n") < 0)
      return -1;
  }
  return 0;
}

static int line_body(fs *f, size_t ls, size_t le, int kind, size_t os,
                     size_t oe);

static int context_line(fs *f, size_t ls, size_t le) {
  rg *r = f->r;
  if (r->json) {
    buf b;
    buf_init(&b, r->c->m);
    buf_puts(&b, "{\"type\":\"context\",\"data\":{\"path\":");
    json_data(&b, f->name, strlen(f->name));
    buf_puts(&b, ",\"lines\":");
    size_t e = le < f->n ? le + 1 : le;
    json_data(&b, f->d + ls, e - ls);
    char t[96];
    snprintf(t, sizeof t,
             ",\"line_number\":%llu,\"absolute_offset\":%zu,"
             "\"submatches\":[]}}\n",
             (unsigned long long)line_no(f, ls), ls);
    buf_puts(&b, t);
    if (json_begin(f) < 0) {
      buf_free(&b);
      return -1;
    }
    if (json_emit(f, &b) < 0)
      return -1;
  } else {
    if (heading(f) < 0 || separator(f, ls) < 0 || prefix(f, ls, '-', 0) < 0 ||
        line_body(f, ls, le, 'c', 0, 0) < 0)
      return -1;
  }
  f->printed = 1;
  r->any_printed = 1;
  f->last_end = le < f->n ? le + 1 : le;
  return 0;
}

/* The trailing context still owed, up to the line starting at upto. */
static int flush_after(fs *f, size_t upto) {
  size_t p = f->last_end;
  while (f->after_left > 0 && f->printed && p < upto) {
    size_t le = line_end(f->d, p, f->n);
    if (context_line(f, p, le) < 0)
      return -1;
    f->after_left--;
    p = f->last_end;
  }
  return 0;
}

static int binary_message(fs *f) {
  rg *r = f->r;
  if (r->with_fname) {
    if (outs(r, f->name) < 0 || outs(r, r->nul ? "" : ": ") < 0)
      return -1;
    if (r->nul && out(r, "", 1) < 0)
      return -1;
  }
  char t[96];
  snprintf(t, sizeof t,
           "binary file matches (found \"\\0\" byte around offset %llu)\n",
           (unsigned long long)f->nul_at);
  r->any_printed = 1;
  return outs(r, t);
}

/* Count the matches of a line (--count-matches). */
static uint64_t count_in_line(rg *r, const char *l, size_t n) {
  uint64_t k = 0;
  size_t from = 0, ms, me;
  while (next_in_line(r, l, n, &from, &ms, &me, RX_EXTENT))
    k++;
  return k;
}

/* A match's text, in bold red with --color always (not when empty). */
static int outmatch(rg *r, const char *p, size_t n) {
  if (!r->color || !n)
    return out(r, p, n);
  if (outs(r, C_MATCH) < 0 || out(r, p, n) < 0)
    return -1;
  return outs(r, C_END);
}

/* A matching line with its matches colored: all of them, or only the one
 * at [only_s, only_e) (--vimgrep) when only_e is not 0. */
static int colored_line(rg *r, const char *l, size_t n, size_t only_s,
                        size_t only_e) {
  size_t prev = 0;
  if (only_e) {
    if (out(r, l, only_s) < 0 || outmatch(r, l + only_s, only_e - only_s) < 0)
      return -1;
    prev = only_e;
  } else {
    size_t from = 0, ms, me;
    while (next_in_line(r, l, n, &from, &ms, &me, RX_EXTENT)) {
      if (me == ms)
        continue;
      if (out(r, l + prev, ms - prev) < 0 || outmatch(r, l + ms, me - ms) < 0)
        return -1;
      prev = me;
    }
  }
  if (out(r, l + prev, n - prev) < 0)
    return -1;
  return out(r, "\n", 1);
}

/* The text of a printed line: trimmed (--trim), cut or left out when
 * longer than --max-columns, matches colored. kind: 'c' context, 'm' a
 * matching line, 'v' a --vimgrep line for the match [os, oe). */
static int line_body(fs *f, size_t ls, size_t le, int kind, size_t os,
                     size_t oe) {
  rg *r = f->r;
  const char *l = f->d + ls;
  size_t n = le - ls;
  if (r->trim) {
    size_t k = 0;
    while (k < n && (l[k] == ' ' || l[k] == '\t' || l[k] == '\v' ||
                     l[k] == '\f' || l[k] == '\r'))
      k++;
    l += k;
    n -= k;
    os = os > k ? os - k : 0;
    oe = oe > k ? oe - k : 0;
  }
  if (r->max_columns > 0 && n + (le < f->n) > (size_t)r->max_columns) {
    if (r->max_preview) {
      size_t k = 0;
      for (int64_t i = 0; i < r->max_columns && k < n; i++) {
        uint32_t cp;
        k += tu_utf8_get(l + k, n - k, &cp);
      }
      if (out(r, l, k) < 0)
        return -1;
      return outs(r, " [... omitted end of long line]\n");
    }
    if (kind == 'c')
      return outs(r, "[Omitted long context line]\n");
    if (kind == 'm')
      return outs(r, "[Omitted long matching line]\n");
    char t[64];
    snprintf(t, sizeof t, "[Omitted long line with %llu matches]\n",
             (unsigned long long)count_in_line(r, f->d + ls, le - ls));
    return outs(r, t);
  }
  if (kind != 'c' && r->color && !r->invert)
    return colored_line(r, l, n, os, kind == 'v' ? oe : 0);
  if (out(r, l, n) < 0)
    return -1;
  return out(r, "\n", 1);
}

static int match_line_json(fs *f, size_t ls, size_t le) {
  rg *r = f->r;
  buf b;
  buf_init(&b, r->c->m);
  buf_puts(&b, "{\"type\":\"match\",\"data\":{\"path\":");
  json_data(&b, f->name, strlen(f->name));
  buf_puts(&b, ",\"lines\":");
  size_t e = le < f->n ? le + 1 : le;
  json_data(&b, f->d + ls, e - ls);
  char t[96];
  snprintf(t, sizeof t,
           ",\"line_number\":%llu,\"absolute_offset\":%zu,\"submatches\":[",
           (unsigned long long)line_no(f, ls), ls);
  buf_puts(&b, t);
  size_t from = 0, ms, me;
  int first = 1;
  while (!r->invert &&
         next_in_line(r, f->d + ls,
                      r->multiline && le < f->n ? le + 1 - ls : le - ls, &from,
                      &ms, &me, RX_EXTENT)) {
    if (!first)
      buf_putc(&b, ',');
    first = 0;
    buf_puts(&b, "{\"match\":");
    json_data(&b, f->d + ls + ms, me - ms);
    if (r->replace) {
      buf rb;
      buf_init(&rb, r->c->m);
      expand(r, &rb, f->d + ls);
      buf_puts(&b, ",\"replacement\":");
      json_data(&b, rb.data ? rb.data : "", rb.len);
      buf_free(&rb);
    }
    snprintf(t, sizeof t, ",\"start\":%zu,\"end\":%zu}", ms, me);
    buf_puts(&b, t);
    f->nmatch++;
  }
  buf_puts(&b, "]}}\n");
  if (json_begin(f) < 0) {
    buf_free(&b);
    return -1;
  }
  return json_emit(f, &b);
}

/* A selected line [ls, le): print it as the options say. */
static int match_line(fs *f, size_t ls, size_t le) {
  rg *r = f->r;
  const char *l = f->d + ls;
  size_t n = le - ls;
  /* -U: a match may take the line end along */
  size_t sn = r->multiline && le < f->n ? n + 1 : n;
  if (r->json) {
    if (match_line_json(f, ls, le) < 0)
      return -1;
    goto done;
  }
  if (heading(f) < 0 || separator(f, ls) < 0)
    return -1;
  int want = r->replace ? RX_GROUPS : RX_EXTENT;
  if (r->invert) {
    if (prefix(f, ls, ':', 0) < 0 || line_body(f, ls, le, 'm', 0, 0) < 0)
      return -1;
  } else if (r->only || r->vimgrep) {
    size_t from = 0, ms, me;
    while (next_in_line(r, l, sn, &from, &ms, &me, want)) {
      size_t mls = r->multiline ? line_start(f->d, ls, ls + ms) : ls;
      if (prefix(f, mls, ':', ls + ms - mls + 1) < 0)
        return -1;
      if (r->vimgrep && !r->only) {
        if (line_body(f, ls, le, 'v', ms, me) < 0)
          return -1;
      } else if (r->replace) {
        buf b;
        buf_init(&b, r->c->m);
        if (r->color)
          buf_puts(&b, C_MATCH);
        expand(r, &b, l);
        if (r->color)
          buf_puts(&b, C_END);
        buf_putc(&b, '\n');
        int rc = b.oom ? -1 : out(r, b.data, b.len);
        buf_free(&b);
        if (rc < 0)
          return -1;
      } else if (outmatch(r, l + ms, me - ms) < 0 || out(r, "\n", 1) < 0) {
        return -1;
      }
    }
  } else {
    size_t col = 0;
    if (r->column || r->replace) {
      size_t from = 0, ms, me;
      if (r->replace) {
        buf b;
        buf_init(&b, r->c->m);
        size_t prev = 0;
        while (next_in_line(r, l, sn, &from, &ms, &me, want)) {
          if (!col)
            col = ms + 1;
          buf_append(&b, l + prev, ms - prev);
          if (r->color)
            buf_puts(&b, C_MATCH);
          expand(r, &b, l);
          if (r->color)
            buf_puts(&b, C_END);
          prev = me;
        }
        buf_append(&b, l + prev, n - prev);
        buf_putc(&b, '\n');
        int rc = -1;
        if (!b.oom && !r->stop)
          rc = prefix(f, ls, ':', col ? col : 1) < 0 ? -1
                                                     : out(r, b.data, b.len);
        buf_free(&b);
        if (rc < 0)
          return -1;
        goto done;
      }
      if (next_in_line(r, l, sn, &from, &ms, &me, RX_EXTENT))
        col = ms + 1;
    }
    if (r->multiline) { /* each line of the block with its own prefix */
      for (size_t a = ls; a <= le && !r->stop;) {
        size_t b = line_end(f->d, a, le);
        if (prefix(f, a, ':', a == ls ? (col ? col : 1) : 1) < 0 ||
            line_body(f, a, b, 'm', 0, 0) < 0)
          return -1;
        a = b + 1;
      }
      goto done;
    }
    if (prefix(f, ls, ':', col ? col : 1) < 0)
      return -1;
    if (line_body(f, ls, le, 'm', 0, 0) < 0)
      return -1;
  }
done:
  f->printed = 1;
  r->any_printed = 1;
  f->last_end = le < f->n ? le + 1 : le;
  return 0;
}

/* One selected line. Returns -1 to end the file. */
static int selected(fs *f, size_t ls, size_t le) {
  rg *r = f->r;
  if (ls >= f->lim) { /* in the binary part: rg stops here */
    f->done = 1;
    if (r->json || r->count || r->list || r->quiet) {
      f->nsel++;
      return -1;
    }
    f->nsel++;
    if (flush_after(f, ls) == 0)
      binary_message(f);
    return -1;
  }
  f->nsel++;
  r->matched = 1;
  if (r->quiet) {
    r->stop = 1;
    return -1;
  }
  if (r->list) /* -l needs one; --files-without-match too */
    return -1;
  if (r->count) {
    if (r->count == 2 && !r->invert)
      f->nmatch += count_in_line(r, f->d + ls, le - ls);
    else
      f->nmatch++;
  } else {
    if (flush_after(f, ls) < 0)
      return -1;
    /* leading context */
    if (r->before > 0) {
      size_t p = ls;
      size_t floor = f->printed ? f->last_end : 0;
      for (int64_t i = 0; i < r->before && p > floor; i++)
        p = line_start(f->d, floor, p - 1);
      while (p < ls) {
        size_t e = line_end(f->d, p, f->n);
        if (context_line(f, p, e) < 0)
          return -1;
        p = e + 1;
      }
    }
    if (match_line(f, ls, le) < 0)
      return -1;
    f->after_left = r->after > 0 ? r->after : 0;
  }
  if (r->max_count >= 0 && (int64_t)f->nsel >= r->max_count)
    return -1;
  return 0;
}

/* Next line holding a match at or after pos: 1 with [*ls, *le). */
static int find_line(fs *f, size_t pos, size_t *ls, size_t *le) {
  rg *r = f->r;
  while (pos <= f->n) {
    if (pos == f->n && (f->n == 0 || f->d[f->n - 1] == '\n'))
      return 0;
    size_t ms, me;
    int rc = rx_search(&r->re, f->d, f->n, pos, 0, RX_EXTENT, &ms, &me);
    if (rc < 0) {
      if (rc != RX_STOPPED) {
        char t[128];
        bi_error(r->c, "%s: %s", f->name, rx_strerror(rc, t, sizeof t));
        r->errored = 1;
      }
      r->stop = 1;
      return 0;
    }
    if (rc == 0)
      return 0;
    if (ms == f->n && f->n && f->d[f->n - 1] == '\n')
      return 0;
    size_t s = line_start(f->d, pos, ms), e = line_end(f->d, ms, f->n);
    if (r->multiline) { /* every line the match touches */
      size_t last = me > ms ? me - 1 : ms;
      e = last < f->n ? line_end(f->d, last, f->n) : f->n;
      *ls = s;
      *le = e;
      return 1;
    }
    if (me > e) { /* ran over the line end: the line alone decides */
      size_t a, b;
      rc = rx_search(&r->re, f->d + s, e - s, 0, 0, RX_ANY, &a, &b);
      if (rc < 0) {
        r->stop = 1;
        r->errored = 1;
        return 0;
      }
      if (rc == 0) {
        pos = e + 1;
        continue;
      }
    }
    *ls = s;
    *le = e;
    return 1;
  }
  return 0;
}

static void scan(fs *f) {
  rg *r = f->r;
  size_t pos = 0;
  uint32_t tick = 0;
  while (!f->done && !r->stop && pos <= f->n) {
    if ((++tick & 255) == 0 && budget_poll(r->c->bud)) {
      r->stop = 1;
      return;
    }
    size_t ls, le;
    int found = find_line(f, pos, &ls, &le);
    if (r->stop)
      return;
    if (!r->invert) {
      if (!found)
        break;
      if (selected(f, ls, le) < 0)
        return;
      pos = le + 1;
      continue;
    }
    size_t upto = found ? ls : f->n;
    while (pos < upto && !r->stop) {
      if ((++tick & 255) == 0 && budget_poll(r->c->bud)) {
        r->stop = 1;
        return;
      }
      size_t e = line_end(f->d, pos, f->n);
      if (selected(f, pos, e) < 0)
        return;
      pos = e + 1;
    }
    if (!found)
      break;
    pos = le + 1;
  }
}

void rg_search(rg *r, const char *name, const char *data, size_t n,
               int explicit_) {
  fs f;
  memset(&f, 0, sizeof f);
  f.r = r;
  f.name = name;
  f.d = data ? data : "";
  f.n = n;
  f.lim = n;
  int64_t t0 = r->json ? now(r) : 0;
  r->searched++;
  int quit = 0; /* rg stopped reading at the NUL's block */
  if (!r->text) {
    const char *z = n ? memchr(f.d, 0, n) : NULL;
    if (z) {
      size_t off = (size_t)(z - f.d);
      f.nul_at = off;
      int convert = explicit_ || r->binary_all;
      if (convert && r->mmap_like && explicit_) {
        /* one buffer: the first 64 KiB are looked at before searching,
         * the rest as the search gets there */
        f.lim = off < RG_BLOCK ? 0 : line_start(f.d, 0, off);
      } else {
        size_t blk = off / RG_BLOCK * RG_BLOCK;
        f.lim = blk ? line_start(f.d, 0, blk) : 0;
      }
      if (convert && (r->count || r->list))
        f.lim = n; /* counting reads on through the converted NULs */
      if (!convert) {
        /* rg quits: nothing before the block for a count, which needs
         * the whole file; earlier lines for the others */
        if (f.lim == 0 || r->count)
          return;
        f.n = f.lim;
        quit = 1;
      }
    }
  }
  if (!r->never)
    scan(&f);
  if (r->invert && r->never) { /* no pattern, inverted: every line */
    r->never = 0;
  }
  int mt = f.nsel > 0;
  if (mt)
    r->matched = 1;
  if (r->stop && !r->quiet)
    return;
  if (r->json) {
    if (!f.begun)
      return;
    flush_after(&f, f.n);
    r->st.searches++;
    r->st.with_match += mt;
    r->st.bytes_searched += n;
    r->st.lines += f.nsel;
    r->st.matches += f.nmatch;
    buf b;
    buf_init(&b, r->c->m);
    buf_puts(&b, "{\"type\":\"end\",\"data\":{\"path\":");
    json_data(&b, name, strlen(name));
    char t[160];
    if (f.nul_at || f.lim < n)
      snprintf(t, sizeof t, ",\"binary_offset\":%llu",
               (unsigned long long)f.nul_at);
    else
      snprintf(t, sizeof t, ",\"binary_offset\":null");
    buf_puts(&b, t);
    buf_puts(&b, ",\"stats\":{\"elapsed\":");
    int64_t el = now(r) - t0;
    r->st.elapsed_ns += el;
    json_elapsed(&b, el);
    snprintf(
        t, sizeof t,
        ",\"searches\":1,\"searches_with_match\":%d,\"bytes_searched\":%zu,"
        "\"bytes_printed\":%llu,\"matched_lines\":%llu,\"matches\":%llu}}}"
        "\n",
        mt, n, (unsigned long long)f.json_bytes, (unsigned long long)f.nsel,
        (unsigned long long)f.nmatch);
    buf_puts(&b, t);
    r->st.bytes_printed += f.json_bytes;
    uint64_t keep = f.json_bytes;
    json_emit(&f, &b);
    f.json_bytes = keep;
    return;
  }
  if (r->count) {
    if (!mt)
      return;
    if (r->with_fname) {
      outpath(r, name);
      out(r, r->nul ? "" : ":", 1);
    }
    outu(r, r->count == 2 && !r->invert ? f.nmatch : f.nsel);
    out(r, "\n", 1);
    return;
  }
  if (r->list) {
    if ((r->list == 1) == mt)
      rg_print_path(r, name);
    return;
  }
  flush_after(&f, f.n);
  if (quit && f.printed && !r->stop) {
    if (r->with_fname) {
      outs(r, name);
      outs(r, r->nul ? "" : ": ");
      if (r->nul)
        out(r, "", 1);
    }
    char t[128];
    snprintf(t, sizeof t,
             "WARNING: stopped searching binary file after match (found "
             "\"\\0\" byte around offset %llu)\n",
             (unsigned long long)f.nul_at);
    outs(r, t);
  }
}

void rg_print_path(rg *r, const char *name) {
  r->any_printed = 1;
  outpath(r, name);
  out(r, r->nul ? "" : "\n", 1);
}

void rg_json_summary(rg *r) {
  buf b;
  buf_init(&b, r->c->m);
  int64_t el = now(r) - r->t0;
  buf_puts(&b, "{\"data\":{\"elapsed_total\":");
  json_elapsed_sorted(&b, el);
  char t[256];
  snprintf(t, sizeof t,
           ",\"stats\":{\"bytes_printed\":%llu,\"bytes_searched\":%llu,"
           "\"elapsed\":",
           (unsigned long long)r->st.bytes_printed,
           (unsigned long long)r->st.bytes_searched);
  buf_puts(&b, t);
  json_elapsed_sorted(&b, r->st.elapsed_ns);
  snprintf(t, sizeof t,
           ",\"matched_lines\":%llu,\"matches\":%llu,\"searches\":%llu,"
           "\"searches_with_match\":%llu}},\"type\":\"summary\"}\n",
           (unsigned long long)r->st.lines, (unsigned long long)r->st.matches,
           (unsigned long long)r->st.searches,
           (unsigned long long)r->st.with_match);
  buf_puts(&b, t);
  if (!b.oom)
    out(r, b.data, b.len);
  buf_free(&b);
}

void rg_file_error(rg *r, const char *path, int err) {
  r->errored = 1;
  if (r->nomsg || err == ECANCELED)
    return;
  wr_flush(&r->w);
  if (r->sorted) /* rg's sorted walk reports it this way */
    stream_printf(r->c->err,
                  "%s: IO error for operation on %s: %s (os error "
                  "%d)\n",
                  path, path, bi_strerror(err), err);
  else
    stream_printf(r->c->err, "%s: %s (os error %d)\n", path, bi_strerror(err),
                  err);
}
