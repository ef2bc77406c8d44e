/* codec.c - the front end base64 and base32 share (codec.h). */
#include "builtins/codec.h"

#include <errno.h>
#include <stdlib.h>

void tu_enc_put(writer *w, tu_enc *e, const char *q, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (e->wrap && e->col == e->wrap) {
      wr_putc(w, '\n');
      e->col = 0;
    }
    wr_putc(w, q[i]);
    e->col++;
  }
}

/* -d, -i, -w COLS and at most one FILE; -1 to go on, else the status. */
static int parse(bi_ctx *c, int *dec, int *ignore, size_t *wrap,
                 const char **file) {
  static const bi_opt opts[] = {{"decode", 'd', BI_ARG_NONE},
                                {"ignore-garbage", 'i', BI_ARG_NONE},
                                {"wrap", 'w', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "diw:", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'd':
      *dec = 1;
      break;
    case 'i':
      *ignore = 1;
      break;
    case 'w': {
      char *e;
      errno = 0;
      long long v = strtoll(g.arg, &e, 10);
      if (!*g.arg || *e || errno || v < 0) {
        bi_error(c, "invalid wrap size: %s", tu_quote(c, g.arg));
        return 1;
      }
      *wrap = (size_t)v;
      break;
    }
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands > 1)
    return tu_extra_operand(c, g.operands[1]);
  *file = g.noperands ? g.operands[0] : "-";
  return -1;
}

int tu_codec_main(bi_ctx *c, const tu_codec *k) {
  int dec = 0, ignore = 0;
  size_t wrap = 76;
  const char *file = "-";
  int rc = parse(c, &dec, &ignore, &wrap, &file);
  if (rc >= 0)
    return rc;
  int err;
  stream *in = bi_open_read(c, file, &err);
  if (!in) {
    tu_file_error(c, file, err);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  if (dec) {
    /* decoding needs the whole input: an error names where it stopped */
    const char *d;
    size_t n;
    buf copy;
    buf_init(&copy, c->m);
    if (tu_slurp(c, in, &d, &n, &copy, &err)) {
      if (err != ECANCELED)
        tu_file_error(c, file, err);
      status = 1;
    } else if ((rc = k->decode(c, &w, d, n, ignore)) == -2) {
      status = 1;
    } else if (rc) {
      wr_flush(&w);
      bi_error(c, "invalid input");
      status = 1;
    }
    buf_free(&copy);
  } else {
    tu_enc e = {{0}, 0, 0, wrap};
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    unsigned char tmp[12288];
    size_t chunk = k->chunk < sizeof tmp ? k->chunk : sizeof tmp;
    long got;
    while ((got = rd_read(&r, tmp, chunk)) > 0 && !w.err)
      k->encode(&w, &e, tmp, (size_t)got);
    if (got < 0) {
      if (r.err != ECANCELED)
        tu_file_error(c, file, r.err);
      status = 1;
    } else {
      k->encode_end(&w, &e);
    }
    rd_free(&r);
  }
  stream_unref(in);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
