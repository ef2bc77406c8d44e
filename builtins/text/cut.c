/*
 * cut.c - GNU cut. Positions are bytes (-c is -b, as in GNU coreutils
 * without the i18n patch); fields split on a single delimiter byte.
 * Overlapping ranges merge; with --output-delimiter each separate range
 * is set apart, like GNU.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_cut[] = "Usage: cut OPTION... [FILE]...";
const char bi_help_cut[] =
    "Pick out parts of each line of every FILE and print them to standard\n"
    "output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -b, --bytes=LIST        keep the bytes at the positions in LIST\n"
    "  -c, --characters=LIST   keep the characters at the positions in LIST\n"
    "  -d, --delimiter=DELIM   fields are separated by DELIM (default: TAB)\n"
    "  -f, --fields=LIST       keep the fields numbered in LIST; a line with "
    "no\n"
    "                            delimiter at all is printed whole unless -s "
    "is\n"
    "                            given\n"
    "  -n                      accepted and ignored\n"
    "      --complement        keep everything except what LIST selects\n"
    "  -s, --only-delimited    drop lines that contain no delimiter\n"
    "      --output-delimiter=STRING  join the kept fields with STRING; "
    "without\n"
    "                            it the input delimiter is used\n"
    "  -z, --zero-terminated   records end with a NUL byte instead of a "
    "newline\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n"
    "\n"
    "Exactly one of -b, -c and -f must be given. A LIST is a single range or\n"
    "several ranges joined by commas. Whatever the order of the ranges, the\n"
    "selected pieces come out in input order, and none is printed twice.\n"
    "A range has one of these forms:\n"
    "\n"
    "  N     piece number N (the first piece is 1)\n"
    "  N-    piece N through the end of the line\n"
    "  N-M   pieces N through M, both included\n"
    "  -M    the first piece through piece M, included\n";

typedef struct range {
  size_t lo, hi; /* 1-based, inclusive; hi SIZE_MAX: to the end */
} range;

static int rcmp(const void *a, const void *b) {
  const range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int parse_num(const char **p, size_t *v) {
  if (!isdigit((unsigned char)**p))
    return 0;
  size_t n = 0;
  while (isdigit((unsigned char)**p)) {
    size_t d = (size_t)(*(*p)++ - '0');
    n = n > (SIZE_MAX - d) / 10 ? SIZE_MAX : n * 10 + d;
  }
  *v = n;
  return 1;
}

/* Parse LIST into sorted, overlap-merged ranges (scratch memory). */
static range *parse_list(bi_ctx *c, const char *list, int fields, size_t *nr) {
  size_t cap = 1;
  for (const char *q = list; *q; q++)
    cap += *q == ',';
  range *r = arena_alloc(c->scratch, sizeof(range) * (cap + 1));
  if (!r)
    return NULL;
  size_t n = 0;
  const char *p = list;
  for (;;) {
    size_t lo = 1, hi;
    int has_lo = parse_num(&p, &lo);
    int ranged = *p == '-';
    const char *why = NULL;
    int has_hi = 0;
    if (ranged) {
      p++;
      has_hi = parse_num(&p, &hi);
      if (!has_hi)
        hi = SIZE_MAX;
    } else {
      hi = has_lo ? lo : 0;
    }
    /* GNU reads the list a character at a time: a second '-' or a stray
     * character is the first complaint (quoting the list from there) */
    if (*p == '-')
      why = fields ? "invalid field range" : "invalid byte or character range";
    else if (*p != ',' && *p != 0 && *p != ' ' && *p != '\t') {
      bi_error(c, "invalid %s %s",
               fields ? "field value" : "byte/character position",
               tu_quote(c, p));
      bi_try_help(c);
      return NULL;
    } else if (ranged && !has_lo && !has_hi)
      why = "invalid range with no endpoint: -";
    else if ((has_lo && lo == 0) || hi == 0)
      why = fields ? "fields are numbered from 1"
                   : "byte/character positions are numbered from 1";
    else if (ranged && hi < lo)
      why = "invalid decreasing range";
    if (why) {
      bi_error(c, "%s", why);
      bi_try_help(c);
      return NULL;
    }
    r[n].lo = lo;
    r[n].hi = hi;
    n++;
    if (!*p)
      break;
    p++;
  }
  qsort(r, n, sizeof *r, rcmp);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && r[i].lo <= r[m - 1].hi) { /* overlapping: merge */
      if (r[i].hi > r[m - 1].hi)
        r[m - 1].hi = r[i].hi;
    } else {
      r[m++] = r[i];
    }
  }
  *nr = m;
  return r;
}

/* The complement of sorted disjoint ranges. */
static range *complement(bi_ctx *c, const range *r, size_t n, size_t *nr) {
  range *o = arena_alloc(c->scratch, sizeof(range) * (n + 1));
  if (!o)
    return NULL;
  size_t m = 0, next = 1;
  for (size_t i = 0; i < n; i++) {
    if (r[i].lo > next) {
      o[m].lo = next;
      o[m++].hi = r[i].lo - 1;
    }
    if (r[i].hi == SIZE_MAX) {
      next = SIZE_MAX;
      break;
    }
    next = r[i].hi + 1;
  }
  if (next != SIZE_MAX) {
    o[m].lo = next;
    o[m++].hi = SIZE_MAX;
  }
  *nr = m;
  return o;
}

typedef struct cutopt {
  range *r;
  size_t nr;
  int fields, only_delim, delim, eol;
  const char *odelim;
  size_t odlen;
} cutopt;

static void cut_bytes(const cutopt *o, const char *p, size_t len, writer *w) {
  int any = 0;
  for (size_t i = 0; i < o->nr && o->r[i].lo <= len; i++) {
    size_t lo = o->r[i].lo - 1;
    size_t hi = o->r[i].hi < len ? o->r[i].hi : len;
    if (any && o->odelim)
      wr_write(w, o->odelim, o->odlen);
    wr_write(w, p + lo, hi - lo);
    any = 1;
  }
  wr_putc(w, o->eol);
}

static void cut_fields(const cutopt *o, const char *p, size_t len, writer *w) {
  const char *e = p + len;
  if (!memchr(p, o->delim, len)) {
    if (!o->only_delim) {
      wr_write(w, p, len);
      wr_putc(w, o->eol);
    }
    return;
  }
  size_t f = 1, ri = 0;
  int any = 0;
  char dch = (char)o->delim;
  const char *od = o->odelim ? o->odelim : &dch;
  size_t odl = o->odelim ? o->odlen : 1;
  while (p <= e && ri < o->nr) {
    const char *q = memchr(p, o->delim, (size_t)(e - p));
    const char *fe = q ? q : e;
    while (ri < o->nr && o->r[ri].hi < f)
      ri++;
    if (ri < o->nr && o->r[ri].lo <= f) {
      if (any)
        wr_write(w, od, odl);
      wr_write(w, p, (size_t)(fe - p));
      any = 1;
    }
    if (!q)
      break;
    p = q + 1;
    f++;
  }
  wr_putc(w, o->eol);
}

int bi_cut(bi_ctx *c) {
  enum { O_COMPLEMENT = 0x100, O_ODELIM };
  static const bi_opt opts[] = {{"bytes", 'b', BI_ARG_REQUIRED},
                                {"characters", 'c', BI_ARG_REQUIRED},
                                {"delimiter", 'd', BI_ARG_REQUIRED},
                                {"fields", 'f', BI_ARG_REQUIRED},
                                {"complement", O_COMPLEMENT, BI_ARG_NONE},
                                {"only-delimited", 's', BI_ARG_NONE},
                                {"output-delimiter", O_ODELIM, BI_ARG_REQUIRED},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  cutopt o;
  memset(&o, 0, sizeof o);
  o.delim = '\t';
  o.eol = '\n';
  const char *list = NULL;
  int mode = 0, comp = 0, have_delim = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "b:c:d:f:nsz", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'b':
    case 'c':
    case 'f':
      if (mode) {
        bi_error(c, "only one list may be specified");
        bi_try_help(c);
        return 1;
      }
      mode = ch;
      list = g.arg;
      break;
    case 'd':
      if (g.arg[0] && g.arg[1]) {
        bi_error(c, "the delimiter must be a single character");
        bi_try_help(c);
        return 1;
      }
      o.delim = (unsigned char)g.arg[0];
      have_delim = 1;
      break;
    case 'n':
      break;
    case 's':
      o.only_delim = 1;
      break;
    case 'z':
      o.eol = 0;
      break;
    case O_COMPLEMENT:
      comp = 1;
      break;
    case O_ODELIM:
      o.odelim = g.arg;
      o.odlen = strlen(g.arg);
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (!mode) {
    bi_error(c, "you must specify a list of bytes, characters, or fields");
    bi_try_help(c);
    return 1;
  }
  o.fields = mode == 'f';
  if (!o.fields && have_delim) {
    bi_error(c, "an input delimiter may be specified only when operating "
                "on fields");
    bi_try_help(c);
    return 1;
  }
  if (!o.fields && o.only_delim) {
    bi_error(c, "suppressing non-delimited lines makes sense\n"
                "\tonly when operating on fields");
    bi_try_help(c);
    return 1;
  }
  o.r = parse_list(c, list, o.fields, &o.nr);
  if (!o.r)
    return 1;
  if (comp && !(o.r = complement(c, o.r, o.nr, &o.nr)))
    return 1;
  writer w;
  wr_init(&w, c->out);
  tu_records recs;
  tu_records_init(&recs, c, g.operands, g.noperands, o.eol, &w);
  const char *line;
  size_t len;
  while (tu_records_next(&recs, &line, &len)) {
    if (len && line[len - 1] == (char)o.eol)
      len--;
    if (o.fields)
      cut_fields(&o, line, len, &w);
    else
      cut_bytes(&o, line, len, &w);
    if (w.err)
      break;
  }
  int status = tu_records_end(&recs);
  if (w.err)
    return bi_stream_status(w.err);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
