/*
 * comm.c - GNU comm: compare two sorted files line by line.
 *
 * Lines are compared bytewise (the sandbox runs in the C collation). Order
 * checking follows GNU: by default each file's first disorder is reported
 * and the status becomes 1 at the end; --check-order stops there;
 * --nocheck-order does not look.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_comm[] = "Usage: comm [OPTION]... FILE1 FILE2";
const char bi_help_comm[] =
    "Read two sorted files, FILE1 and FILE2, and sort their lines into three\n"
    "groups.\n"
    "\n"
    "Either FILE1 or FILE2 may be - for standard input, but not both.\n"
    "\n"
    "The output has three columns: lines found only in FILE1, lines found "
    "only\n"
    "in FILE2, and lines found in both.\n"
    "\n"
    "  -1                      leave out column 1 (only in FILE1)\n"
    "  -2                      leave out column 2 (only in FILE2)\n"
    "  -3                      leave out column 3 (in both files)\n"
    "\n"
    "      --check-order       fail on unsorted input, even when every line\n"
    "                            has a partner\n"
    "      --nocheck-order     skip the sort order check\n"
    "      --output-delimiter=STR  put STR between columns\n"
    "      --total             end with a line of per-column counts\n"
    "  -z, --zero-terminated   records end with a NUL byte instead of a "
    "newline\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n";

typedef struct side {
  reader r;
  buf cur, prev;
  int has, has_prev, eof, bad;
} side;

/* Next line without its delimiter into s->cur: 1, 0 at end, -1 error. */
static int next_line(side *s, int delim) {
  const char *l;
  size_t n;
  if (s->has) {
    buf_clear(&s->prev);
    buf_append(&s->prev, s->cur.data, s->cur.len);
    s->has_prev = 1;
  }
  int k = rd_record(&s->r, delim, &l, &n);
  if (k <= 0) {
    s->has = 0;
    s->eof = 1;
    return k;
  }
  if (n && l[n - 1] == delim)
    n--;
  buf_clear(&s->cur);
  if (buf_append(&s->cur, l, n) || s->prev.oom) {
    s->r.err = ENOMEM;
    return -1;
  }
  s->has = 1;
  return 1;
}

static int cmp(const buf *a, const buf *b) {
  size_t n = a->len < b->len ? a->len : b->len;
  int r = memcmp(a->data, b->data, n);
  if (r)
    return r;
  return a->len < b->len ? -1 : a->len > b->len;
}

int bi_comm(bi_ctx *c) {
  static const bi_opt opts[] = {{"check-order", 0x100, BI_ARG_NONE},
                                {"nocheck-order", 0x101, BI_ARG_NONE},
                                {"output-delimiter", 0x102, BI_ARG_REQUIRED},
                                {"total", 0x103, BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  int show[4] = {0, 1, 1, 1}, check = 0, total = 0, delim = '\n', ch;
  const char *odelim = "\t";
  bi_getopt g;
  bi_getopt_init(&g, c, "123z", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case '1':
    case '2':
    case '3':
      show[ch - '0'] = 0;
      break;
    case 'z':
      delim = 0;
      break;
    case 0x100:
      check = 1;
      break;
    case 0x101:
      check = -1;
      break;
    case 0x102:
      /* GNU: an empty delimiter means a NUL byte between columns. */
      odelim = g.arg;
      break;
    case 0x103:
      total = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands < 2) {
    if (g.noperands == 0)
      bi_error(c, "missing operand");
    else
      bi_error(c, "missing operand after %s", tu_quote(c, g.operands[0]));
    bi_try_help(c);
    return 1;
  }
  if (g.noperands > 2)
    return tu_extra_operand(c, g.operands[2]);
  stream *in[2];
  for (int i = 0; i < 2; i++) {
    int err;
    in[i] = bi_open_read(c, g.operands[i], &err);
    if (!in[i]) {
      tu_file_error(c, g.operands[i], err);
      if (i)
        stream_unref(in[0]);
      return 1;
    }
  }
  side s[2];
  for (int i = 0; i < 2; i++) {
    memset(&s[i], 0, sizeof s[i]);
    rd_init(&s[i].r, c->m, in[i]);
    buf_init(&s[i].cur, c->m);
    buf_init(&s[i].prev, c->m);
  }
  size_t dl = *odelim ? strlen(odelim) : 1;
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < 2; i++)
    rd_flush_to(&s[i].r, &w);
  int status = 0, disorder = 0, fatal = 0;
  uint64_t counts[4] = {0, 0, 0, 0};
  int rerr = 0;
  for (int i = 0; i < 2; i++)
    if (next_line(&s[i], delim) < 0)
      rerr = s[i].r.err;
  while (!rerr && !fatal && (s[0].has || s[1].has) && !w.err) {
    int col, r;
    if (!s[0].has)
      r = 1;
    else if (!s[1].has)
      r = -1;
    else
      r = cmp(&s[0].cur, &s[1].cur);
    col = r < 0 ? 1 : r > 0 ? 2 : 3;
    counts[col]++;
    if (show[col]) {
      const buf *line = col == 2 ? &s[1].cur : &s[0].cur;
      for (int k = 1; k < col; k++)
        if (show[k])
          wr_write(&w, odelim, dl);
      wr_write(&w, line->data, line->len);
      wr_putc(&w, delim);
    }
    for (int i = 0; i < 2; i++) {
      if (!((col == 3) || (col == i + 1)))
        continue;
      if (next_line(&s[i], delim) < 0) {
        rerr = s[i].r.err;
        break;
      }
      /* Order: each new line must not sort before the previous one. */
      if (check >= 0 && s[i].has && s[i].has_prev && !s[i].bad &&
          cmp(&s[i].prev, &s[i].cur) > 0) {
        s[i].bad = 1;
        wr_flush(&w);
        bi_error(c, "file %d is not in sorted order", i + 1);
        disorder = 1;
        if (check > 0)
          fatal = 1;
      }
    }
  }
  if (rerr && rerr != ECANCELED)
    bi_error(c, "%s", bi_strerror(rerr));
  if (rerr)
    status = 1;
  if (total && !rerr && !fatal) {
    wr_printf(&w, "%llu", (unsigned long long)counts[1]);
    wr_write(&w, odelim, dl);
    wr_printf(&w, "%llu", (unsigned long long)counts[2]);
    wr_write(&w, odelim, dl);
    wr_printf(&w, "%llu", (unsigned long long)counts[3]);
    wr_write(&w, odelim, dl);
    wr_printf(&w, "total%c", delim);
  }
  for (int i = 0; i < 2; i++) {
    rd_free(&s[i].r);
    buf_free(&s[i].cur);
    buf_free(&s[i].prev);
    stream_unref(in[i]);
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (disorder) {
    if (!fatal)
      bi_error(c, "input is not in sorted order");
    status = 1;
  }
  return status;
}
