/*
 * column.c - column (util-linux 2.38): lay lists out in columns, or
 * tables out in aligned columns.
 *
 * Every input line that is not blank is an entry (blank ones are dropped,
 * or with -t -L kept as empty rows). Bytes that are not characters of the
 * locale become "\xHH", as util-linux shows them. Widths count columns on
 * a terminal (control characters count none).
 *
 * Fill modes (the default, and -x) place the entries in as many columns of
 * tab stops as the width allows (-c, else $COLUMNS, else 80). Table mode
 * (-t) splits each entry into cells at the -s characters (runs of blanks
 * by default, every single separator with -s) and pads every column to its
 * widest cell, with -o between columns (two spaces by default); the last
 * column is not padded unless right-aligned. -J prints the table as JSON
 * in libsmartcols' layout.
 *
 * Not offered: the tree options (-r, -i, -p) and the width-fitting ones
 * (-E, -T, -W); they are refused rather than ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"
#include "core/utf8.h"

const char bi_usage_column[] = "Usage: column [OPTION]... [FILE]...";
const char bi_help_column[] =
    "Lay the lines of the FILEs (standard input when none) out in columns,\n"
    "or with -t as an aligned table.\n"
    "\n"
    "  -t, --table                 split lines into cells and align them\n"
    "  -s, --separator=CHARS       cells end at any one of CHARS (default:\n"
    "                                runs of spaces and tabs)\n"
    "  -o, --output-separator=STR  put STR between table columns (default\n"
    "                                two spaces)\n"
    "  -N, --table-columns=NAMES   name the columns (comma separated); the\n"
    "                                names make a header line\n"
    "  -d, --table-noheadings      do not print the header line\n"
    "  -l, --table-columns-limit=N  at most N cells a line; the last one\n"
    "                                keeps the rest of the line\n"
    "  -R, --table-right=COLUMNS   right-align these columns (numbers or\n"
    "                                names, comma separated)\n"
    "  -H, --table-hide=COLUMNS    leave these columns out\n"
    "  -O, --table-order=COLUMNS   print these columns first, in this order\n"
    "  -L, --keep-empty-lines      keep blank lines as empty rows\n"
    "  -e, --table-header-repeat   accepted (there are no pages to repeat\n"
    "                                the header on)\n"
    "  -J, --json                  print the table as JSON (needs -N)\n"
    "  -n, --table-name=NAME       name of the JSON table (default 'table')\n"
    "  -c, --output-width=WIDTH    lines are at most WIDTH columns wide\n"
    "  -x, --fillrows              fill rows before columns\n"
    "  -h, --help                  print this summary and quit\n"
    "  -V, --version               print the version line and quit\n";

typedef struct ccell {
  size_t off, len, width;
} ccell;

typedef struct crow {
  char *text; /* the entry, made printable */
  size_t len, width;
  ccell *cells;
  size_t n;
} crow;

typedef struct col_st {
  bi_ctx *c;
  int utf8;
  int table, json, fillrows, keep_empty, noheadings;
  size_t width;
  size_t limit;
  const char *sep; /* NULL: blanks, greedy */
  int32_t *sepcp;
  size_t nsep;
  const char *osep;
  const char *names_arg, *right, *hide, *order, *tname;
  char **names;
  size_t nnames;
  crow *rows;
  size_t nrows, cap;
  size_t maxlen;
  size_t ncols;
} col_st;

/* The display width of s[0..n): printable characters only. */
static size_t text_width(const col_st *s, const char *p, size_t n) {
  size_t w = 0;
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)p[i];
    if (ch < 0x80) {
      w += ch >= 0x20 && ch != 0x7f;
      i++;
      continue;
    }
    int32_t cp;
    size_t l = u8_next(p + i, n - i, &cp);
    int cw = s->utf8 && cp >= 0 ? u8_width(cp) : -1;
    if (cw > 0)
      w += (size_t)cw;
    i += l ? l : 1;
  }
  return w;
}

/* The line as util-linux keeps it: up to a NUL byte, with every byte that
 * is not a character of the locale written as \xHH. */
static char *printable(col_st *s, const char *p, size_t n, size_t *len) {
  const char *nul = memchr(p, 0, n);
  if (nul)
    n = (size_t)(nul - p);
  buf b;
  buf_init(&b, s->c->m);
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)p[i];
    if (ch < 0x80) {
      buf_putc(&b, ch);
      i++;
      continue;
    }
    int32_t cp = -1;
    size_t l = s->utf8 ? u8_next(p + i, n - i, &cp) : 1;
    if (s->utf8 && cp >= 0) {
      buf_append(&b, p + i, l);
      i += l;
    } else {
      buf_printf(&b, "\\x%02x", ch);
      i++;
    }
  }
  buf_putc(&b, 0);
  if (b.oom) {
    buf_free(&b);
    return NULL;
  }
  *len = b.len - 1;
  return buf_take(&b, NULL);
}

/* Whether the character at p[i] is a separator; *l gets its length. */
static int is_sep(const col_st *s, const char *p, size_t n, size_t i,
                  size_t *l) {
  int32_t cp;
  if (s->utf8 && (unsigned char)p[i] >= 0x80) {
    *l = u8_next(p + i, n - i, &cp);
  } else {
    cp = (unsigned char)p[i];
    *l = 1;
  }
  if (!s->sep)
    return cp == ' ' || cp == '\t';
  for (size_t k = 0; k < s->nsep; k++)
    if (s->sepcp[k] == cp)
      return 1;
  return 0;
}

static int add_cell(col_st *s, crow *r, size_t off, size_t len, size_t *cap) {
  if (r->n == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    ccell *q = mem_realloc(s->c->m, r->cells, nc * sizeof *q);
    if (!q)
      return -1;
    r->cells = q;
    *cap = nc;
  }
  r->cells[r->n].off = off;
  r->cells[r->n].len = len;
  r->cells[r->n].width = text_width(s, r->text + off, len);
  r->n++;
  return 0;
}

/* Cut a row into cells as util-linux does: greedy (strtok) over blanks;
 * with -s one cell per separator, an empty one after a separator that
 * ends the line too; with -l the last cell keeps the rest of the line. */
static int split_row(col_st *s, crow *r) {
  const char *p = r->text;
  size_t n = r->len, i = 0, cap = 0, l;
  int greedy = !s->sep;
  for (int first = 1;; first = 0) {
    if (greedy && !first && i >= n)
      return 0; /* nothing left: no more cells */
    if (s->limit && r->n + 1 == s->limit)
      return add_cell(s, r, i, n - i, &cap);
    if (greedy) {
      while (i < n && is_sep(s, p, n, i, &l))
        i += l;
      if (i >= n)
        return 0;
    }
    size_t start = i;
    while (i < n && !is_sep(s, p, n, i, &l))
      i += l;
    if (add_cell(s, r, start, i - start, &cap))
      return -1;
    if (i >= n)
      return 0;
    is_sep(s, p, n, i, &l);
    i += l; /* past the one separator */
  }
}

static int add_row(col_st *s, const char *rec, size_t n) {
  if (s->nrows == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 64;
    crow *q = mem_realloc(s->c->m, s->rows, nc * sizeof *q);
    if (!q)
      return -1;
    s->rows = q;
    s->cap = nc;
  }
  crow *r = &s->rows[s->nrows];
  memset(r, 0, sizeof *r);
  if (rec) {
    r->text = printable(s, rec, n, &r->len);
    if (!r->text)
      return -1;
  }
  s->nrows++;
  if (!rec)
    return 0;
  if (s->table) {
    if (split_row(s, r))
      return -1;
    if (r->n > s->ncols) {
      if (s->json && r->n > s->nnames) {
        bi_error(s->c,
                 "line %zu: for JSON the name of the column %zu is "
                 "required",
                 s->nrows + 1, s->nnames + 1);
        return -2;
      }
      s->ncols = r->n;
    }
  } else {
    r->width = text_width(s, r->text, r->len);
    if (r->width > s->maxlen)
      s->maxlen = r->width;
  }
  return 0;
}

/* ---- fill modes ---------------------------------------------------------- */

static void put_tabs(writer *w, size_t *chcnt, size_t endcol) {
  size_t cnt;
  while ((cnt = ((*chcnt + 8) & ~(size_t)7)) <= endcol) {
    wr_putc(w, '\t');
    *chcnt = cnt;
  }
}

static int fill(col_st *s, writer *w) {
  if (s->maxlen >= s->width) {
    for (size_t i = 0; i < s->nrows && !w->err; i++) {
      wr_write(w, s->rows[i].text, s->rows[i].len);
      wr_putc(w, '\n');
    }
    return 0;
  }
  size_t maxlen = (s->maxlen + 8) & ~(size_t)7;
  size_t numcols = s->width / maxlen;
  if (s->fillrows) {
    size_t chcnt = 0, col = 0, endcol = maxlen, left = s->nrows;
    for (size_t i = 0;; i++) {
      if ((i & 1023) == 0 && budget_poll(s->c->bud))
        return -1;
      wr_write(w, s->rows[i].text, s->rows[i].len);
      chcnt += s->rows[i].width;
      if (!--left)
        break;
      if (++col == numcols) {
        chcnt = col = 0;
        endcol = maxlen;
        wr_putc(w, '\n');
      } else {
        put_tabs(w, &chcnt, endcol);
        endcol += maxlen;
      }
    }
    if (chcnt)
      wr_putc(w, '\n');
    return 0;
  }
  if (!numcols)
    numcols = 1;
  size_t numrows = s->nrows / numcols + (s->nrows % numcols != 0);
  for (size_t row = 0; row < numrows && !w->err; row++) {
    if (budget_poll(s->c->bud))
      return -1;
    size_t endcol = maxlen, chcnt = 0, base = row;
    for (size_t col = 0; col < numcols; col++) {
      wr_write(w, s->rows[base].text, s->rows[base].len);
      chcnt += s->rows[base].width;
      if ((base += numrows) >= s->nrows)
        break;
      put_tabs(w, &chcnt, endcol);
      endcol += maxlen;
    }
    wr_putc(w, '\n');
  }
  return 0;
}

/* ---- table mode ---------------------------------------------------------- */

/* The column a -R/-H/-O item names (0-based), SIZE_MAX when none exists,
 * or -1 (as SIZE_MAX - 1) after "undefined column name". */
static size_t column_of(col_st *s, const char *item) {
  int digits = *item != 0;
  for (const char *p = item; *p; p++)
    if (!isdigit((unsigned char)*p))
      digits = 0;
  if (digits) {
    unsigned long long v = strtoull(item, NULL, 10);
    if (v == 0 || v > s->ncols)
      return SIZE_MAX;
    return (size_t)v - 1;
  }
  for (size_t i = 0; i < s->nnames; i++)
    if (strcasecmp(s->names[i], item) == 0)
      return i < s->ncols ? i : SIZE_MAX;
  bi_error(s->c, "undefined column name '%s'", item);
  return SIZE_MAX - 1;
}

/* Apply a comma-separated list: flags[col] = 1 for each column it names.
 * order (when not NULL) also gets them, each once, at the place of its
 * last mention, as util-linux's -O places them (-O 1,2,1 is 2,1). 0, or -1
 * after a message. */
static int apply_list(col_st *s, const char *list, char *flags, size_t *order,
                      size_t *norder) {
  size_t *last = NULL; /* the item number of each column's last mention */
  if (order &&
      !(last = arena_alloc(s->c->scratch, (s->ncols + 1) * sizeof *last))) {
    bi_error(s->c, "%s", bi_strerror(ENOMEM));
    return -1;
  }
  for (int pass = 0; pass < (order ? 2 : 1); pass++) {
    char *copy = arena_strdup(s->c->scratch, list);
    if (!copy) {
      bi_error(s->c, "%s", bi_strerror(ENOMEM));
      return -1;
    }
    char *save = NULL;
    size_t idx = 0;
    for (char *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save), idx++) {
      size_t k = column_of(s, item);
      if (k == SIZE_MAX - 1)
        return -1;
      if (k == SIZE_MAX)
        continue;
      if (pass == 0) {
        flags[k] = 1;
        if (last)
          last[k] = idx;
      } else if (last[k] == idx) {
        order[(*norder)++] = k;
      }
    }
  }
  return 0;
}

static void put_pad(writer *w, size_t width, size_t used) {
  static const char sp[] = "                                ";
  size_t n = width > used ? width - used : 0;
  while (n && !w->err) {
    size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
    wr_write(w, sp, k);
    n -= k;
  }
}

static void json_str(writer *w, const char *p, size_t n, int lower) {
  wr_putc(w, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '"' || ch == '\\') {
      wr_putc(w, '\\');
      wr_putc(w, ch);
    } else if (ch < 0x20 || ch == 0x7f) {
      wr_printf(w, "\\u%04x", ch);
    } else {
      wr_putc(w, lower ? tolower(ch) : ch);
    }
  }
  wr_putc(w, '"');
}

static int table(col_st *s, writer *w) {
  mem *m = s->c->m;
  size_t nc = s->ncols;
  if (s->nnames > nc)
    nc = s->ncols = s->nnames;
  char *right = mem_calloc(m, nc + 1, 1);
  char *hidden = mem_calloc(m, nc + 1, 1);
  size_t *order = mem_calloc(m, nc + 1, sizeof *order);
  size_t *width = mem_calloc(m, nc + 1, sizeof *width);
  int rc = -1;
  if (!right || !hidden || !order || !width) {
    bi_error(s->c, "%s", bi_strerror(ENOMEM));
    goto out;
  }
  if ((s->right && apply_list(s, s->right, right, NULL, NULL)) ||
      (s->hide && apply_list(s, s->hide, hidden, NULL, NULL)))
    goto out;
  /* the columns -O names, then every other one in input order (a flag
   * per column: a table can have a million columns) */
  size_t norder = 0;
  char *listed = mem_calloc(m, nc + 1, 1);
  if (!listed) {
    bi_error(s->c, "%s", bi_strerror(ENOMEM));
    goto out;
  }
  if (s->order && apply_list(s, s->order, listed, order, &norder)) {
    mem_free(m, listed);
    goto out;
  }
  for (size_t k = 0; k < nc; k++)
    if (!listed[k])
      order[norder++] = k;
  mem_free(m, listed);
  /* the visible columns, in order */
  size_t nv = 0;
  for (size_t i = 0; i < nc; i++)
    if (!hidden[order[i]])
      order[nv++] = order[i];
  int heads = s->nnames && !s->noheadings && !s->json;
  /* a header counts in a column's width, but not in the last one's */
  for (size_t k = 0; k < nc; k++)
    if (heads && k < s->nnames && (!nv || k != order[nv - 1]))
      width[k] = text_width(s, s->names[k], strlen(s->names[k]));
  for (size_t r = 0; r < s->nrows; r++)
    for (size_t k = 0; k < s->rows[r].n; k++)
      if (s->rows[r].cells[k].width > width[k])
        width[k] = s->rows[r].cells[k].width;
  if (s->json) {
    wr_puts(w, "{\n   ");
    const char *tn = s->tname ? s->tname : "table";
    json_str(w, tn, strlen(tn), 1);
    wr_puts(w, ": [");
    for (size_t r = 0; r < s->nrows && !w->err; r++) {
      if ((r & 1023) == 0 && budget_poll(s->c->bud))
        goto out;
      wr_puts(w, r ? "},{\n" : "\n      {\n");
      const crow *row = &s->rows[r];
      for (size_t v = 0; v < nv; v++) {
        size_t k = order[v];
        wr_puts(w, "         ");
        json_str(w, s->names[k], strlen(s->names[k]), 1);
        wr_puts(w, ": ");
        if (k < row->n && row->cells[k].len)
          json_str(w, row->text + row->cells[k].off, row->cells[k].len, 0);
        else
          wr_puts(w, "null");
        wr_puts(w, v + 1 < nv ? ",\n" : "\n");
      }
      wr_puts(w, "      ");
    }
    wr_puts(w, s->nrows ? "}\n   ]\n}\n" : "\n   ]\n}\n");
    rc = 0;
    goto out;
  }
  size_t olen = strlen(s->osep);
  for (size_t r = (size_t)0 - (size_t)heads; r != s->nrows && !w->err; r++) {
    if ((r & 1023) == 0 && budget_poll(s->c->bud))
      goto out;
    const crow *row = r == SIZE_MAX ? NULL : &s->rows[r];
    for (size_t v = 0; v < nv; v++) {
      size_t k = order[v];
      const char *p = "";
      size_t len = 0, cw = 0;
      if (!row) {
        if (k < s->nnames) {
          p = s->names[k];
          len = strlen(p);
          cw = text_width(s, p, len);
        }
      } else if (k < row->n) {
        p = row->text + row->cells[k].off;
        len = row->cells[k].len;
        cw = row->cells[k].width;
      }
      int last = v + 1 == nv;
      if (last && !len)
        break; /* an empty last cell is not padded, even on the right */
      if (right[k])
        put_pad(w, width[k], cw);
      wr_write(w, p, len);
      if (!last) {
        if (!right[k])
          put_pad(w, width[k], cw);
        wr_write(w, s->osep, olen);
      }
    }
    wr_putc(w, '\n');
  }
  rc = 0;
out:
  mem_free(m, right);
  mem_free(m, hidden);
  mem_free(m, order);
  mem_free(m, width);
  return rc;
}

/* ---- options ------------------------------------------------------------- */

static int parse_size(bi_ctx *c, const char *arg, const char *what, size_t *v) {
  const char *p = arg;
  while (isspace((unsigned char)*p))
    p++;
  int neg = *p == '-';
  char *end;
  errno = 0;
  unsigned long long n = strtoull(arg, &end, 10);
  if (end == arg || *end) {
    bi_error(c, "%s: '%s'", what, arg);
    return -1;
  }
  if (neg || errno == ERANGE || n > UINT32_MAX) {
    bi_error(c, "%s: '%s': %s", what, arg, bi_strerror(ERANGE));
    return -1;
  }
  *v = (size_t)n;
  return 0;
}

static void col_free(col_st *s) {
  mem *m = s->c->m;
  for (size_t i = 0; i < s->nrows; i++) {
    mem_free(m, s->rows[i].text);
    mem_free(m, s->rows[i].cells);
  }
  mem_free(m, s->rows);
  mem_free(m, s->sepcp);
}

int bi_column(bi_ctx *c) {
  static const bi_opt opts[] = {{"columns", 'c', BI_ARG_REQUIRED},
                                {"fillrows", 'x', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {"json", 'J', BI_ARG_NONE},
                                {"keep-empty-lines", 'L', BI_ARG_NONE},
                                {"output-separator", 'o', BI_ARG_REQUIRED},
                                {"output-width", 'c', BI_ARG_REQUIRED},
                                {"separator", 's', BI_ARG_REQUIRED},
                                {"table", 't', BI_ARG_NONE},
                                {"table-columns", 'N', BI_ARG_REQUIRED},
                                {"table-columns-limit", 'l', BI_ARG_REQUIRED},
                                {"table-hide", 'H', BI_ARG_REQUIRED},
                                {"table-name", 'n', BI_ARG_REQUIRED},
                                {"table-noextreme", 'E', BI_ARG_REQUIRED},
                                {"table-noheadings", 'd', BI_ARG_NONE},
                                {"table-order", 'O', BI_ARG_REQUIRED},
                                {"table-right", 'R', BI_ARG_REQUIRED},
                                {"table-truncate", 'T', BI_ARG_REQUIRED},
                                {"table-wrap", 'W', BI_ARG_REQUIRED},
                                {"table-header-repeat", 'e', BI_ARG_NONE},
                                {"tree", 'r', BI_ARG_REQUIRED},
                                {"tree-id", 'i', BI_ARG_REQUIRED},
                                {"tree-parent", 'p', BI_ARG_REQUIRED},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  col_st s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.utf8 = tu_utf8_locale(c);
  s.width = SIZE_MAX;
  s.osep = "  ";
  int ch, unsupported = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "c:dE:eH:hi:Jl:LN:n:O:o:p:R:r:s:T:tVW:x", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'c':
      if (parse_size(c, g.arg, "invalid columns argument", &s.width))
        return 1;
      break;
    case 'd':
      s.noheadings = 1;
      break;
    case 'e':
      break;
    case 'E':
    case 'T':
    case 'W':
    case 'r':
    case 'i':
    case 'p':
      unsupported = ch;
      break;
    case 'H':
      s.hide = g.arg;
      break;
    case 'h':
      return bi_print_help(c);
    case 'J':
      s.json = 1;
      s.table = 1;
      break;
    case 'l':
      if (parse_size(c, g.arg, "invalid columns limit argument", &s.limit))
        return 1;
      if (!s.limit) {
        bi_error(c, "columns limit must be greater than zero");
        return 1;
      }
      break;
    case 'L':
      s.keep_empty = 1;
      break;
    case 'N':
      s.names_arg = g.arg;
      break;
    case 'n':
      s.tname = g.arg;
      break;
    case 'O':
      s.order = g.arg;
      break;
    case 'o':
      s.osep = g.arg;
      break;
    case 'R':
      s.right = g.arg;
      break;
    case 's':
      s.sep = g.arg;
      break;
    case 't':
      s.table = 1;
      break;
    case 'V':
      if (stream_printf(c->out, "column (util-linux compatible; vsh) "
                                "2.38.1\n") < 0)
        return bi_stream_status(c->out->err);
      return 0;
    case 'x':
      s.fillrows = 1;
      break;
    default:
      return 1;
    }
  }
  if (!s.table &&
      (s.order || s.tname || s.hide || s.right || s.names_arg ||
       unsupported == 'E' || unsupported == 'T' || unsupported == 'W')) {
    bi_error(c, "option --table required for all --table-*");
    return 1;
  }
  if (!s.names_arg && s.json) {
    bi_error(c, "option --table-columns required for --json");
    return 1;
  }
  if (unsupported) {
    bi_error(c, "option -%c is not supported", unsupported);
    return 1;
  }
  if (s.width == SIZE_MAX) {
    const char *cols = c->getenv ? c->getenv(c, "COLUMNS") : NULL;
    char *end;
    long v = cols && *cols ? strtol(cols, &end, 10) : 0;
    s.width = cols && *cols && !*end && v > 0 ? (size_t)v : 80;
  }
  int status = 0, rc = 0;
  writer w;
  wr_init(&w, c->out);
  if (s.sep) {
    size_t n = strlen(s.sep);
    s.sepcp = mem_calloc(c->m, n + 1, sizeof *s.sepcp);
    if (!s.sepcp) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      return 1;
    }
    for (size_t i = 0; i < n;) {
      int32_t cp = (unsigned char)s.sep[i];
      size_t l = s.utf8 ? u8_next(s.sep + i, n - i, &cp) : 1;
      s.sepcp[s.nsep++] = cp;
      i += l ? l : 1;
    }
  }
  if (s.names_arg) {
    char *copy = arena_strdup(c->scratch, s.names_arg);
    size_t n = 1;
    for (const char *p = s.names_arg; *p; p++)
      n += *p == ',';
    s.names = copy ? arena_alloc(c->scratch, n * sizeof *s.names) : NULL;
    if (!s.names) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      mem_free(c->m, s.sepcp);
      return 1;
    }
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t;
         t = strtok_r(NULL, ",", &save))
      s.names[s.nnames++] = t;
    s.ncols = s.nnames;
  }
  /* util-linux opens every operand by name: "-" is a file called "-" */
  int nfiles = g.noperands ? g.noperands : 1;
  for (int f = 0; f < nfiles && !rc && !w.err; f++) {
    const char *name = g.noperands ? g.operands[f] : NULL;
    int err = 0;
    stream *in = !name
                     ? stream_ref(c->in)
                     : bi_open_read(c, strcmp(name, "-") ? name : "./-", &err);
    if (!in) {
      if (err == ECANCELED) {
        rc = -1;
        break;
      }
      /* util-linux prints the name as given, never quoted */
      bi_error(c, "%s: %s", name, bi_strerror(err));
      status = 1;
      continue;
    }
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    const char *rec;
    size_t len;
    int k;
    while ((k = rd_record(&r, '\n', &rec, &len)) > 0) {
      if (budget_poll(c->bud)) {
        rc = -1;
        break;
      }
      if (len && rec[len - 1] == '\n')
        len--;
      const char *nul = memchr(rec, 0, len);
      size_t keep = nul ? (size_t)(nul - rec) : len, i = 0;
      while (i < keep && isspace((unsigned char)rec[i]))
        i++;
      int e;
      if (i == keep) {
        if (!(s.table && s.keep_empty))
          continue;
        e = add_row(&s, NULL, 0);
      } else {
        e = add_row(&s, rec, keep);
      }
      if (e) {
        if (e == -1)
          bi_error(c, "%s", bi_strerror(ENOMEM));
        rc = -1;
        break;
      }
    }
    if (k < 0) {
      if (r.err != ECANCELED)
        bi_error(c, "read failed: %s", bi_strerror(r.err));
      rc = -1;
    }
    rd_free(&r);
    stream_unref(in);
  }
  if (!rc && s.table && s.nrows && !s.ncols && !s.nnames) {
    status = 1; /* only blank rows (-L): util-linux fails to print them */
  } else if (!rc && s.nrows) {
    rc = s.table ? table(&s, &w) : fill(&s, &w);
    if (s.table)
      status = 0; /* util-linux: a table printed ends with success */
  }
  if (rc)
    status = 1;
  if (wr_flush(&w) && !rc)
    status = bi_stream_status(w.err);
  col_free(&s);
  return status;
}
