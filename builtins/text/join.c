/*
 * join.c - GNU join (coreutils 9.1): join the lines of two sorted files on
 * a common field.
 *
 * Both inputs are read as streams, one line at a time; only the run of
 * lines sharing one key is held (in each file), as GNU does. Keys compare
 * bytewise (the sandbox runs in the C collation), or with -i ignoring ASCII
 * case; an empty or missing key compares below any other and equal to
 * another empty one. Order checking follows GNU: without --check-order a
 * line out of order is reported once per file ("FILE:LINE: is not sorted:
 * TEXT") once some line could not be paired, and the status becomes 1 at
 * the end ("input is not in sorted order"); with it the first disorder
 * ends the command; --nocheck-order does not look. The obsolete forms
 * "-j1 FIELD", "-j2 FIELD" and "-o LIST LIST..." are read as GNU reads
 * them when a third operand shows they were meant.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_join[] = "Usage: join [OPTION]... FILE1 FILE2";
const char bi_help_join[] =
    "Print one line for every pair of lines of FILE1 and FILE2 whose join\n"
    "fields are the same. The join field is the first one unless told\n"
    "otherwise; fields are separated by blanks. Either FILE (not both) may\n"
    "be -, standard input.\n"
    "\n"
    "  -a FILENUM        also print the lines of file FILENUM (1 or 2) that\n"
    "                      pair with no line of the other file\n"
    "  -e EMPTY          print EMPTY for an output field that is missing\n"
    "  -i, --ignore-case  compare join fields without regard to case\n"
    "  -j FIELD          the same as '-1 FIELD -2 FIELD'\n"
    "  -o FORMAT         print the fields FORMAT lists; 'auto' takes the\n"
    "                      field count of each file's first line\n"
    "  -t CHAR           fields are separated by CHAR, in input and output\n"
    "  -v FILENUM        as -a FILENUM, without the joined lines\n"
    "  -1 FIELD          join on field FIELD of FILE1\n"
    "  -2 FIELD          join on field FIELD of FILE2\n"
    "      --check-order  stop at the first line out of order, even when\n"
    "                      every line pairs\n"
    "      --nocheck-order  do not check the order of the input\n"
    "      --header      print the first line of each file as a header line,\n"
    "                      without pairing it\n"
    "  -z, --zero-terminated  lines end with a NUL byte, not a newline\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n"
    "\n"
    "Without -t, leading blanks are skipped and runs of blanks separate\n"
    "fields; with -t CHAR each CHAR ends a field (-t '' takes the whole line\n"
    "as the field). Fields are numbered from 1. FORMAT is a list, separated\n"
    "by commas or blanks, of FILENUM.FIELD items and 0 (the join field). The\n"
    "default output is the join field, then the other fields of FILE1, then\n"
    "those of FILE2.\n"
    "\n"
    "Both files must be sorted on their join fields (as 'sort -k 1b,1' sorts\n"
    "for a plain join). When some line could not be paired, a line out of\n"
    "order is reported and the exit status is 1.\n";

enum { CHECK_DEFAULT, CHECK_ON, CHECK_OFF };
/* What an operand may be besides a file (GNU's obsolete forms). */
enum { OP_MUST, OP_J1, OP_J2, OP_O };

typedef struct jfield {
  size_t off, len;
} jfield;

typedef struct jline {
  char *data; /* the line without its end */
  size_t len, cap;
  jfield *f;
  size_t nf, fcap;
} jline;

typedef struct jfile {
  const char *name;
  stream *s;
  reader r;
  int open;      /* r initialised */
  jline **lines; /* the current run of equal keys */
  size_t count, alloc;
  jline *prev, *spare;
  uint64_t line_no;
  size_t field;
  int warned;
} jfile;

typedef struct jout {
  int file; /* 0 (the join field), 1 or 2 */
  size_t field;
} jout;

typedef struct join_st {
  bi_ctx *c;
  const char *names[2]; /* the two file operands */
  writer w;
  jfile f[2];
  int tab; /* -1: blanks */
  int eol;
  int icase, check, autoformat, header;
  int unpaired[2], pairables, seen_unpairable;
  const char *empty;
  jout *out;
  size_t nout, outcap;
  size_t autocount[2];
  int fatal;   /* stop: status 1 (message printed) */
  int rerr;    /* a read failed (errno) */
  jline blank; /* the missing side of an unpaired line */
} join_st;

static void line_free(mem *m, jline *l) {
  if (!l)
    return;
  mem_free(m, l->data);
  mem_free(m, l->f);
  mem_free(m, l);
}

static int add_field(mem *m, jline *l, size_t off, size_t len) {
  if (l->nf == l->fcap) {
    size_t n = l->fcap ? l->fcap * 2 : 8;
    jfield *p = mem_realloc(m, l->f, n * sizeof *p);
    if (!p)
      return -1;
    l->f = p;
    l->fcap = n;
  }
  l->f[l->nf].off = off;
  l->f[l->nf].len = len;
  l->nf++;
  return 0;
}

static int is_sep(const join_st *j, unsigned char ch) {
  return ch == ' ' || ch == '\t' || (j->eol != '\n' && ch == '\n');
}

/* Split l into fields as GNU does. */
static int split_fields(join_st *j, jline *l) {
  mem *m = j->c->m;
  const char *d = l->data;
  size_t n = l->len, p = 0;
  l->nf = 0;
  if (n == 0)
    return 0;
  if (j->tab >= 0 && j->tab != '\n') {
    const char *sep;
    while ((sep = memchr(d + p, j->tab, n - p))) {
      if (add_field(m, l, p, (size_t)(sep - d) - p))
        return -1;
      p = (size_t)(sep - d) + 1;
    }
  } else if (j->tab < 0) {
    while (is_sep(j, (unsigned char)d[p]))
      if (++p == n)
        return 0;
    do {
      size_t e = p + 1;
      while (e != n && !is_sep(j, (unsigned char)d[e]))
        e++;
      if (add_field(m, l, p, e - p))
        return -1;
      if (e == n)
        return 0;
      for (p = e + 1; p != n && is_sep(j, (unsigned char)d[p]); p++)
        ;
    } while (p != n);
  }
  return add_field(m, l, p, n - p);
}

static int keycmp(const join_st *j, const jline *a, const jline *b, size_t fa,
                  size_t fb) {
  const char *pa = NULL, *pb = NULL;
  size_t la = 0, lb = 0;
  if (fa < a->nf) {
    pa = a->data + a->f[fa].off;
    la = a->f[fa].len;
  }
  if (fb < b->nf) {
    pb = b->data + b->f[fb].off;
    lb = b->f[fb].len;
  }
  if (la == 0)
    return lb == 0 ? 0 : -1;
  if (lb == 0)
    return 1;
  size_t n = la < lb ? la : lb;
  int diff = 0;
  if (j->icase) {
    for (size_t i = 0; i < n && !diff; i++)
      diff = toupper((unsigned char)pa[i]) - toupper((unsigned char)pb[i]);
  } else {
    diff = memcmp(pa, pb, n);
  }
  if (diff)
    return diff;
  return la < lb ? -1 : la != lb;
}

static void check_order(join_st *j, int which, const jline *prev,
                        const jline *cur) {
  jfile *f = &j->f[which];
  if (j->check == CHECK_OFF || f->warned)
    return;
  if (j->check != CHECK_ON && !j->seen_unpairable)
    return;
  if (keycmp(j, prev, cur, f->field, f->field) <= 0)
    return;
  wr_flush(&j->w);
  stream_printf(j->c->err, "%s: %s:%llu: is not sorted: ", j->c->argv[0],
                f->name, (unsigned long long)f->line_no);
  stream_write(j->c->err, cur->data, cur->len);
  stream_write(j->c->err, "\n", 1);
  f->warned = 1;
  if (j->check == CHECK_ON)
    j->fatal = 1;
}

/* Read the next line of file `which` into *lp (made or reused): 1, or 0 at
 * the end or on an error (j->rerr / j->fatal). */
static int get_line(join_st *j, int which, jline **lp) {
  jfile *f = &j->f[which];
  mem *m = j->c->m;
  if (j->fatal || j->rerr)
    return 0;
  if (budget_poll(j->c->bud)) {
    j->rerr = ECANCELED;
    return 0;
  }
  jline *l = *lp;
  if (l && l == f->prev) {
    jline *t = f->spare;
    f->spare = l;
    l = t;
    *lp = l;
  }
  const char *rec;
  size_t n;
  int k = rd_record(&f->r, j->eol, &rec, &n);
  if (k <= 0) {
    if (k < 0)
      j->rerr = f->r.err ? f->r.err : EIO;
    return 0;
  }
  if (n && rec[n - 1] == j->eol)
    n--;
  if (!l) {
    l = mem_calloc(m, 1, sizeof *l);
    if (!l) {
      j->rerr = ENOMEM;
      return 0;
    }
    *lp = l;
  }
  if (n + 1 > l->cap) {
    char *d = mem_realloc(m, l->data, n + 1);
    if (!d) {
      j->rerr = ENOMEM;
      return 0;
    }
    l->data = d;
    l->cap = n + 1;
  }
  memcpy(l->data, rec, n);
  l->data[n] = 0;
  l->len = n;
  if (split_fields(j, l)) {
    j->rerr = ENOMEM;
    return 0;
  }
  f->line_no++;
  if (f->prev)
    check_order(j, which, f->prev, l);
  f->prev = l;
  return !j->fatal;
}

/* Append the next line to the run of file `which` (first: start a new
 * run). */
static int getseq(join_st *j, int which, int first) {
  jfile *f = &j->f[which];
  if (first)
    f->count = 0;
  if (f->count == f->alloc) {
    size_t n = f->alloc ? f->alloc * 2 : 4;
    jline **p = mem_realloc(j->c->m, f->lines, n * sizeof *p);
    if (!p) {
      j->rerr = ENOMEM;
      return 0;
    }
    for (size_t i = f->alloc; i < n; i++)
      p[i] = NULL;
    f->lines = p;
    f->alloc = n;
  }
  if (get_line(j, which, &f->lines[f->count])) {
    f->count++;
    return 1;
  }
  return 0;
}

static void prfield(join_st *j, size_t n, const jline *l) {
  if (n < l->nf && l->f[n].len)
    wr_write(&j->w, l->data + l->f[n].off, l->f[n].len);
  else if (j->empty)
    wr_puts(&j->w, j->empty);
}

static void prfields(join_st *j, const jline *l, size_t jf, size_t autocount) {
  size_t nf = j->autoformat ? autocount : l->nf;
  int sep = j->tab < 0 ? ' ' : j->tab;
  for (size_t i = 0; i < jf && i < nf; i++) {
    wr_putc(&j->w, sep);
    prfield(j, i, l);
  }
  for (size_t i = jf + 1; i < nf; i++) {
    wr_putc(&j->w, sep);
    prfield(j, i, l);
  }
}

static void prjoin(join_st *j, const jline *l1, const jline *l2) {
  int sep = j->tab < 0 ? ' ' : j->tab;
  if (j->nout) {
    for (size_t i = 0; i < j->nout; i++) {
      const jline *l;
      size_t field;
      if (j->out[i].file == 0) {
        int second = l1 == &j->blank;
        l = second ? l2 : l1;
        field = j->f[second].field;
      } else {
        l = j->out[i].file == 1 ? l1 : l2;
        field = j->out[i].field;
      }
      if (i)
        wr_putc(&j->w, sep);
      prfield(j, field, l);
    }
  } else {
    int second = l1 == &j->blank;
    prfield(j, j->f[second].field, second ? l2 : l1);
    prfields(j, l1, j->f[0].field, j->autocount[0]);
    prfields(j, l2, j->f[1].field, j->autocount[1]);
  }
  wr_putc(&j->w, j->eol);
}

static int stopped(join_st *j) {
  return j->fatal || j->rerr || j->w.err;
}

static void run_join(join_st *j) {
  jfile *f1 = &j->f[0], *f2 = &j->f[1];
  getseq(j, 0, 0);
  getseq(j, 1, 0);
  if (j->autoformat) {
    j->autocount[0] = f1->count ? f1->lines[0]->nf : 0;
    j->autocount[1] = f2->count ? f2->lines[0]->nf : 0;
  }
  if (j->header && (f1->count || f2->count) && !stopped(j)) {
    prjoin(j, f1->count ? f1->lines[0] : &j->blank,
           f2->count ? f2->lines[0] : &j->blank);
    f1->prev = f2->prev = NULL;
    if (f1->count)
      getseq(j, 0, 1);
    if (f2->count)
      getseq(j, 1, 1);
  }
  while (f1->count && f2->count && !stopped(j)) {
    int diff = keycmp(j, f1->lines[0], f2->lines[0], f1->field, f2->field);
    if (diff < 0) {
      if (j->unpaired[0])
        prjoin(j, f1->lines[0], &j->blank);
      getseq(j, 0, 1);
      j->seen_unpairable = 1;
      continue;
    }
    if (diff > 0) {
      if (j->unpaired[1])
        prjoin(j, &j->blank, f2->lines[0]);
      getseq(j, 1, 1);
      j->seen_unpairable = 1;
      continue;
    }
    int eof1 = 0, eof2 = 0;
    do {
      if (!getseq(j, 0, 0)) {
        eof1 = 1;
        f1->count++;
        break;
      }
    } while (!keycmp(j, f1->lines[f1->count - 1], f2->lines[0], f1->field,
                     f2->field));
    if (stopped(j))
      break;
    do {
      if (!getseq(j, 1, 0)) {
        eof2 = 1;
        f2->count++;
        break;
      }
    } while (!keycmp(j, f1->lines[0], f2->lines[f2->count - 1], f1->field,
                     f2->field));
    if (stopped(j))
      break;
    if (j->pairables)
      for (size_t a = 0; a + 1 < f1->count && !j->w.err; a++) {
        if (budget_poll(j->c->bud)) {
          j->rerr = ECANCELED;
          return;
        }
        for (size_t b = 0; b + 1 < f2->count && !j->w.err; b++)
          prjoin(j, f1->lines[a], f2->lines[b]);
      }
    for (int i = 0; i < 2; i++) {
      jfile *f = &j->f[i];
      if (!(i ? eof2 : eof1)) {
        jline *t = f->lines[0];
        f->lines[0] = f->lines[f->count - 1];
        f->lines[f->count - 1] = t;
        f->count = 1;
      } else {
        f->count = 0;
      }
    }
  }
  if (stopped(j))
    return;
  int checktail = j->check != CHECK_OFF && !(f1->warned && f2->warned);
  jline *line = NULL;
  for (int i = 0; i < 2; i++) {
    jfile *f = &j->f[i], *o = &j->f[!i];
    if (!((j->unpaired[i] || checktail) && f->count))
      continue;
    if (j->unpaired[i])
      prjoin(j, i ? &j->blank : f->lines[0], i ? f->lines[0] : &j->blank);
    if (o->count)
      j->seen_unpairable = 1;
    while (!j->w.err && get_line(j, i, &line)) {
      if (j->unpaired[i])
        prjoin(j, i ? &j->blank : line, i ? line : &j->blank);
      if (f->warned && !j->unpaired[i])
        break;
    }
    if (stopped(j))
      break;
  }
  /* get_line swaps buffers, never shares one: line is ours alone */
  line_free(j->c->m, line);
}

/* A field number as GNU reads one (1-based; too large becomes SIZE_MAX):
 * 0, or -1 after the complaint. */
static int field_number(join_st *j, const char *s, size_t *v) {
  const char *p = s;
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '+')
    p++;
  if (!isdigit((unsigned char)*p))
    goto bad;
  size_t n = 0;
  int over = 0;
  for (; isdigit((unsigned char)*p); p++) {
    unsigned d = (unsigned)(*p - '0');
    if (n > (SIZE_MAX - d) / 10)
      over = 1;
    else
      n = n * 10 + d;
  }
  if (*p)
    goto bad;
  if (over) {
    *v = SIZE_MAX - 1;
    return 0;
  }
  if (n == 0)
    goto bad;
  *v = n - 1;
  return 0;
bad:
  bi_error(j->c, "invalid field number: %s", tu_quote(j->c, s));
  return -1;
}

static int set_field(join_st *j, size_t *var, size_t val) {
  if (*var != SIZE_MAX && *var != val) {
    bi_error(j->c, "incompatible join fields %zu, %zu", *var + 1, val + 1);
    return -1;
  }
  *var = val;
  return 0;
}

/* The -o list: 0 or -1 after the complaint. */
static int add_format(join_st *j, const char *arg) {
  char *copy = arena_strdup(j->c->scratch, arg);
  if (!copy) {
    bi_error(j->c, "%s", bi_strerror(ENOMEM));
    return -1;
  }
  char *p = copy;
  do {
    char *item = p;
    p = strpbrk(p, ", \t");
    if (p)
      *p++ = 0;
    jout o = {0, 0};
    switch (item[0]) {
    case '0':
      if (item[1]) {
        bi_error(j->c, "invalid field specifier: %s", tu_quote(j->c, item));
        return -1;
      }
      break;
    case '1':
    case '2':
      if (item[1] != '.') {
        bi_error(j->c, "invalid field specifier: %s", tu_quote(j->c, item));
        return -1;
      }
      o.file = item[0] - '0';
      if (field_number(j, item + 2, &o.field))
        return -1;
      break;
    default:
      bi_error(j->c, "invalid file number in field spec: %s",
               tu_quote(j->c, item));
      return -1;
    }
    if (j->nout == j->outcap) {
      size_t n = j->outcap ? j->outcap * 2 : 8;
      jout *q = mem_realloc(j->c->m, j->out, n * sizeof *q);
      if (!q) {
        bi_error(j->c, "%s", bi_strerror(ENOMEM));
        return -1;
      }
      j->out = q;
      j->outcap = n;
    }
    j->out[j->nout++] = o;
  } while (p);
  return 0;
}

static void join_free(join_st *j) {
  mem *m = j->c->m;
  for (int i = 0; i < 2; i++) {
    jfile *f = &j->f[i];
    for (size_t k = 0; k < f->alloc; k++)
      line_free(m, f->lines[k]);
    line_free(m, f->spare);
    mem_free(m, f->lines);
    if (f->open)
      rd_free(&f->r);
    if (f->s)
      stream_unref(f->s);
  }
  mem_free(m, j->out);
}

/* Parse the options into j: 0, or the exit status to return. */
static int parse(join_st *j, bi_getopt *g) {
  static const bi_opt opts[] = {{"ignore-case", 'i', BI_ARG_NONE},
                                {"check-order", 0x100, BI_ARG_NONE},
                                {"nocheck-order", 0x101, BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                {"header", 0x102, BI_ARG_NONE},
                                BI_OPTS_END};
  bi_ctx *c = j->c;
  int ch, prev = OP_MUST, cur = OP_MUST;
  int jcount[2] = {0, 0};
  /* what each operand may be, as GNU tells from the option before it */
  int *opstat = arena_alloc(c->scratch, sizeof(int) * (size_t)(c->argc + 1));
  if (!opstat) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  bi_getopt_init(g, c, "a:e:i1:2:j:o:t:v:z", opts);
  for (;;) {
    int n0 = g->noperands;
    ch = bi_getopt_each(g, 1);
    /* the operands just collected came before this option */
    for (int i = n0; i < g->noperands; i++) {
      opstat[i] = prev;
      prev = prev == OP_O ? OP_O : OP_MUST;
    }
    if (ch <= 0)
      break;
    cur = OP_MUST;
    switch (ch) {
    case 'v':
    case 'a': {
      const char *p = g->arg;
      while (isspace((unsigned char)*p))
        p++;
      if (*p == '+')
        p++;
      if (!((p[0] == '1' || p[0] == '2') && !p[1])) {
        /* leading zeros are still the number 1 or 2 */
        while (*p == '0' && p[1])
          p++;
        if (!((p[0] == '1' || p[0] == '2') && !p[1])) {
          bi_error(c, "invalid field number: %s", tu_quote(c, g->arg));
          return 1;
        }
      }
      if (ch == 'v')
        j->pairables = 0;
      j->unpaired[p[0] - '1'] = 1;
      break;
    }
    case 'e':
      if (j->empty && strcmp(j->empty, g->arg)) {
        bi_error(c, "conflicting empty-field replacement strings");
        return 1;
      }
      j->empty = g->arg;
      break;
    case 'i':
      j->icase = 1;
      break;
    case '1':
    case '2': {
      size_t v;
      if (field_number(j, g->arg, &v) || set_field(j, &j->f[ch - '1'].field, v))
        return 1;
      break;
    }
    case 'j': {
      size_t v;
      int attached = 0; /* written -j1 or -j2, in one word */
      for (int i = 1; i < c->argc && !attached; i++)
        attached = g->arg == c->argv[i] + 2 && c->argv[i][1] == 'j';
      if ((g->arg[0] == '1' || g->arg[0] == '2') && !g->arg[1] && attached) {
        /* the obsolete -j1 FIELD / -j2 FIELD, or -j 1 / -j 2 */
        jcount[g->arg[0] - '1']++;
        cur = g->arg[0] == '1' ? OP_J1 : OP_J2;
        break;
      }
      if (field_number(j, g->arg, &v) || set_field(j, &j->f[0].field, v) ||
          set_field(j, &j->f[1].field, v))
        return 1;
      break;
    }
    case 'o':
      if (strcmp(g->arg, "auto") == 0) {
        j->autoformat = 1;
      } else {
        if (add_format(j, g->arg))
          return 1;
        cur = OP_O; /* the operands after -o LIST may be more of it */
      }
      break;
    case 't': {
      int t = (unsigned char)g->arg[0];
      if (!t) {
        t = '\n';
      } else if (g->arg[1]) {
        if (strcmp(g->arg, "\\0") == 0) {
          t = 0;
        } else {
          bi_error(c, "multi-character tab %s", tu_quote(c, g->arg));
          return 1;
        }
      }
      if (j->tab >= 0 && j->tab != t) {
        bi_error(c, "incompatible tabs");
        return 1;
      }
      j->tab = t;
      break;
    }
    case 'z':
      j->eol = 0;
      break;
    case 0x100:
      j->check = CHECK_ON;
      break;
    case 0x101:
      j->check = CHECK_OFF;
      break;
    case 0x102:
      j->header = 1;
      break;
    }
    prev = cur;
  }
  if (ch == BI_OPT_STOP)
    return g->status ? g->status : -1;
  /* GNU's reading of the operands: with a third one, the first that may
   * be the value of -j1, -j2 or -o is taken as such */
  int nfiles = 0, st[2];
  for (int i = 0; i < g->noperands; i++) {
    if (nfiles == 2) {
      int op0 = st[0] == OP_MUST;
      const char *arg = j->names[op0];
      size_t v;
      switch (st[op0]) {
      case OP_MUST:
        bi_error(c, "extra operand %s", tu_quote(c, g->operands[i]));
        bi_try_help(c);
        return 1;
      case OP_J1:
      case OP_J2:
        jcount[st[op0] - OP_J1]--;
        if (field_number(j, arg, &v) ||
            set_field(j, &j->f[st[op0] - OP_J1].field, v))
          return 1;
        break;
      case OP_O:
        if (add_format(j, arg))
          return 1;
        break;
      }
      if (!op0) {
        st[0] = st[1];
        j->names[0] = j->names[1];
      }
      nfiles = 1;
    }
    st[nfiles] = opstat[i];
    j->names[nfiles++] = g->operands[i];
  }
  if (nfiles < 2) {
    if (nfiles == 0)
      bi_error(c, "missing operand");
    else
      bi_error(c, "missing operand after %s",
               tu_quote(c, c->argv[c->argc - 1]));
    bi_try_help(c);
    return 1;
  }
  /* a -j1 or -j2 whose value was not taken: join field 1 or 2 */
  for (size_t i = 0; i < 2; i++)
    if (jcount[i] &&
        (set_field(j, &j->f[0].field, i) || set_field(j, &j->f[1].field, i)))
      return 1;
  return 0;
}

int bi_join(bi_ctx *c) {
  join_st j;
  memset(&j, 0, sizeof j);
  j.c = c;
  j.tab = -1;
  j.eol = '\n';
  j.pairables = 1;
  j.f[0].field = j.f[1].field = SIZE_MAX;
  bi_getopt g;
  int st = parse(&j, &g);
  if (st) {
    mem_free(c->m, j.out);
    return st < 0 ? 0 : st;
  }
  for (int i = 0; i < 2; i++) {
    jfile *f = &j.f[i];
    if (f->field == SIZE_MAX)
      f->field = 0;
    f->name = j.names[i];
  }
  if (strcmp(j.f[0].name, "-") == 0 && strcmp(j.f[1].name, "-") == 0) {
    bi_error(c, "both files cannot be standard input");
    mem_free(c->m, j.out);
    return 1;
  }
  wr_init(&j.w, c->out);
  int status = 0;
  for (int i = 0; i < 2; i++) {
    jfile *f = &j.f[i];
    int err = 0;
    f->s = bi_open_read(c, f->name, &err);
    if (!f->s) {
      if (err == EISDIR)
        bi_error(c, "read error: %s", bi_strerror(err));
      else if (err != ECANCELED)
        tu_file_error(c, f->name, err);
      status = 1;
      goto out;
    }
    rd_init(&f->r, c->m, f->s);
    rd_flush_to(&f->r, &j.w);
    f->open = 1;
  }
  run_join(&j);
  if (j.rerr && j.rerr != ECANCELED) {
    wr_flush(&j.w);
    bi_error(c, "read error: %s", bi_strerror(j.rerr));
  }
  if (j.rerr || j.fatal)
    status = 1;
out:
  if (wr_flush(&j.w) && !status)
    status = bi_stream_status(j.w.err);
  if (!status && (j.f[0].warned || j.f[1].warned)) {
    bi_error(c, "input is not in sorted order");
    status = 1;
  }
  join_free(&j);
  return status;
}
