/*
 * cmp.c - GNU cmp (diffutils 3.8): compare two files byte by byte. Reports
 * the first difference ("A B differ: byte N, line M"), every difference
 * (-l), or nothing (-s); a file that ends first gives "EOF on X ...". Exit
 * status 0 same, 1 different, 2 trouble.
 *
 * Both inputs are read in chunks side by side, so a pipe and a file can be
 * compared without holding either whole.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_cmp[] =
    "Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]";
const char bi_help_cmp[] =
    "Compare FILE1 and FILE2 byte by byte and tell where they first differ.\n"
    "SKIP1 and SKIP2 are counts of bytes to leave out at the start of each\n"
    "file (none by default). A FILE that is - or not given is standard "
    "input.\n"
    "\n"
    "  -b, --print-bytes          show the differing bytes too\n"
    "  -i, --ignore-initial=SKIP  leave out the first SKIP bytes of both\n"
    "  -i, --ignore-initial=SKIP1:SKIP2  leave out SKIP1 bytes of FILE1 and\n"
    "                             SKIP2 bytes of FILE2\n"
    "  -l, --verbose              list the offset (from 1) and octal values\n"
    "                             of every differing byte\n"
    "  -n, --bytes=LIMIT          compare no more than LIMIT bytes\n"
    "  -s, --quiet, --silent      print nothing; only the status tells\n"
    "      --help                 print this summary and quit\n"
    "  -v, --version              print the version line and quit\n"
    "\n"
    "Counts may carry a multiplier: kB 1000, K 1024, MB 1000000, M 1048576,\n"
    "and so on with G, T, P and E.\n"
    "\n"
    "The exit status is 0 when the inputs are the same, 1 when they differ\n"
    "and 2 when something went wrong.\n";

enum { CMP_FIRST, CMP_ALL, CMP_STATUS };

typedef struct cmp_src {
  stream *s;
  const char *name;
  const unsigned char *view; /* whole file, or NULL: read chunks */
  size_t vlen;
  unsigned char *chunk;
  size_t pos, len; /* unread bytes are chunk/view [pos, len) */
  int eof, err;
} cmp_src;

/* Make bytes available: 1, 0 at the end, -1 on a read error. */
static int src_fill(cmp_src *s) {
  if (s->pos < s->len)
    return 1;
  if (s->view || s->eof)
    return 0;
  long k = stream_read(s->s, s->chunk, 16384);
  if (k < 0) {
    s->err = s->s->err;
    return -1;
  }
  if (k == 0) {
    s->eof = 1;
    return 0;
  }
  s->pos = 0;
  s->len = (size_t)k;
  return 1;
}

static const unsigned char *src_data(cmp_src *s) {
  return s->view ? s->view : s->chunk;
}

/* Leave out n bytes: 0, or -1 on a read error. */
static int src_skip(cmp_src *s, uint64_t n) {
  while (n) {
    int r = src_fill(s);
    if (r <= 0)
      return r;
    size_t k = s->len - s->pos;
    if (k > n)
      k = (size_t)n;
    s->pos += k;
    n -= k;
  }
  return 0;
}

/* How GNU cmp shows a byte with -b: ^X, M-x, M-^X. */
static void sprintc(char *out, unsigned char ch) {
  if (!(ch >= 0x20 && ch < 0x7f)) {
    if (ch >= 128) {
      *out++ = 'M';
      *out++ = '-';
      ch -= 128;
    }
    if (ch < 32) {
      *out++ = '^';
      ch += 64;
    } else if (ch == 127) {
      *out++ = '^';
      ch = '?';
    }
  }
  *out++ = (char)ch;
  *out = 0;
}

/* Whether messages are in a locale other than C/POSIX: there diffutils
 * says "byte" where POSIX's "char" stays in the C locale. */
static int hard_locale(bi_ctx *c) {
  static const char *const names[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = c->getenv ? c->getenv(c, names[i]) : NULL;
    if (v && *v)
      return strcmp(v, "C") && strcmp(v, "POSIX");
  }
  return 0;
}

static int bad_value(bi_ctx *c, const char *opt, const char *v) {
  bi_error(c, "invalid --%s value %s", opt, tu_quote(c, v));
  stream_printf(c->err, "%s: ", c->argv[0]);
  bi_try_help(c);
  return 2;
}

/* A skip count: SKIP, or SKIP1:SKIP2 when both is set. */
static int parse_skip(const char *v, uint64_t *a, uint64_t *b, int both) {
  const char *colon = both ? strchr(v, ':') : NULL;
  char tmp[64];
  if (colon) {
    size_t n = (size_t)(colon - v);
    if (n >= sizeof tmp)
      return -1;
    memcpy(tmp, v, n);
    tmp[n] = 0;
    if (tu_parse_count(tmp, a) == -1 || tu_parse_count(colon + 1, b) == -1)
      return -1;
    return 0;
  }
  if (tu_parse_count(v, a) == -1)
    return -1;
  if (both)
    *b = *a;
  return 0;
}

/* Option parsing with diffutils' "cmp: Try ..." line: bi_getopt's messages
 * are caught and given the prefix. */
static int cmp_getopt(bi_getopt *g, int *status) {
  bi_ctx *c = g->c;
  buf b;
  buf_init(&b, c->m);
  stream *cap = stream_capture(c->m, c->bud, &b, NULL, NULL, 2, 0);
  if (!cap) {
    *status = 2;
    return BI_OPT_STOP;
  }
  stream *err = c->err;
  c->err = cap;
  int o = bi_getopt_next(g);
  c->err = err;
  stream_capture_finish(cap);
  if (b.len) {
    const char *t = strstr(b.data, "Try '");
    if (t) {
      stream_write(err, b.data, (size_t)(t - b.data));
      stream_printf(err, "%s: %s", c->argv[0], t);
    } else {
      stream_write(err, b.data, b.len);
    }
  }
  buf_free(&b);
  if (o == '?') {
    *status = 2;
    return BI_OPT_STOP;
  }
  return o;
}

int bi_cmp(bi_ctx *c) {
  static const bi_opt opts[] = {{"print-bytes", 'b', BI_ARG_NONE},
                                {"ignore-initial", 'i', BI_ARG_REQUIRED},
                                {"verbose", 'l', BI_ARG_NONE},
                                {"bytes", 'n', BI_ARG_REQUIRED},
                                {"quiet", 's', BI_ARG_NONE},
                                {"silent", 's', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", 'v', BI_ARG_NONE},
                                {NULL, 0, 0}};
  int mode = CMP_FIRST, bytes = 0, o, status = 0;
  uint64_t skip[2] = {0, 0}, limit = UINT64_MAX;
  bi_getopt g;
  bi_getopt_init(&g, c, "bi:ln:sv", opts);
  while ((o = cmp_getopt(&g, &status)) != -1) {
    switch (o) {
    case BI_OPT_STOP:
      return status;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case 'v':
      return bi_print_version(c) ? 2 : 0;
    case 'b':
      bytes = 1;
      break;
    case 'l':
      mode = CMP_ALL;
      break;
    case 's':
      mode = CMP_STATUS;
      break;
    case 'i':
      if (parse_skip(g.arg, &skip[0], &skip[1], 1))
        return bad_value(c, "ignore-initial", g.arg);
      break;
    case 'n':
      if (tu_parse_count(g.arg, &limit) == -1)
        return bad_value(c, "bytes", g.arg);
      break;
    }
  }
  if (g.noperands == 0) {
    bi_error(c, "missing operand after %s", tu_quote(c, c->argv[0]));
    stream_printf(c->err, "%s: ", c->argv[0]);
    bi_try_help(c);
    return 2;
  }
  for (int k = 2; k < g.noperands && k < 4; k++)
    if (parse_skip(g.operands[k], &skip[k - 2], NULL, 0))
      return bad_value(c, "ignore-initial", g.operands[k]);
  if (g.noperands > 4) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[4]));
    stream_printf(c->err, "%s: ", c->argv[0]);
    bi_try_help(c);
    return 2;
  }
  cmp_src src[2];
  memset(src, 0, sizeof src);
  src[0].name = g.operands[0];
  src[1].name = g.noperands > 1 ? g.operands[1] : "-";
  for (int k = 0; k < 2; k++) {
    int err = 0;
    src[k].s = bi_open_read(c, src[k].name, &err);
    if (!src[k].s) {
      if (mode != CMP_STATUS)
        tu_file_error(c, src[k].name, err);
      status = 2;
      goto out;
    }
    const char *p;
    size_t n;
    if (stream_take_all(src[k].s, &p, &n) == 0) {
      src[k].view = (const unsigned char *)p;
      src[k].len = src[k].vlen = n;
    } else if (src[k].s->err == ECANCELED) {
      status = 2;
      goto out;
    } else {
      src[k].chunk = mem_alloc(c->m, 16384);
      if (!src[k].chunk) {
        bi_error(c, "%s", bi_strerror(ENOMEM));
        status = 2;
        goto out;
      }
    }
  }
  writer w;
  wr_init(&w, c->out);
  int width = 19;
  if (mode == CMP_ALL) {
    uint64_t max = limit;
    for (int k = 0; k < 2; k++)
      if (src[k].view) {
        uint64_t left = src[k].vlen > skip[k] ? src[k].vlen - skip[k] : 0;
        if (left < max)
          max = left;
      }
    if (max > (uint64_t)INT64_MAX)
      max = (uint64_t)INT64_MAX;
    for (width = 1; (max /= 10) != 0; width++)
      ;
  }
  for (int k = 0; k < 2; k++)
    if (src_skip(&src[k], skip[k]) < 0) {
      if (src[k].err != ECANCELED)
        tu_file_error(c, src[k].name, src[k].err);
      status = 2;
      goto done;
    }
  uint64_t off = 0, lines = 0;
  int last_nl = 0, ended = -1;
  while (off < limit) {
    int r0 = src_fill(&src[0]), r1 = src_fill(&src[1]);
    if (r0 < 0 || r1 < 0) {
      cmp_src *s = &src[r0 < 0 ? 0 : 1];
      if (s->err != ECANCELED)
        tu_file_error(c, s->name, s->err);
      status = 2;
      goto done;
    }
    if (!r0 || !r1) {
      if (r0 || r1)
        ended = r0 ? 1 : 0;
      break;
    }
    if (budget_poll(c->bud)) {
      status = 2;
      goto done;
    }
    const unsigned char *a = src_data(&src[0]) + src[0].pos;
    const unsigned char *b = src_data(&src[1]) + src[1].pos;
    size_t n = src[0].len - src[0].pos;
    if (src[1].len - src[1].pos < n)
      n = src[1].len - src[1].pos;
    if (limit - off < n)
      n = (size_t)(limit - off);
    for (size_t i = 0; i < n; i++) {
      if (a[i] != b[i]) {
        status = 1;
        if (mode == CMP_STATUS)
          goto done;
        if (mode == CMP_FIRST) {
          wr_printf(&w, "%s %s differ: %s %llu, line %llu", src[0].name,
                    src[1].name, bytes || hard_locale(c) ? "byte" : "char",
                    (unsigned long long)(off + i + 1),
                    (unsigned long long)(lines + 1));
          if (bytes) {
            char x[8], y[8];
            sprintc(x, a[i]);
            sprintc(y, b[i]);
            wr_printf(&w, " is %3o %s %3o %s", a[i], x, b[i], y);
          }
          wr_putc(&w, '\n');
          goto done;
        }
        if (bytes) {
          char x[8], y[8];
          sprintc(x, a[i]);
          sprintc(y, b[i]);
          wr_printf(&w, "%*llu %3o %-4s %3o %s\n", width,
                    (unsigned long long)(off + i + 1), a[i], x, b[i], y);
        } else {
          wr_printf(&w, "%*llu %3o %3o\n", width,
                    (unsigned long long)(off + i + 1), a[i], b[i]);
        }
        if (w.err)
          goto done;
      }
      if (a[i] == '\n')
        lines++;
    }
    if (n)
      last_nl = a[n - 1] == '\n';
    off += n;
    src[0].pos += n;
    src[1].pos += n;
  }
  if (ended >= 0) {
    status = 1;
    if (mode != CMP_STATUS) {
      wr_flush(&w);
      const char *nm = src[ended].name;
      if (off == 0)
        bi_error(c, "EOF on %s which is empty", nm);
      else if (mode == CMP_ALL)
        bi_error(c, "EOF on %s after byte %llu", nm, (unsigned long long)off);
      else if (last_nl)
        bi_error(c, "EOF on %s after byte %llu, line %llu", nm,
                 (unsigned long long)off, (unsigned long long)lines);
      else
        bi_error(c, "EOF on %s after byte %llu, in line %llu", nm,
                 (unsigned long long)off, (unsigned long long)lines + 1);
    }
  }
done:
  if (wr_flush(&w) && status < 2)
    status = 2;
out:
  for (int k = 0; k < 2; k++) {
    if (src[k].s)
      stream_unref(src[k].s);
    mem_free(c->m, src[k].chunk);
  }
  return status;
}
