/*
 * out.c - running SQL and printing its rows in the sqlite3 shell's output
 * modes, byte for byte as SQLite 3.40's shell prints them.
 *
 * Row modes (list, tabs, csv, ascii, line, json, quote, insert, html, tcl)
 * print each row as it comes. The columnar modes (column, table, box,
 * markdown, qbox) need every row first to size the columns: the cells are
 * kept in buffers of the sandbox allocator, so a huge result ends with the
 * sandbox's memory limit, not the host's.
 */
#include <ctype.h>
#include <string.h>

#include "builtins/data/sqlite3/sq.h"
#include "core/buf.h"

/* ---- quoting helpers ------------------------------------------------------
 */

/* 1 for the bytes that make a CSV field need quotes. */
static int csv_special(unsigned char ch) {
  return ch <= ' ' || ch == '"' || ch == '\'' || ch >= 0x7f;
}

static void put_csv(sq_shell *sh, const char *z, int sep) {
  writer *w = &sh->w;
  if (!z) {
    wr_puts(w, sh->nullvalue);
  } else {
    int quote = !*z || strstr(z, sh->colsep) != NULL;
    for (const char *p = z; *p && !quote; p++)
      quote = csv_special((unsigned char)*p);
    if (quote) {
      wr_putc(w, '"');
      for (const char *p = z; *p; p++) {
        if (*p == '"')
          wr_putc(w, '"');
        wr_putc(w, *p);
      }
      wr_putc(w, '"');
    } else {
      wr_puts(w, z);
    }
  }
  if (sep)
    wr_puts(w, sh->colsep);
}

static void put_json_string(writer *w, const unsigned char *z, int n) {
  if (n < 0)
    n = (int)strlen((const char *)z);
  wr_putc(w, '"');
  for (int i = 0; i < n; i++) {
    unsigned char ch = z[i];
    if (ch == '\\' || ch == '"') {
      wr_putc(w, '\\');
      wr_putc(w, ch);
    } else if (ch <= 0x1f) {
      wr_putc(w, '\\');
      if (ch == '\b')
        wr_putc(w, 'b');
      else if (ch == '\f')
        wr_putc(w, 'f');
      else if (ch == '\n')
        wr_putc(w, 'n');
      else if (ch == '\r')
        wr_putc(w, 'r');
      else if (ch == '\t')
        wr_putc(w, 't');
      else
        wr_printf(w, "u%04x", ch);
    } else {
      wr_putc(w, ch);
    }
  }
  wr_putc(w, '"');
}

/* A REAL as the json, quote and insert modes print it. */
static void put_real(writer *w, double r) {
  char z[64];
  if (r > 1.7976931348623157e308)
    wr_puts(w, "1e999");
  else if (r < -1.7976931348623157e308)
    wr_puts(w, "-1e999");
  else {
    if (r >= -9.2e18 && r <= 9.2e18 && r == (double)(sqlite3_int64)r)
      sqlite3_snprintf(sizeof z, z, "%lld.0", (sqlite3_int64)r);
    else
      sqlite3_snprintf(sizeof z, z, "%!.20g", r);
    wr_puts(w, z);
  }
}

static void put_quoted(writer *w, const char *z) {
  wr_putc(w, '\'');
  for (; *z; z++) {
    if (*z == '\'')
      wr_putc(w, '\'');
    wr_putc(w, *z);
  }
  wr_putc(w, '\'');
}

/* A string of insert mode: newlines and carriage returns spelled through
 * replace(), so that the statement stays on one line. */
static void put_quoted_escaped(writer *w, const char *z) {
  int nnl = 0, ncr = 0;
  for (const char *p = z; *p; p++) {
    nnl += *p == '\n';
    ncr += *p == '\r';
  }
  if (!nnl && !ncr) {
    put_quoted(w, z);
    return;
  }
  const char *znl = strstr(z, "\\n") ? "\\012" : "\\n";
  const char *zcr = strstr(z, "\\r") ? "\\015" : "\\r";
  if (nnl)
    wr_puts(w, "replace(");
  if (ncr)
    wr_puts(w, "replace(");
  wr_putc(w, '\'');
  for (; *z; z++) {
    if (*z == '\n')
      wr_puts(w, znl);
    else if (*z == '\r')
      wr_puts(w, zcr);
    else {
      if (*z == '\'')
        wr_putc(w, '\'');
      wr_putc(w, *z);
    }
  }
  wr_putc(w, '\'');
  if (ncr)
    wr_printf(w, ",'%s',char(13))", zcr);
  if (nnl)
    wr_printf(w, ",'%s',char(10))", znl);
}

static void put_blob_hex(writer *w, const unsigned char *b, int n) {
  wr_puts(w, "X'");
  for (int i = 0; i < n; i++)
    wr_printf(w, "%02x", b[i]);
  wr_putc(w, '\'');
}

/* An identifier of insert mode: quoted when it is not a plain word or
 * when it is a keyword. */
static void put_ident(writer *w, const char *z) {
  int plain = (*z >= 'a' && *z <= 'z') || (*z >= 'A' && *z <= 'Z') || *z == '_';
  for (const char *p = z; *p && plain; p++)
    plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '_';
  if (plain && !sqlite3_keyword_check(z, (int)strlen(z))) {
    wr_puts(w, z);
    return;
  }
  wr_putc(w, '"');
  for (; *z; z++) {
    if (*z == '"')
      wr_putc(w, '"');
    wr_putc(w, *z);
  }
  wr_putc(w, '"');
}

static void put_html(writer *w, const char *z) {
  for (; *z; z++) {
    switch (*z) {
    case '<':
      wr_puts(w, "&lt;");
      break;
    case '&':
      wr_puts(w, "&amp;");
      break;
    case '>':
      wr_puts(w, "&gt;");
      break;
    case '"':
      wr_puts(w, "&quot;");
      break;
    case '\'':
      wr_puts(w, "&#39;");
      break;
    default:
      wr_putc(w, *z);
    }
  }
}

static void put_c_string(writer *w, const char *z) {
  wr_putc(w, '"');
  for (; *z; z++) {
    unsigned char ch = (unsigned char)*z;
    if (ch == '\\' || ch == '"') {
      wr_putc(w, '\\');
      wr_putc(w, ch);
    } else if (ch == '\t')
      wr_puts(w, "\\t");
    else if (ch == '\n')
      wr_puts(w, "\\n");
    else if (ch == '\r')
      wr_puts(w, "\\r");
    else if (ch < ' ' || ch == 0x7f)
      wr_printf(w, "\\%03o", ch);
    else
      wr_putc(w, ch);
  }
  wr_putc(w, '"');
}

/* ---- row modes ------------------------------------------------------------
 */

/* A column's name ("" if SQLite could not make it). */
static const char *cname(sqlite3_stmt *st, int i) {
  const char *z = sqlite3_column_name(st, i);
  return z ? z : "";
}

/* A value as text, or NULL for SQL NULL. */
static const char *col_text(sqlite3_stmt *st, int i) {
  if (sqlite3_column_type(st, i) == SQLITE_NULL)
    return NULL;
  const char *z = (const char *)sqlite3_column_text(st, i);
  return z ? z : "";
}

/* A value as the quote and insert modes write it. */
static void put_literal(sq_shell *sh, sqlite3_stmt *st, int i, int escaped) {
  writer *w = &sh->w;
  switch (sqlite3_column_type(st, i)) {
  case SQLITE_NULL:
    wr_puts(w, "NULL");
    break;
  case SQLITE_INTEGER:
    wr_puts(w, col_text(st, i));
    break;
  case SQLITE_FLOAT:
    put_real(w, sqlite3_column_double(st, i));
    break;
  case SQLITE_BLOB: {
    const void *b = sqlite3_column_blob(st, i);
    put_blob_hex(w, b, sqlite3_column_bytes(st, i));
    break;
  }
  default:
    if (escaped)
      put_quoted_escaped(w, col_text(st, i));
    else
      put_quoted(w, col_text(st, i));
  }
}

static void row_out(sq_shell *sh, sqlite3_stmt *st, int n, int row) {
  writer *w = &sh->w;
  switch (sh->mode) {
  case SQ_LINE: {
    int width = 5;
    for (int i = 0; i < n; i++) {
      int k = (int)strlen(cname(st, i));
      if (k > width)
        width = k;
    }
    if (row > 0)
      wr_puts(w, sh->rowsep);
    for (int i = 0; i < n; i++) {
      const char *z = col_text(st, i);
      wr_printf(w, "%*s = %s%s", width, cname(st, i), z ? z : sh->nullvalue,
                sh->rowsep);
    }
    return;
  }
  case SQ_CSV:
    if (row == 0 && sh->header) {
      for (int i = 0; i < n; i++)
        put_csv(sh, cname(st, i), i < n - 1);
      wr_puts(w, sh->rowsep);
    }
    for (int i = 0; i < n; i++)
      put_csv(sh, col_text(st, i), i < n - 1);
    wr_puts(w, sh->rowsep);
    return;
  case SQ_JSON:
    wr_puts(w, row == 0 ? "[{" : ",\n{");
    for (int i = 0; i < n; i++) {
      put_json_string(w, (const unsigned char *)cname(st, i), -1);
      wr_putc(w, ':');
      switch (sqlite3_column_type(st, i)) {
      case SQLITE_NULL:
        wr_puts(w, "null");
        break;
      case SQLITE_INTEGER:
        wr_puts(w, col_text(st, i));
        break;
      case SQLITE_FLOAT:
        put_real(w, sqlite3_column_double(st, i));
        break;
      case SQLITE_BLOB:
        put_json_string(w, sqlite3_column_blob(st, i),
                        sqlite3_column_bytes(st, i));
        break;
      default:
        put_json_string(w, sqlite3_column_text(st, i),
                        sqlite3_column_bytes(st, i));
      }
      if (i < n - 1)
        wr_putc(w, ',');
    }
    wr_putc(w, '}');
    return;
  case SQ_QUOTE:
    if (row == 0 && sh->header) {
      for (int i = 0; i < n; i++) {
        if (i)
          wr_puts(w, sh->colsep);
        put_quoted(w, cname(st, i));
      }
      wr_puts(w, sh->rowsep);
    }
    for (int i = 0; i < n; i++) {
      if (i)
        wr_puts(w, sh->colsep);
      put_literal(sh, st, i, 0);
    }
    wr_puts(w, sh->rowsep);
    return;
  case SQ_INSERT:
    wr_puts(w, "INSERT INTO ");
    put_ident(w, sh->table);
    if (sh->header) {
      wr_putc(w, '(');
      for (int i = 0; i < n; i++) {
        if (i)
          wr_putc(w, ',');
        put_ident(w, cname(st, i));
      }
      wr_putc(w, ')');
    }
    wr_puts(w, " VALUES(");
    for (int i = 0; i < n; i++) {
      if (i)
        wr_putc(w, ',');
      put_literal(sh, st, i, 1);
    }
    wr_puts(w, ");\n");
    return;
  case SQ_HTML:
    if (row == 0 && sh->header) {
      wr_puts(w, "<TR>");
      for (int i = 0; i < n; i++) {
        wr_puts(w, "<TH>");
        put_html(w, cname(st, i));
        wr_puts(w, "</TH>\n");
      }
      wr_puts(w, "</TR>\n");
    }
    wr_puts(w, "<TR>");
    for (int i = 0; i < n; i++) {
      const char *z = col_text(st, i);
      wr_puts(w, "<TD>");
      put_html(w, z ? z : sh->nullvalue);
      wr_puts(w, "</TD>\n");
    }
    wr_puts(w, "</TR>\n");
    return;
  case SQ_TCL:
    if (row == 0 && sh->header) {
      for (int i = 0; i < n; i++) {
        put_c_string(w, cname(st, i));
        if (i < n - 1)
          wr_puts(w, sh->colsep);
      }
      wr_puts(w, sh->rowsep);
    }
    for (int i = 0; i < n; i++) {
      const char *z = col_text(st, i);
      put_c_string(w, z ? z : sh->nullvalue);
      if (i < n - 1)
        wr_puts(w, sh->colsep);
    }
    wr_puts(w, sh->rowsep);
    return;
  default: /* list, tabs, ascii */
    if (row == 0 && sh->header) {
      for (int i = 0; i < n; i++) {
        wr_puts(w, cname(st, i));
        wr_puts(w, i < n - 1 ? sh->colsep : sh->rowsep);
      }
    }
    for (int i = 0; i < n; i++) {
      const char *z = col_text(st, i);
      wr_puts(w, z ? z : sh->nullvalue);
      wr_puts(w, i < n - 1 ? sh->colsep : sh->rowsep);
    }
  }
}

/* ---- columnar modes -------------------------------------------------------
 */

/* One display line of z into out: printable characters as they are, tabs
 * to the next multiple of 8; it ends at any other control character,
 * which (or a CR LF pair) is skipped, or after mx characters (0: no
 * limit), where ww moves the break back to a space or a word's edge.
 * Returns the rest, or NULL. */
static const char *disp_line(const char *z, buf *out, int mx, int ww) {
  const unsigned char *u = (const unsigned char *)z;
  size_t lim = mx > 0 ? (size_t)mx : (size_t)-1;
  size_t i = 0, n = 0;
  while (n < lim) { /* how far this line goes */
    if (u[i] >= ' ') {
      n++;
      do
        i++;
      while ((u[i] & 0xc0) == 0x80);
    } else if (u[i] == '\t') {
      do
        n++;
      while ((n & 7) && n < lim);
      i++;
    } else {
      break;
    }
  }
  size_t k = i; /* the line is z[0..k) */
  if (n >= lim && ww && u[i]) {
    for (k = i; k > i / 2; k--)
      if (u[k - 1] == ' ' || (u[k - 1] >= '\t' && u[k - 1] <= '\r'))
        break;
    if (k <= i / 2)
      for (k = i; k > i / 2; k--) {
        int a = isalnum(u[k - 1]) != 0, b = isalnum(u[k]) != 0;
        if (a != b && (u[k] & 0xc0) != 0x80)
          break;
      }
    if (k <= i / 2)
      k = i;
    else {
      i = k;
      while (u[i] == ' ')
        i++;
    }
  }
  n = 0;
  for (size_t j = 0; j < k;) {
    if (u[j] == '\t') {
      do {
        n++;
        buf_putc(out, ' ');
      } while ((n & 7) && n < lim);
      j++;
    } else {
      n++;
      do
        buf_putc(out, u[j++]);
      while (j < k && (u[j] & 0xc0) == 0x80);
    }
  }
  buf_putc(out, 0);
  if (!u[i])
    return NULL;
  if (u[i] >= ' ' || u[i] == '\t')
    return z + i; /* wrapped */
  if (u[i] == '\r' && u[i + 1] == '\n')
    i++;
  i++;
  return u[i] ? z + i : NULL;
}

/* The .width of column i (0: none). */
static int colwidth(const sq_shell *sh, int i) {
  return i < sh->nwidths ? sh->widths[i] : 0;
}

/* Where cells of column i wrap: its .width, else .mode --wrap. */
static int colwrap(const sq_shell *sh, int i) {
  int w = colwidth(sh, i);
  return w ? (w < 0 ? -w : w) : sh->wrap;
}

static int nchars(const char *z) {
  int n = 0;
  for (; *z; z++)
    n += ((unsigned char)*z & 0xc0) != 0x80;
  return n;
}

static void spaces(writer *w, int n) {
  for (; n > 0; n--)
    wr_putc(w, ' ');
}

static void rep(writer *w, const char *s, int n) {
  for (; n > 0; n--)
    wr_puts(w, s);
}

/* A border line of table or box mode. */
static void border(sq_shell *sh, const int *wd, int n, const char *l,
                   const char *m, const char *r, const char *h) {
  wr_puts(&sh->w, l);
  for (int i = 0; i < n; i++) {
    rep(&sh->w, h, wd[i] + 2);
    wr_puts(&sh->w, i < n - 1 ? m : r);
  }
  wr_putc(&sh->w, '\n');
}

/* The text of a qbox cell: the value as quote mode writes it. */
static char *qbox_text(sq_shell *sh, sqlite3_stmt *st, int i) {
  int t = sqlite3_column_type(st, i);
  if (t == SQLITE_TEXT)
    return sqlite3_mprintf("%Q", sqlite3_column_text(st, i));
  if (t == SQLITE_NULL)
    return sqlite3_mprintf("NULL");
  if (t == SQLITE_BLOB) {
    const unsigned char *b = sqlite3_column_blob(st, i);
    int n = sqlite3_column_bytes(st, i);
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendall(s, "x'");
    for (int k = 0; k < n; k++)
      sqlite3_str_appendf(s, "%02x", b[k]);
    sqlite3_str_appendall(s, "'");
    return sqlite3_str_finish(s);
  }
  if (t == SQLITE_FLOAT) {
    double r = sqlite3_column_double(st, i);
    if (r >= -9.2e18 && r <= 9.2e18 && r == (double)(sqlite3_int64)r)
      return sqlite3_mprintf("%lld.0", (sqlite3_int64)r);
    return sqlite3_mprintf("%!.20g", r);
  }
  return sqlite3_mprintf("%s", sqlite3_column_text(st, i));
}

/* Steps st to its end, printing the rows as a grid. rc: the first step's
 * result (SQLITE_ROW). Returns the last step's result. */
static int columnar(sq_shell *sh, sqlite3_stmt *st, int n, int rc) {
  bi_ctx *c = sh->c;
  buf text, offs, ends;
  buf_init(&text, c->m);
  buf_init(&offs, c->m);
  buf_init(&ends, c->m);
  int *wd = mem_calloc(c->m, (size_t)n, sizeof *wd);
  const char **tails = mem_calloc(c->m, (size_t)n, sizeof *tails);
  char **owned = mem_calloc(c->m, (size_t)n, sizeof *owned);
  size_t nlines = 0;
  int multi = 0;
  if (!wd || !tails || !owned)
    goto oom;
  /* the header is display line 0 */
  for (int i = 0; i < n; i++) {
    size_t at = text.len;
    disp_line(cname(st, i), &text, 0, 0);
    buf_append(&offs, &at, sizeof at);
  }
  buf_putc(&ends, 1);
  nlines = 1;
  for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
    int more = 0;
    for (int i = 0; i < n; i++) {
      if (sh->mode == SQ_QBOX) {
        owned[i] = qbox_text(sh, st, i);
        tails[i] = owned[i] ? owned[i] : "";
      } else {
        const char *z = col_text(st, i);
        tails[i] = z ? z : sh->nullvalue;
      }
    }
    do { /* one display line per round, until every cell is used up */
      more = 0;
      for (int i = 0; i < n; i++) {
        size_t at = text.len;
        if (tails[i])
          tails[i] = disp_line(tails[i], &text, colwrap(sh, i), sh->wordwrap);
        else
          buf_putc(&text, 0);
        buf_append(&offs, &at, sizeof at);
        more |= tails[i] != NULL;
      }
      buf_putc(&ends, !more);
      if (more)
        multi = 1;
      nlines++;
    } while (more && !text.oom && !budget_poll(c->bud));
    for (int i = 0; i < n; i++) {
      sqlite3_free(owned[i]);
      owned[i] = NULL;
    }
    if (text.oom || offs.oom || ends.oom)
      goto oom;
  }
  const size_t *off = (const size_t *)offs.data;
  for (int i = 0; i < n; i++) {
    int w = colwidth(sh, i);
    wd[i] = w < 0 ? -w : w;
  }
  for (size_t l = 0; l < nlines; l++)
    for (int i = 0; i < n; i++) {
      int k = nchars(text.data + off[l * (size_t)n + (size_t)i]);
      if (k > wd[i])
        wd[i] = k;
    }
  writer *w = &sh->w;
  int m = sh->mode;
  const char *v = m == SQ_TABLE || m == SQ_MARKDOWN ? "|" : "\xe2\x94\x82";
  if (m == SQ_TABLE)
    border(sh, wd, n, "+", "+", "+", "-");
  else if (m == SQ_BOX || m == SQ_QBOX)
    border(sh, wd, n, "\xe2\x94\x8c", "\xe2\x94\xac", "\xe2\x94\x90",
           "\xe2\x94\x80");
  for (size_t l = 0; l < nlines && !w->err; l++) {
    if (l == 0 && m == SQ_COLUMN && !sh->header)
      continue;
    if (m != SQ_COLUMN)
      wr_puts(w, v);
    for (int i = 0; i < n; i++) {
      const char *z = text.data + off[l * (size_t)n + (size_t)i];
      int pad = wd[i] - nchars(z);
      if (m != SQ_COLUMN)
        wr_putc(w, ' ');
      if (l == 0 && m != SQ_COLUMN) { /* centred names */
        spaces(w, pad / 2);
        wr_puts(w, z);
        spaces(w, pad - pad / 2);
      } else if (colwidth(sh, i) < 0) { /* right-justified */
        spaces(w, pad);
        wr_puts(w, z);
      } else {
        wr_puts(w, z);
        spaces(w, pad);
      }
      if (m == SQ_COLUMN)
        wr_puts(w, i < n - 1 ? "  " : "\n");
      else {
        wr_putc(w, ' ');
        wr_puts(w, v);
      }
    }
    if (m != SQ_COLUMN)
      wr_putc(w, '\n');
    if (l == 0) { /* under the names */
      if (m == SQ_COLUMN)
        for (int i = 0; i < n; i++) {
          rep(w, "-", wd[i]);
          wr_puts(w, i < n - 1 ? "  " : "\n");
        }
      else if (m == SQ_TABLE)
        border(sh, wd, n, "+", "+", "+", "-");
      else if (m == SQ_MARKDOWN)
        border(sh, wd, n, "|", "|", "|", "-");
      else
        border(sh, wd, n, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4",
               "\xe2\x94\x80");
    } else if (multi && ends.data[l] && l + 1 < nlines) {
      if (m == SQ_COLUMN)
        wr_puts(w, sh->rowsep);
      else if (m == SQ_TABLE)
        border(sh, wd, n, "+", "+", "+", "-");
      else if (m == SQ_BOX || m == SQ_QBOX)
        border(sh, wd, n, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4",
               "\xe2\x94\x80");
    }
    if ((l & 255) == 0 && budget_poll(c->bud))
      break;
  }
  if (m == SQ_TABLE)
    border(sh, wd, n, "+", "+", "+", "-");
  else if (m == SQ_BOX || m == SQ_QBOX)
    border(sh, wd, n, "\xe2\x94\x94", "\xe2\x94\xb4", "\xe2\x94\x98",
           "\xe2\x94\x80");
  goto done;
oom:
  sh->oom = 1;
  if (owned)
    for (int i = 0; i < n; i++)
      sqlite3_free(owned[i]);
  rc = SQLITE_NOMEM;
done:
  buf_free(&text);
  buf_free(&offs);
  buf_free(&ends);
  mem_free(c->m, wd);
  mem_free(c->m, (void *)tails);
  mem_free(c->m, owned);
  return rc;
}

/* ---- running SQL ----------------------------------------------------------
 */

/* The lines that show where a syntax error is, as the shell prints them
 * after the message. */
static void error_context(sqlite3 *db, const char *sql, sqlite3_str *s) {
  int off = sqlite3_error_offset(db);
  if (off < 0 || !sql)
    return;
  while (off > 50) {
    off--;
    sql++;
    while ((*sql & 0xc0) == 0x80) {
      sql++;
      off--;
    }
  }
  size_t len = strlen(sql);
  if (len > 78) {
    len = 78;
    /* back to the start of a UTF-8 character; the shell's own loop has no
     * floor and, over 79 continuation bytes (not UTF-8), steps before the
     * text: stop at its start */
    while (len > 0 && (sql[len] & 0xc0) == 0x80)
      len--;
  }
  sqlite3_str_appendall(s, "\n  ");
  for (size_t i = 0; i < len; i++) {
    char ch = sql[i];
    sqlite3_str_appendchar(s, 1,
                           ch == ' ' || (ch >= '\t' && ch <= '\r') ? ' ' : ch);
  }
  if (off < 25)
    sqlite3_str_appendf(s, "\n  %*s^--- error here", off, "");
  else
    sqlite3_str_appendf(s, "\n  %*serror here ---^", off - 14, "");
}

static char *phase_error(sqlite3 *db, const char *phase, int rc,
                         const char *sql) {
  sqlite3_str *s = sqlite3_str_new(db);
  sqlite3_str_appendf(s, "%s, %s", phase, sqlite3_errmsg(db));
  if (rc > 1)
    sqlite3_str_appendf(s, " (%d)", rc);
  error_context(db, sql, s);
  return sqlite3_str_finish(s);
}

static int is_space(char ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

int sq_exec(sq_shell *sh, const char *sql, char **err) {
  *err = NULL;
  if (sq_open(sh))
    return SQLITE_CANTOPEN;
  int rc = SQLITE_OK;
  while (sql[0] && rc == SQLITE_OK) {
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    rc = sqlite3_prepare_v2(sh->db, sql, -1, &st, &tail);
    if (rc != SQLITE_OK) {
      *err = phase_error(sh->db, "in prepare", rc, sql);
      break;
    }
    if (!st) {
      sql = tail;
      while (is_space(*sql))
        sql++;
      continue;
    }
    int n = sqlite3_column_count(st);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && n > 0) {
      int m = sh->mode;
      if (m == SQ_COLUMN || m == SQ_TABLE || m == SQ_BOX || m == SQ_MARKDOWN ||
          m == SQ_QBOX) {
        step = columnar(sh, st, n, step);
      } else {
        int row = 0;
        for (; step == SQLITE_ROW; step = sqlite3_step(st)) {
          row_out(sh, st, n, row++);
          if (sh->w.err)
            break;
        }
        if (m == SQ_JSON && row > 0)
          wr_puts(&sh->w, "]\n");
      }
    } else {
      while (step == SQLITE_ROW)
        step = sqlite3_step(st);
    }
    if (sh->w.err || sh->oom) {
      sqlite3_finalize(st);
      return SQLITE_ABORT;
    }
    rc = sqlite3_finalize(st);
    if (rc != SQLITE_OK) {
      *err = phase_error(sh->db, "stepping", rc, sql);
      break;
    }
    sql = tail;
    while (is_space(*sql))
      sql++;
  }
  return rc;
}
