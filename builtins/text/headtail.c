/* headtail.c - the parts head and tail share (see headtail.h). */
#include "builtins/text/headtail.h"

#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char *ht_count_arg(ht_opt *o, int ch, const char *arg) {
  o->bytes = ch == 'c';
  o->sign = 0;
  while (*arg == ' ' || *arg == '\t')
    arg++;
  if (*arg == '+') {
    o->sign = '+';
  } else if (*arg == '-') {
    o->sign = '-';
    arg++;
  }
  return arg;
}

int ht_bad_count(bi_ctx *c, const ht_opt *o, const char *text,
                 const char *reason) {
  bi_error(c, "invalid number of %s: %s%s", o->bytes ? "bytes" : "lines",
           tu_quote(c, text), reason ? reason : "");
  return 1;
}

int ht_flag(ht_opt *o, int ch) {
  switch (ch) {
  case 'q':
    o->quiet = 1;
    o->verbose = 0;
    return 1;
  case 'v':
    o->verbose = 1;
    o->quiet = 0;
    return 1;
  case 'z':
    o->delim = 0;
    return 1;
  default:
    return 0;
  }
}

size_t ht_last_lines(const char *d, size_t len, uint64_t n, int delim) {
  if (n == 0)
    return len;
  size_t e = len;
  if (e && d[e - 1] == delim)
    e--;
  while (e > 0) {
    const char *p = memrchr(d, delim, e);
    if (!p)
      return 0;
    if (--n == 0)
      return (size_t)(p - d) + 1;
    e = (size_t)(p - d);
  }
  return 0;
}

int ht_copy(bi_ctx *c, stream *in, const ht_opt *o, uint64_t skip,
            uint64_t count, writer *w, int *rerr) {
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, w);
  int rc = 0;
  uint64_t left = count;
  if (o->bytes) {
    char tmp[8192];
    while (left) {
      /* Past the skipped part, read no more than is copied: what stays in
       * a shared stdin belongs to the next command. */
      size_t want = sizeof tmp;
      if (!skip && left < want)
        want = (size_t)left;
      long k = rd_read(&r, tmp, want);
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (k == 0)
        break;
      size_t s = skip < (uint64_t)k ? (size_t)skip : (size_t)k;
      skip -= s;
      if (wr_write(w, tmp + s, (size_t)k - s)) {
        rc = -1;
        break;
      }
      left -= (uint64_t)k - s;
    }
  } else {
    const char *line;
    size_t len;
    int k;
    while (left && (k = rd_record(&r, o->delim, &line, &len)) != 0) {
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (skip) {
        skip--;
        continue;
      }
      if (wr_write(w, line, len)) {
        rc = -1;
        break;
      }
      left--;
    }
  }
  rd_free(&r);
  return rc;
}

int ht_window(stream *in, const ht_opt *o, uint64_t keep, writer *spill, buf *b,
              size_t *start, uint64_t *nl, int *rerr) {
  *nl = 0; /* delimiters in b[*start..len) */
  for (;;) {
    if (*start > 65536 && *start > b->len / 2) {
      memmove(b->data, b->data + *start, b->len - *start);
      b->len -= *start;
      *start = 0;
    }
    if (buf_reserve(b, 65536)) {
      *rerr = ENOMEM;
      return 1;
    }
    long k = wr_flush_read(spill, in, b->data + b->len, 65536);
    if (k < 0) {
      *rerr = in->err;
      return 1;
    }
    if (k == 0)
      return 0;
    const char *chunk = b->data + b->len;
    b->len += (size_t)k;
    if (o->bytes) {
      if (b->len - *start > keep) {
        size_t out = b->len - *start - (size_t)keep;
        if (spill && wr_write(spill, b->data + *start, out))
          return -1;
        *start += out;
      }
      continue;
    }
    for (const char *q = chunk;
         (q = memchr(q, o->delim, (size_t)(b->data + b->len - q))); q++)
      (*nl)++;
    while (*nl > keep) {
      const char *e = memchr(b->data + *start, o->delim, b->len - *start);
      size_t l = (size_t)(e - (b->data + *start)) + 1;
      if (spill && wr_write(spill, b->data + *start, l))
        return -1;
      *start += l;
      (*nl)--;
    }
  }
}

int ht_files(bi_ctx *c, char **names, int n, const ht_opt *o, ht_file_fn fn) {
  static char *dash[] = {"-", NULL};
  char **files = n ? names : dash;
  int nfiles = n ? n : 1;
  int headers = o->verbose || (nfiles > 1 && !o->quiet);
  writer w;
  wr_init(&w, c->out);
  int status = 0, first = 1;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    int err = 0;
    stream *in = bi_open_read(c, name, &err);
    if (!in && err != EISDIR) {
      bi_error(c, "cannot open %s for reading: %s", fu_quote(c, name),
               bi_strerror(err));
      status = 1;
      continue;
    }
    if (headers) {
      wr_printf(&w, "%s==> %s <==\n", first ? "" : "\n",
                strcmp(name, "-") ? name : "standard input");
      first = 0;
    }
    if (!in) { /* GNU opens a directory and fails reading it */
      bi_error(c, "error reading %s: %s", fu_quote(c, name), bi_strerror(err));
      status = 1;
      continue;
    }
    int rerr = 0;
    int r = fn(c, in, o, &w, &rerr);
    stream_unref(in);
    if (r < 0 || w.err)
      return bi_stream_status(w.err);
    if (r > 0) {
      if (rerr == ECANCELED)
        return 1;
      bi_error(c, "error reading %s: %s", fu_quote(c, name), bi_strerror(rerr));
      status = 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}

void ht_rewrite_argv(bi_ctx *c, char *opt, const char *flag1,
                     const char *flag2) {
  char **nv = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 4));
  if (!nv)
    return;
  int n = 0;
  nv[n++] = c->argv[0];
  nv[n++] = opt;
  if (flag1)
    nv[n++] = (char *)flag1;
  if (flag2)
    nv[n++] = (char *)flag2;
  for (int i = 2; i < c->argc; i++)
    nv[n++] = c->argv[i];
  nv[n] = NULL;
  c->argc = n;
  c->argv = nv;
}
