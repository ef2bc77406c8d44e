/* input.c - records: by RS (one character, "" for paragraphs, or a
 * regular expression, which needs input read ahead of the record), with RT
 * set when the program uses it. */
#include <errno.h>
#include <string.h>

#include "builtins/data/awk/awk.h"

static astr *gstr(awk *A, int slot) {
  return av_tostr(A, &A->globals[slot].v, 0);
}

/* ---- input -------------------------------------------------------------- */

static void set_rt(awk *A, const char *p, size_t n) {
  if (!A->uses_rt)
    return;
  cell *c = &A->globals[SV_RT];
  if (c->kind == C_ARRAY)
    return;
  av_free(A, &c->v);
  c->v = av_str(A, p, n);
  c->kind = C_SCALAR;
}

/* A record from the taken input sb: ending at a match of re (a regex RS),
 * at the byte delim (re NULL), the rest at the end. */
static int sb_record(awk *A, reader *r, arsb *sb, are *re, int delim,
                     const char **p, size_t *n) {
  for (;;) {
    const char *d = sb->b.data ? sb->b.data + sb->off : "";
    size_t left = sb->b.len - sb->off, ms = 0, me = 0;
    int rc = 0;
    if (left && re) {
      rc = rx_search(&re->rx, d, left, 0, PCRE2_NOTEMPTY, RX_EXTENT, &ms, &me);
      if (rc < 0) {
        char msg[128];
        if (rc == RX_STOPPED)
          A->stop = 1;
        else
          awk_fatal(A, "regular expression match failed: %s",
                    rx_strerror(rc, msg, sizeof msg));
        return -1;
      }
    } else if (left) {
      const char *e = memchr(d, delim, left);
      if (e) {
        rc = 1;
        ms = (size_t)(e - d);
        me = ms + 1;
      }
    }
    /* a match that reaches the end of what was read may go on */
    if (rc == 1 && (me < left || sb->eof || !re)) {
      *p = d;
      *n = ms;
      set_rt(A, d + ms, me - ms);
      sb->off += me;
      return 1;
    }
    if (sb->eof) {
      if (!left)
        return 0;
      *p = d;
      *n = left;
      set_rt(A, "", 0);
      sb->off += left;
      return 1;
    }
    if (sb->off) {
      memmove(sb->b.data, sb->b.data + sb->off, left);
      sb->b.len = left;
      sb->off = 0;
    }
    size_t want = left < 65536 ? 65536 : left; /* doubling: linear scans */
    if (buf_reserve(&sb->b, want) < 0) {
      awk_fatal(A, "out of memory");
      return -1;
    }
    long got = rd_read(r, sb->b.data + sb->b.len, want);
    if (got < 0) {
      if (r->err == ECANCELED)
        A->stop = 1;
      return -1;
    }
    if (got == 0)
      sb->eof = 1;
    sb->b.len += (size_t)got;
    if (A->c->bud && budget_poll(A->c->bud)) {
      A->stop = 1;
      return -1;
    }
  }
}

/* One record from r by RS: 1 with p/n valid until the next call. */
int awk_read_rec(awk *A, reader *r, arsb *sb, const char **p, size_t *n) {
  astr *rs = gstr(A, SV_RS);
  const char *line;
  size_t len;
  if (rs->len > 1 || (sb->on && rs->len == 1)) {
    if (!sb->on) {
      buf_init(&sb->b, A->m);
      sb->on = 1;
      sb->off = 0;
      sb->eof = 0;
    }
    are *re = rs->len > 1 ? re_compile(A, rs->p, rs->len) : NULL;
    if (rs->len > 1 && !re)
      return -1;
    return sb_record(A, r, sb, re, (unsigned char)rs->p[0], p, n);
  }
  if (rs->len == 0 && sb->on) { /* paragraphs after a regex RS */
    while (sb->off < sb->b.len && sb->b.data[sb->off] == '\n')
      sb->off++;
    are *re = re_compile(A, "\n\n+", 3);
    if (!re)
      return -1;
    int rc = sb_record(A, r, sb, re, 0, p, n);
    if (rc == 1 && *n && (*p)[*n - 1] == '\n')
      (*n)--;
    return rc;
  }
  if (rs->len == 0) { /* paragraph mode */
    buf_clear(&A->para);
    int rc;
    while ((rc = rd_record(r, '\n', &line, &len)) == 1 &&
           (len == 0 || (len == 1 && line[0] == '\n')))
      if (A->c->bud && budget_poll(A->c->bud)) {
        A->stop = 1;
        return -1;
      }
    if (rc <= 0)
      return rc < 0 ? -1 : 0;
    int blank = 0;
    for (;;) {
      if (len && line[len - 1] == '\n')
        len--;
      if (A->para.len)
        buf_putc(&A->para, '\n');
      buf_append(&A->para, line, len);
      rc = rd_record(r, '\n', &line, &len);
      if (rc <= 0 || len == 0 || (len == 1 && line[0] == '\n')) {
        blank = rc > 0;
        break;
      }
      if (A->c->bud && budget_poll(A->c->bud)) {
        A->stop = 1;
        return -1;
      }
    }
    set_rt(A, "\n\n", blank ? 2 : 1);
    *p = A->para.data ? A->para.data : "";
    *n = A->para.len;
    return 1;
  }
  int delim = (unsigned char)rs->p[0];
  int rc = rd_record(r, delim, &line, &len);
  if (rc <= 0) {
    if (rc < 0 && r->err == ECANCELED)
      A->stop = 1;
    return rc;
  }
  if (len && (unsigned char)line[len - 1] == delim) {
    len--;
    set_rt(A, line + len, 1);
  } else {
    set_rt(A, "", 0);
  }
  *p = line;
  *n = len;
  return 1;
}

int awk_valid_assign(const char *s) {
  if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
    return 0;
  while (*s && *s != '=') {
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9')))
      return 0;
    s++;
  }
  return *s == '=';
}
