/*
 * exec.c - running a parsed sed program: GNU sed's cycle.
 *
 * Input is read one record ahead (rd_record, copied into a reusable
 * buffer), which is how `$` knows the current line is the last: of all
 * files, or of each file with -s/-i. As in GNU sed, the look-ahead is
 * only read when something needs it (`$`, n, N, the next cycle), so a
 * line from a pipe is printed before the line after it has arrived.
 *
 * A line that had no delimiter is printed without one; the next write to
 * the same output first supplies the missing delimiter (GNU's
 * output_missing_newline), so `printf a | sed p` gives "a\na". Buffers are
 * reused from line to line: the steady state does no allocation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/sed/sed.h"
#include "builtins/textutil.h"
#include "vfs/vfs.h"

typedef struct sd_app {
  int kind; /* 0 text of a, 1 r file, 2 R line (in abuf) */
  const char *p;
  size_t off, len;
} sd_app;

typedef struct sx {
  sd_prog *p;
  bi_ctx *c;
  int delim;
  writer mainw;
  writer *out; /* mainw, or the in-place file's writer */
  int main_missing, file_missing;
  int *out_missing;
  buf ps, hs, next, sbuf, abuf;
  int ps_nl, next_nl;
  int have_next; /* the look-ahead: 1 read, 0 at the end, -1 not read yet */
  uint64_t lineno;
  /* input */
  char **files;
  int nfiles, fi;
  int separate;
  stream *in;
  reader rd;
  int in_open;
  const char *curname;
  const char *next_name, *ps_name; /* the file of the look-ahead line and
                                      of the pattern space (F) */
  /* append queue */
  sd_app *app;
  size_t napp, capp;
  int tflag, quit, status, fatal;
  sd_re *last_re;
} sx;

/* ---- output ------------------------------------------------------------ */

static int out_fail(sx *x, writer *w) {
  if (w->err) {
    x->fatal = bi_stream_status(w->err); /* 141 for EPIPE */
    x->quit = 1;
    return -1;
  }
  return 0;
}

/* A line on the current output; nl: followed by the delimiter. */
static void emit(sx *x, const char *s, size_t n, int nl) {
  writer *w = x->out;
  if (*x->out_missing)
    wr_putc(w, x->delim);
  wr_write(w, s, n);
  if (nl)
    wr_putc(w, x->delim);
  *x->out_missing = !nl;
  if (x->p->unbuffered)
    wr_flush(w);
  out_fail(x, w);
}

static void emit_text(sx *x, const char *s, size_t n) {
  if (*x->out_missing) {
    wr_putc(x->out, x->delim);
    *x->out_missing = 0;
  }
  wr_write(x->out, s, n);
  out_fail(x, x->out);
}

static void wfile_write(sx *x, sd_wfile *f, const char *s, size_t n, int nl) {
  if (!f->s) { /* /dev/stdout */
    writer *o = x->out;
    int *om = x->out_missing;
    x->out = &x->mainw;
    x->out_missing = &x->main_missing;
    emit(x, s, n, nl);
    x->out = o;
    x->out_missing = om;
    return;
  }
  char d = (char)x->delim;
  if ((f->missing_nl && stream_write(f->s, &d, 1) < 0) ||
      stream_write(f->s, s, n) < 0 || (nl && stream_write(f->s, &d, 1) < 0)) {
    if (f->s->err == ECANCELED) {
      x->fatal = 1;
      x->quit = 1;
    } else if (!x->status) {
      bi_error(x->c, "couldn't write to %s: %s", f->name,
               bi_strerror(f->s->err));
      x->status = 4;
      x->quit = 1;
    }
  }
  f->missing_nl = !nl;
}

/* ---- input ------------------------------------------------------------- */

static void close_in(sx *x) {
  if (x->in_open) {
    rd_free(&x->rd);
    stream_unref(x->in);
    x->in_open = 0;
  }
}

/* Open the next readable operand. 1, or 0 when none is left. */
static int open_next(sx *x) {
  while (x->fi < x->nfiles) {
    const char *name = x->files[x->fi++];
    int err = 0;
    stream *s = bi_open_read(x->c, name, &err);
    if (!s) {
      if (err == ECANCELED) {
        x->fatal = 1;
        x->quit = 1;
        return 0;
      }
      if (err == EISDIR)
        bi_error(x->c, "couldn't edit %s: not a regular file", name);
      else
        bi_error(x->c, "can't read %s: %s", name, bi_strerror(err));
      x->status = 2;
      if (x->separate)
        return -1;
      continue;
    }
    x->in = s;
    rd_init(&x->rd, x->c->m, s);
    rd_flush_to(&x->rd, &x->mainw);
    x->in_open = 1;
    x->curname = name;
    return 1;
  }
  return 0;
}

/* The next record into dst: 1, 0 at the end of the input (of this file
 * with -s/-i). */
static int read_raw(sx *x, buf *dst, int *nl) {
  for (;;) {
    if (!x->in_open) {
      if (x->separate || x->quit || open_next(x) <= 0)
        return 0;
    }
    const char *line;
    size_t len;
    int r = rd_record(&x->rd, x->delim, &line, &len);
    if (r < 0) {
      if (x->rd.err == ECANCELED) {
        x->fatal = 1;
        x->quit = 1;
        return 0;
      }
      bi_error(x->c, "read error on %s: %s",
               strcmp(x->curname, "-") ? x->curname : "stdin",
               bi_strerror(x->rd.err));
      x->status = 4;
      close_in(x);
      continue;
    }
    if (r == 1) {
      x->next_name = x->curname;
      *nl = len > 0 && line[len - 1] == (char)x->delim;
      buf_clear(dst);
      buf_append(dst, line, len - (size_t)*nl);
      return 1;
    }
    if (x->separate)
      return 0;
    close_in(x);
  }
}

static void flush_append(sx *x);

/* Whether there is a line after the pattern space, reading it if needed. */
static int has_next(sx *x) {
  if (x->have_next < 0)
    x->have_next = read_raw(x, &x->next, &x->next_nl);
  return x->have_next;
}

/* Move the look-ahead line into the pattern space; the one after is read
 * when asked for. */
static int next_line(sx *x) {
  if (!has_next(x))
    return 0;
  flush_append(x);
  buf t = x->ps;
  x->ps = x->next;
  x->next = t;
  x->ps_nl = x->next_nl;
  x->ps_name = x->next_name;
  x->have_next = -1;
  x->lineno++;
  return 1;
}

/* ---- append queue (a, r, R) -----------------------------------------------
 */

static void queue(sx *x, int kind, const char *p, size_t off, size_t len) {
  if (x->napp == x->capp) {
    size_t nc = x->capp * 2 + 8;
    sd_app *v = mem_realloc(x->c->m, x->app, nc * sizeof *v);
    if (!v)
      return;
    x->app = v;
    x->capp = nc;
  }
  x->app[x->napp++] = (sd_app){kind, p, off, len};
}

static void flush_append(sx *x) {
  for (size_t k = 0; k < x->napp && !x->fatal; k++) {
    sd_app *a = &x->app[k];
    if (a->kind == 0) {
      emit_text(x, a->p, a->len);
    } else if (a->kind == 2) {
      emit_text(x, x->abuf.data + a->off, a->len);
    } else {
      /* r: the whole file, silently nothing when it cannot be read */
      int err = 0;
      stream *s = bi_open_read(x->c, a->p, &err);
      if (!s)
        continue;
      char tmp[8192];
      long k2;
      int last = -1;
      while ((k2 = wr_flush_read(x->out, s, tmp, sizeof tmp)) > 0) {
        emit_text(x, tmp, (size_t)k2);
        last = (unsigned char)tmp[k2 - 1];
      }
      if (last >= 0 && last != x->delim)
        *x->out_missing = 1;
      stream_unref(s);
    }
  }
  x->napp = 0;
  buf_clear(&x->abuf);
}

/* ---- matching ----------------------------------------------------------- */

static sd_re *use_re(sx *x, sd_re *re) {
  if (!re)
    re = x->last_re;
  else
    x->last_re = re;
  if (!re && !x->fatal) {
    bi_error(x->c, "no previous regular expression");
    x->fatal = 1;
    x->status = 1;
    x->quit = 1;
  }
  return re;
}

/* A regex hit a PCRE2 limit (only back-references still backtrack without
 * bound): say so and stop with GNU sed's status for a run-time failure,
 * never take it for "no match". */
static void re_failed(sx *x, int rc) {
  char msg[128];
  if (x->fatal)
    return;
  if (rc == RX_STOPPED) { /* the budget stopped it: the shell says why */
    x->fatal = 1;
    x->quit = 1;
    return;
  }
  wr_flush(&x->mainw);
  bi_error(x->c, "%s", rx_strerror(rc, msg, sizeof msg));
  x->fatal = 4;
  x->quit = 1;
}

static int re_match(sx *x, sd_re *re, const char *s, size_t n, size_t start,
                    uint32_t opts) {
  size_t ms, me;
  int rc = rx_search(&re->rx, s, n, start, opts, RX_ANY, &ms, &me);
  if (rc < 0)
    re_failed(x, rc);
  return rc > 0;
}

static int is_last(sx *x) {
  return !has_next(x);
}

static int match_one(sx *x, sd_addr *a) {
  switch (a->kind) {
  case SA_LINE:
    return x->lineno == a->n1;
  case SA_LAST:
    return is_last(x);
  case SA_STEP:
    if (a->n2 == 0)
      return x->lineno == a->n1;
    return x->lineno >= a->n1 && (x->lineno - a->n1) % a->n2 == 0;
  case SA_RE: {
    sd_re *re = use_re(x, a->re);
    return re && re_match(x, re, x->ps.data ? x->ps.data : "", x->ps.len, 0, 0);
  }
  default:
    return 0;
  }
}

static int matches(sx *x, sd_cmd *cm) {
  int r;
  if (!cm->a1.kind) {
    r = 1;
  } else if (!cm->a2.kind) {
    r = match_one(x, &cm->a1);
  } else if (cm->active) {
    r = 1;
    switch (cm->a2.kind) {
    case SA_RE:
      if (match_one(x, &cm->a2))
        cm->active = 0;
      break;
    case SA_LINE:
      if (x->lineno >= cm->a2.n1) {
        cm->active = 0;
        /* jumped past the end (n/N): GNU ends the range without it */
        if (x->lineno > cm->a2.n1)
          r = match_one(x, &cm->a1);
      }
      break;
    case SA_LAST:
      if (is_last(x))
        cm->active = 0;
      break;
    default: /* +N, ~N */
      if (x->lineno >= cm->end)
        cm->active = 0;
      break;
    }
  } else if (!match_one(x, &cm->a1)) {
    r = 0;
  } else {
    r = 1;
    switch (cm->a2.kind) {
    case SA_LINE:
      cm->active = cm->a2.n1 > x->lineno;
      break;
    case SA_LAST:
      cm->active = !is_last(x);
      break;
    case SA_RE:
      cm->active = 1;
      break;
    case SA_PLUS:
      cm->end = x->lineno + cm->a2.n1;
      cm->active = cm->a2.n1 > 0;
      break;
    case SA_MULT:
      if (cm->a2.n1 > 0 && x->lineno % cm->a2.n1) {
        cm->end = (x->lineno / cm->a2.n1 + 1) * cm->a2.n1;
        cm->active = 1;
      }
      break;
    }
  }
  return r ^ cm->neg;
}

/* ---- commands ----------------------------------------------------------- */

static int case_apply(int ch, int mode) {
  if (mode == SC_LOWER || mode == SC_LOWER1)
    return tolower(ch);
  if (mode == SC_UPPER || mode == SC_UPPER1)
    return toupper(ch);
  return ch;
}

static void put_cased(buf *o, const char *s, size_t n, int mode, int *one) {
  if (mode == SC_NONE && !*one) {
    buf_append(o, s, n);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    int ch = (unsigned char)s[i];
    if (*one) {
      ch = case_apply(ch, *one);
      *one = 0;
    } else {
      ch = case_apply(ch, mode);
    }
    buf_putc(o, ch);
  }
}

/* Does the replacement use \1..\9 (the groups, not only the extent)? */
static int uses_groups(const sd_cmd *cm) {
  for (size_t k = 0; k < cm->nparts; k++)
    if (cm->parts[k].kind == SR_GROUP && cm->parts[k].n > 0)
      return 1;
  return 0;
}

static void put_repl(sd_cmd *cm, const char *s, PCRE2_SIZE *ov, int rc,
                     buf *o) {
  int mode = SC_NONE, one = 0;
  for (size_t k = 0; k < cm->nparts; k++) {
    sd_rpart *pt = &cm->parts[k];
    if (pt->kind == SR_LIT) {
      put_cased(o, cm->text + pt->off, pt->len, mode, &one);
    } else if (pt->kind == SR_GROUP) {
      int g = pt->n;
      if (g < rc && ov[2 * g] != PCRE2_UNSET)
        put_cased(o, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g], mode, &one);
    } else if (pt->n == SC_LOWER1 || pt->n == SC_UPPER1) {
      one = pt->n;
    } else if (pt->n == SC_END) {
      mode = SC_NONE;
      one = 0;
    } else {
      mode = pt->n;
    }
  }
}

static int do_subst(sx *x, sd_cmd *cm) {
  sd_re *re = use_re(x, cm->re_empty ? NULL : cm->re);
  if (!re)
    return 0;
  const char *s = x->ps.data ? x->ps.data : "";
  size_t n = x->ps.len, start = 0, copied = 0;
  uint64_t count = 0;
  uint32_t opt = 0;
  int did = 0;
  buf *o = &x->sbuf;
  buf_clear(o);
  int want = uses_groups(cm) ? RX_GROUPS : RX_EXTENT;
  while (start <= n) {
    size_t ms, me;
    int rc = rx_search(&re->rx, s, n, start, opt, want, &ms, &me);
    if (rc < 0) {
      re_failed(x, rc);
      return 0;
    }
    if (rc == 0)
      break;
    uint32_t cnt;
    PCRE2_SIZE *ov = rx_ovector(&re->rx, &cnt);
    rc = (int)cnt;
    count++;
    if (count >= (uint64_t)cm->num) {
      buf_append(o, s + copied, ms - copied);
      put_repl(cm, s, ov, rc, o);
      copied = me;
      did = 1;
      if (!cm->gflag)
        break;
    }
    if (me == ms) {
      if (ms >= n)
        break;
      size_t l = 1;
      if (x->p->utf8 && (unsigned char)s[ms] >= 0x80) {
        uint32_t cp;
        l = tu_utf8_get(s + ms, n - ms, &cp);
      }
      start = ms + l;
      opt = 0;
    } else {
      start = me;
      opt = PCRE2_NOTEMPTY_ATSTART;
    }
  }
  if (!did)
    return 0;
  buf_append(o, s + copied, n - copied);
  buf t = x->ps;
  x->ps = *o;
  *o = t;
  return 1;
}

static void do_y(sx *x, sd_cmd *cm) {
  if (cm->ymap) {
    unsigned char *s = (unsigned char *)x->ps.data;
    for (size_t i = 0; i < x->ps.len; i++)
      s[i] = cm->ymap[s[i]];
    return;
  }
  buf *o = &x->sbuf;
  buf_clear(o);
  const char *s = x->ps.data ? x->ps.data : "";
  for (size_t i = 0; i < x->ps.len;) {
    uint32_t cp;
    size_t l = tu_utf8_get(s + i, x->ps.len - i, &cp);
    size_t k = 0;
    for (; k < cm->ny; k++)
      if (strlen(cm->yfrom[k]) == l && memcmp(cm->yfrom[k], s + i, l) == 0)
        break;
    if (k < cm->ny)
      buf_puts(o, cm->yto[k]);
    else
      buf_append(o, s + i, l);
    i += l;
  }
  buf t = x->ps;
  x->ps = *o;
  *o = t;
}

/* l: unambiguous form, wrapped at width (0 or 1: no wrapping). */
static void do_l(sx *x, int64_t width) {
  buf *o = &x->sbuf;
  buf_clear(o);
  size_t col = 0;
  const unsigned char *s =
      (const unsigned char *)(x->ps.data ? x->ps.data : "");
  for (size_t i = 0; i < x->ps.len; i++) {
    char tmp[8];
    int ch = s[i];
    const char *e = NULL;
    switch (ch) {
    case '\\':
      e = "\\\\";
      break;
    case '\a':
      e = "\\a";
      break;
    case '\b':
      e = "\\b";
      break;
    case '\f':
      e = "\\f";
      break;
    case '\n':
      e = "\\n";
      break;
    case '\r':
      e = "\\r";
      break;
    case '\t':
      e = "\\t";
      break;
    case '\v':
      e = "\\v";
      break;
    default:
      if (ch >= 0x20 && ch < 0x7f) {
        tmp[0] = (char)ch;
        tmp[1] = 0;
      } else {
        tmp[0] = '\\';
        tmp[1] = (char)('0' + (ch >> 6));
        tmp[2] = (char)('0' + ((ch >> 3) & 7));
        tmp[3] = (char)('0' + (ch & 7));
        tmp[4] = 0;
      }
      e = tmp;
    }
    size_t el = strlen(e);
    if (width > 1 && col + el > (size_t)width - 1) {
      buf_puts(o, "\\\n");
      col = 0;
    }
    buf_append(o, e, el);
    col += el;
  }
  buf_puts(o, "$\n");
  emit_text(x, o->data, o->len);
}

static void read_R(sx *x, sd_rfile *f) {
  if (f->eof)
    return;
  if (!f->rd) {
    int err = 0;
    f->s = bi_open_read(x->c, f->name, &err);
    if (!f->s) {
      f->eof = 1;
      return;
    }
    f->rd = mem_alloc(x->c->m, sizeof(reader));
    if (!f->rd) {
      f->eof = 1;
      return;
    }
    rd_init(f->rd, x->c->m, f->s);
    rd_flush_to(f->rd, &x->mainw);
  }
  const char *line;
  size_t len;
  if (rd_record(f->rd, x->delim, &line, &len) != 1) {
    f->eof = 1;
    return;
  }
  size_t off = x->abuf.len;
  buf_append(&x->abuf, line, len);
  if (!len || line[len - 1] != (char)x->delim)
    buf_putc(&x->abuf, x->delim);
  queue(x, 2, NULL, off, x->abuf.len - off);
}

enum { CY_END, CY_DELETE, CY_RESTART };

/* Run the program over the pattern space: how the cycle ends. */
static int run_cmds(sx *x) {
  sd_prog *p = x->p;
  size_t pc = 0;
  while (pc < p->ncmds && !x->fatal) {
    /* Branches can loop without reading or writing (:a;s/a/a/;ta): poll
     * the budget on every command so the deadline and a cancel end it. */
    if (x->c->bud && budget_poll(x->c->bud)) {
      x->fatal = 1;
      return CY_DELETE;
    }
    sd_cmd *cm = &p->cmds[pc];
    if (!matches(x, cm)) {
      pc = cm->cmd == '{' ? cm->jump : pc + 1;
      continue;
    }
    pc++;
    const char *ps = x->ps.data ? x->ps.data : "";
    switch (cm->cmd) {
    case '{':
    case '}':
    case ':':
      break;
    case '=': {
      char tmp[32];
      int k =
          snprintf(tmp, sizeof tmp, "%llu\n", (unsigned long long)x->lineno);
      emit_text(x, tmp, (size_t)k);
      break;
    }
    case 'a':
      queue(x, 0, cm->text, 0, cm->tlen);
      break;
    case 'i':
      emit_text(x, cm->text, cm->tlen);
      break;
    case 'c':
      if (!cm->a2.kind || !cm->active)
        emit_text(x, cm->text, cm->tlen);
      return CY_DELETE;
    case 'b':
      pc = cm->jump;
      break;
    case 't':
      if (x->tflag) {
        x->tflag = 0;
        pc = cm->jump;
      }
      break;
    case 'T':
      if (!x->tflag)
        pc = cm->jump;
      else
        x->tflag = 0;
      break;
    case 'd':
      return CY_DELETE;
    case 'D': {
      const char *nl = memchr(ps, x->delim, x->ps.len);
      if (!nl)
        return CY_DELETE;
      size_t cut = (size_t)(nl - ps) + 1;
      memmove(x->ps.data, ps + cut, x->ps.len - cut);
      x->ps.len -= cut;
      x->ps.data[x->ps.len] = 0;
      return CY_RESTART;
    }
    case 'F':
      emit_text(x, x->ps_name, strlen(x->ps_name));
      emit_text(x, "\n", 1);
      break;
    case 'g':
      buf_clear(&x->ps);
      buf_append(&x->ps, x->hs.data, x->hs.len);
      break;
    case 'G':
      buf_putc(&x->ps, x->delim);
      buf_append(&x->ps, x->hs.data, x->hs.len);
      break;
    case 'h':
      buf_clear(&x->hs);
      buf_append(&x->hs, ps, x->ps.len);
      break;
    case 'H':
      buf_putc(&x->hs, x->delim);
      buf_append(&x->hs, ps, x->ps.len);
      break;
    case 'l':
      do_l(x, cm->num >= 0 ? cm->num : p->lwidth);
      break;
    case 'n':
      /* printed before looking for the next line (as GNU does), so it is
       * not held while a pipe has nothing more yet; at the end there is
       * then nothing left to print */
      if (!p->quiet)
        emit(x, ps, x->ps.len, x->ps_nl);
      if (!has_next(x)) {
        x->quit = 1;
        return CY_DELETE;
      }
      next_line(x);
      break;
    case 'N':
      if (!has_next(x)) {
        x->quit = 1;
        return p->posix ? CY_DELETE : CY_END;
      }
      {
        flush_append(x);
        buf_putc(&x->ps, x->delim);
        buf_append(&x->ps, x->next.data, x->next.len);
        x->ps_nl = x->next_nl;
        x->ps_name = x->next_name;
        x->have_next = -1;
        x->lineno++;
      }
      break;
    case 'p':
      emit(x, ps, x->ps.len, x->ps_nl);
      break;
    case 'P': {
      const char *nl = memchr(ps, x->delim, x->ps.len);
      emit(x, ps, nl ? (size_t)(nl - ps) : x->ps.len, 1);
      break;
    }
    case 'q':
      x->quit = 1;
      x->status = (int)(cm->num >= 0 ? cm->num : x->status);
      return CY_END;
    case 'Q':
      x->quit = 1;
      x->status = (int)(cm->num >= 0 ? cm->num : x->status);
      return CY_DELETE;
    case 'r':
      queue(x, 1, cm->text, 0, cm->tlen);
      break;
    case 'R':
      read_R(x, cm->rf);
      break;
    case 's':
      if (do_subst(x, cm)) {
        x->tflag = 1;
        if (cm->pflag)
          emit(x, x->ps.data, x->ps.len, x->ps_nl);
        if (cm->wf)
          wfile_write(x, cm->wf, x->ps.data, x->ps.len, 1);
      }
      break;
    case 'w':
      wfile_write(x, cm->wf, ps, x->ps.len, 1);
      break;
    case 'W': {
      const char *nl = memchr(ps, x->delim, x->ps.len);
      wfile_write(x, cm->wf, ps, nl ? (size_t)(nl - ps) : x->ps.len, 1);
      break;
    }
    case 'x': {
      buf t = x->ps;
      x->ps = x->hs;
      x->hs = t;
      break;
    }
    case 'y':
      do_y(x, cm);
      break;
    case 'z':
      buf_clear(&x->ps);
      break;
    default:
      break;
    }
  }
  return CY_END;
}

/* All lines of one unit (every file, or one file with -s/-i). */
static void run_unit(sx *x) {
  x->have_next = -1;
  while (!x->quit && !x->fatal && next_line(x)) {
    x->tflag = 0;
    for (;;) {
      int how = run_cmds(x);
      if (x->fatal)
        return;
      /* D restarts without printing what is left */
      if (how == CY_END && !x->p->quiet)
        emit(x, x->ps.data ? x->ps.data : "", x->ps.len, x->ps_nl);
      flush_append(x);
      if (how != CY_RESTART || x->quit)
        break;
    }
  }
}

static const char *backup_name(sx *x, const char *path, const char *suffix) {
  buf b;
  buf_init(&b, x->c->m);
  if (!strchr(suffix, '*')) {
    buf_puts(&b, path);
    buf_puts(&b, suffix);
  } else {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash && !strchr(suffix, '/'))
      buf_append(&b, path, (size_t)(base - path));
    for (const char *s = suffix; *s; s++) {
      if (*s == '*')
        buf_puts(&b, base);
      else
        buf_putc(&b, *s);
    }
  }
  char *r = arena_alloc(x->c->scratch, b.len + 1);
  if (r)
    memcpy(r, buf_cstr(&b), b.len + 1);
  buf_free(&b);
  return r ? r : path;
}

/* -i: each file on its own, the output replacing it. */
static void run_inplace(sx *x, const char *suffix) {
  bi_ctx *c = x->c;
  for (int k = 0; k < x->nfiles && !x->quit && !x->fatal; k++) {
    const char *name = x->files[k];
    vfs_stat_t st;
    int rc =
        strcmp(name, "-") == 0 ? -EISDIR : vfs_stat(c->vfs, c->cwd, name, &st);
    if (rc == 0 && st.type != VFS_REG)
      rc = -EISDIR;
    if (rc < 0) {
      if (rc == -EISDIR)
        bi_error(c, "couldn't edit %s: not a regular file", name);
      else
        bi_error(c, "can't read %s: %s", name, bi_strerror(-rc));
      x->status = 4;
      if (rc != -EISDIR)
        x->status = 2;
      continue;
    }
    x->fi = k;
    if (open_next(x) <= 0)
      continue;
    buf content;
    buf_init(&content, c->m);
    stream *cap = stream_capture(c->m, c->bud, &content, NULL, NULL, 1, 0);
    writer *fw = mem_alloc(c->m, sizeof *fw);
    if (!cap || !fw) {
      if (cap)
        stream_unref(cap);
      mem_free(c->m, fw);
      buf_free(&content);
      x->fatal = 1;
      bi_error(c, "memory exhausted");
      return;
    }
    wr_init(fw, cap);
    x->out = fw;
    x->file_missing = 0;
    x->out_missing = &x->file_missing;
    x->lineno = 0;
    run_unit(x);
    close_in(x);
    wr_flush(fw);
    x->out = &x->mainw;
    x->out_missing = &x->main_missing;
    if (!x->fatal) {
      if (suffix && *suffix) {
        char *old;
        size_t ol;
        if (vfs_read_file(c->vfs, c->cwd, name, &old, &ol) == 0) {
          vfs_write_file(c->vfs, c->cwd, backup_name(x, name, suffix), old, ol,
                         st.mode);
          vfs_release(c->vfs, old);
        }
      }
      int wr =
          vfs_write_file(c->vfs, c->cwd, name, content.data ? content.data : "",
                         content.len, st.mode);
      if (wr < 0) {
        bi_error(c, "couldn't write %s: %s", name, bi_strerror(-wr));
        x->status = 4;
      }
    }
    stream_unref(cap);
    mem_free(c->m, fw);
    buf_free(&content);
  }
}

int sd_run(sd_prog *p, char **files, int nfiles, int inplace,
           const char *suffix) {
  bi_ctx *c = p->c;
  static char *dash[] = {"-", NULL};
  sx *x = mem_calloc(c->m, 1, sizeof *x);
  if (!x) {
    bi_error(c, "memory exhausted");
    return 4;
  }
  x->p = p;
  x->c = c;
  x->delim = p->zero ? 0 : '\n';
  wr_init(&x->mainw, c->out);
  x->out = &x->mainw;
  x->out_missing = &x->main_missing;
  buf_init(&x->ps, c->m);
  buf_init(&x->hs, c->m);
  buf_init(&x->next, c->m);
  buf_init(&x->sbuf, c->m);
  buf_init(&x->abuf, c->m);
  x->files = nfiles ? files : dash;
  x->nfiles = nfiles ? nfiles : 1;
  x->separate = p->separate || inplace;
  x->curname = x->next_name = x->ps_name = "-";
  if (inplace) {
    run_inplace(x, suffix);
  } else if (x->separate) {
    while (x->fi < x->nfiles && !x->quit && !x->fatal) {
      if (open_next(x) <= 0)
        continue;
      x->lineno = 0;
      run_unit(x);
      close_in(x);
    }
  } else {
    run_unit(x);
  }
  close_in(x);
  int st = x->fatal ? x->fatal : x->status;
  /* flushed after a stop too: what was printed before it is kept */
  if (wr_flush(&x->mainw) < 0 && !x->fatal)
    st = x->mainw.err == EPIPE ? 141 : 4;
  buf_free(&x->ps);
  buf_free(&x->hs);
  buf_free(&x->next);
  buf_free(&x->sbuf);
  buf_free(&x->abuf);
  mem_free(c->m, x->app);
  mem_free(c->m, x);
  return st;
}
