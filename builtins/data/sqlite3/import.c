/*
 * import.c - the .import dot command of the sqlite3 shell: rows of a CSV
 * (or separator-delimited) sandbox file into a table, made from the first
 * row's names when it does not exist, as SQLite 3.40's shell does it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/sqlite3/sq.h"
#include "core/buf.h"

typedef struct imp {
  sq_shell *sh;
  const char *file;
  reader r;
  buf field;
  int csv;        /* quotes are understood */
  int csep, rsep; /* column and row separator bytes */
  int term;       /* what ended the last field: csep, rsep or EOF */
  int line;       /* current line, from 1 */
  char chunk[4096];
  long clen, cpos;
} imp;

static int imp_getc(imp *m) {
  if (m->cpos >= m->clen) {
    m->clen = rd_read(&m->r, m->chunk, sizeof m->chunk);
    m->cpos = 0;
    if (m->clen <= 0)
      return EOF;
  }
  return (unsigned char)m->chunk[m->cpos++];
}

/* The next field into m->field (NUL-ended); 0 at the end of input. */
static int read_field(imp *m) {
  buf_clear(&m->field);
  int ch = imp_getc(m);
  if (ch == EOF) {
    m->term = EOF;
    return 0;
  }
  if (m->csv && ch == '"') {
    int start = m->line;
    for (;;) {
      ch = imp_getc(m);
      if (ch == EOF) {
        stream_printf(m->sh->c->err, "%s:%d: unterminated \"-quoted field\n",
                      m->file, start);
        m->term = EOF;
        break;
      }
      if (ch == '\n')
        m->line++;
      if (ch == '"') {
        int next = imp_getc(m);
        if (next == '"') {
          buf_putc(&m->field, '"');
          continue;
        }
        if (next == '\r') {
          int n2 = imp_getc(m);
          if (n2 == m->rsep)
            next = n2;
          else {
            buf_putc(&m->field, '\r');
            next = n2;
          }
        }
        /* text after the closing quote belongs to the field too */
        while (next != EOF && next != m->csep && next != m->rsep) {
          buf_putc(&m->field, next);
          next = imp_getc(m);
        }
        if (next == m->rsep)
          m->line++;
        m->term = next;
        break;
      }
      buf_putc(&m->field, ch);
    }
  } else {
    while (ch != EOF && ch != m->csep && ch != m->rsep) {
      buf_putc(&m->field, ch);
      ch = imp_getc(m);
    }
    if (ch == m->rsep) {
      m->line++;
      if (m->csv && m->field.len && m->field.data[m->field.len - 1] == '\r')
        m->field.len--;
    }
    m->term = ch;
  }
  if (m->field.oom || buf_putc(&m->field, 0) != 0) {
    m->sh->oom = 1;
    return 0;
  }
  m->field.len--; /* the NUL ends the text but is not part of it */
  return 1;
}

/* One row of fields, each a string of the sandbox allocator; *n gets the
 * count. Returns 0 at the end of the input. */
static int read_row(imp *m, buf *row, int *n) {
  buf_clear(row);
  *n = 0;
  int any = 0;
  for (;;) {
    int got = read_field(m);
    if (!got && m->term == EOF && !any)
      return 0;
    any = 1;
    buf_append(row, m->field.data ? m->field.data : "", m->field.len + 1);
    (*n)++;
    if (m->term != m->csep)
      break;
  }
  if (row->oom)
    m->sh->oom = 1;
  return !m->sh->oom;
}

static void import_usage(sq_shell *sh, const char *what) {
  stream_printf(sh->c->err,
                "ERROR: missing %s argument. Usage:\n"
                ".import FILE TABLE       rows of FILE into TABLE\n"
                "   --ascii     0x1F between columns, 0x1E between rows\n"
                "   --csv       CSV: ',' between columns, quotes understood\n"
                "   --skip N    leave out the first N rows\n"
                "   --schema S  the table is S.TABLE\n"
                "   -v          report how many rows were added\n",
                what);
}

static int table_exists(sq_shell *sh, const char *schema, const char *table) {
  char *q = sqlite3_mprintf("SELECT * FROM \"%w\".\"%w\"", schema, table);
  sqlite3_stmt *st = NULL;
  int ok = q && sqlite3_prepare_v2(sh->db, q, -1, &st, NULL) == SQLITE_OK;
  sqlite3_finalize(st);
  sqlite3_free(q);
  return ok;
}

int sq_import(sq_shell *sh, int argc, char **argv) {
  bi_ctx *c = sh->c;
  const char *file = NULL, *table = NULL, *schema = "main";
  int mode = 0, verbose = 0; /* mode: 0 from .mode, 1 csv, 2 ascii */
  long skip = 0;
  for (int i = 1; i < argc; i++) {
    const char *z = argv[i];
    if (z[0] == '-' && z[1] == '-')
      z++;
    if (z[0] != '-') {
      if (!file)
        file = argv[i];
      else if (!table)
        table = argv[i];
      else {
        stream_printf(c->err, "ERROR: extra argument: \"%s\".  Usage:\n",
                      argv[i]);
        import_usage(sh, "no");
        return 1;
      }
    } else if (!strcmp(z, "-v")) {
      verbose = 1;
    } else if (!strcmp(z, "-skip") && i + 1 < argc) {
      skip = atol(argv[++i]);
    } else if (!strcmp(z, "-schema") && i + 1 < argc) {
      schema = argv[++i];
    } else if (!strcmp(z, "-ascii")) {
      mode = 2;
    } else if (!strcmp(z, "-csv")) {
      mode = 1;
    } else {
      stream_printf(c->err, "ERROR: unknown option: \"%s\".  Usage:\n", z);
      import_usage(sh, "no");
      return 1;
    }
  }
  if (!file) {
    import_usage(sh, "FILE");
    return 1;
  }
  if (!table) {
    import_usage(sh, "TABLE");
    return 1;
  }
  imp m;
  memset(&m, 0, sizeof m);
  m.sh = sh;
  m.file = file;
  m.line = 1;
  if (mode == 1 || (mode == 0 && sh->mode == SQ_CSV)) {
    m.csv = 1;
    m.csep = mode == 1 ? ',' : (unsigned char)sh->colsep[0];
    m.rsep = '\n';
  } else if (mode == 2 || sh->mode == SQ_ASCII) {
    m.csep = 0x1f;
    m.rsep = 0x1e;
  } else {
    if (strlen(sh->colsep) != 1) {
      stream_printf(c->err, "Error: multi-character column separators not "
                            "allowed for import\n");
      return 1;
    }
    if (strlen(sh->rowsep) != 1) {
      stream_printf(c->err, "Error: multi-character row separators not "
                            "allowed for import\n");
      return 1;
    }
    m.csep = (unsigned char)sh->colsep[0];
    m.rsep = (unsigned char)sh->rowsep[0];
  }
  if (file[0] == '|') {
    stream_printf(c->err,
                  "Error: cannot run \"%s\": the sandbox starts no "
                  "processes\n",
                  file + 1);
    return 1;
  }
  int e = 0;
  stream *in = bi_open_read(c, file, &e);
  if (!in) {
    stream_printf(c->err, "Error: cannot open \"%s\"\n", file);
    return 1;
  }
  rd_init(&m.r, c->m, in);
  buf_init(&m.field, c->m);
  buf row;
  buf_init(&row, c->m);
  int rc = 0, n = 0, ncol = 0, added = 0, errors = 0;
  sqlite3_stmt *ins = NULL;
  char *sql = NULL;
  while (skip > 0 && read_row(&m, &row, &n))
    skip--;
  if (!table_exists(sh, schema, table)) {
    if (!read_row(&m, &row, &n)) {
      stream_printf(c->err, "%s: empty file\n", file);
      rc = 1;
      goto out;
    }
    sqlite3_str *s = sqlite3_str_new(sh->db);
    if (strcmp(schema, "main"))
      sqlite3_str_appendf(s, "CREATE TABLE \"%w\".\"%w\"", schema, table);
    else
      sqlite3_str_appendf(s, "CREATE TABLE \"%w\"", table);
    const char *f = row.data;
    for (int i = 0; i < n; i++) {
      sqlite3_str_appendf(s, "%s\"%w\" TEXT", i ? ", " : "(\n", f);
      f += strlen(f) + 1;
    }
    sqlite3_str_appendall(s, ")");
    sql = sqlite3_str_finish(s);
    if (!sql || sqlite3_exec(sh->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
      stream_printf(c->err, "%s failed:\n%s\n", sql ? sql : "CREATE TABLE",
                    sqlite3_errmsg(sh->db));
      rc = 1;
      goto out;
    }
    if (verbose)
      wr_printf(&sh->w, "%s\n\n", sql);
    sqlite3_free(sql);
    sql = NULL;
  }
  sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info(%Q,%Q)", table,
                        schema);
  sqlite3_stmt *cnt = NULL;
  if (sql && sqlite3_prepare_v2(sh->db, sql, -1, &cnt, NULL) == SQLITE_OK &&
      sqlite3_step(cnt) == SQLITE_ROW)
    ncol = sqlite3_column_int(cnt, 0);
  sqlite3_finalize(cnt);
  sqlite3_free(sql);
  sql = NULL;
  if (ncol <= 0) {
    rc = 1;
    goto out;
  }
  sqlite3_str *s = sqlite3_str_new(sh->db);
  sqlite3_str_appendf(s, "INSERT INTO \"%w\".\"%w\" VALUES(?", schema, table);
  for (int i = 1; i < ncol; i++)
    sqlite3_str_appendall(s, ",?");
  sqlite3_str_appendall(s, ")");
  sql = sqlite3_str_finish(s);
  if (!sql || sqlite3_prepare_v2(sh->db, sql, -1, &ins, NULL) != SQLITE_OK) {
    stream_printf(c->err, "Error: %s\n", sqlite3_errmsg(sh->db));
    rc = 1;
    goto out;
  }
  int txn = sqlite3_get_autocommit(sh->db);
  if (txn)
    sqlite3_exec(sh->db, "BEGIN", NULL, NULL, NULL);
  for (;;) {
    int line = m.line;
    if (!read_row(&m, &row, &n))
      break;
    if (budget_poll(c->bud)) {
      rc = 1;
      break;
    }
    if (n == 1 && !row.data[0] && m.term != EOF)
      continue; /* an empty line */
    const char *f = row.data;
    for (int i = 0; i < ncol; i++) {
      if (i < n) {
        sqlite3_bind_text(ins, i + 1, f, -1, SQLITE_TRANSIENT);
        f += strlen(f) + 1;
      } else {
        sqlite3_bind_null(ins, i + 1);
      }
    }
    if (n < ncol)
      stream_printf(c->err,
                    "%s:%d: expected %d columns but found %d - filling the "
                    "rest with NULL\n",
                    file, line, ncol, n);
    else if (n > ncol)
      stream_printf(c->err,
                    "%s:%d: expected %d columns but found %d - extras "
                    "ignored\n",
                    file, line, ncol, n);
    sqlite3_step(ins);
    if (sqlite3_reset(ins) != SQLITE_OK) {
      if (budget_poll(c->bud)) {
        rc = 1;
        break;
      }
      stream_printf(c->err, "%s:%d: INSERT failed: %s\n", file, line,
                    sqlite3_errmsg(sh->db));
      errors++;
    } else {
      added++;
    }
  }
  if (txn)
    sqlite3_exec(sh->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
  if (verbose && !rc)
    wr_printf(&sh->w, "Added %d rows with %d errors using %d lines of input\n",
              added, errors, m.line - 1);
out:
  sqlite3_finalize(ins);
  sqlite3_free(sql);
  buf_free(&row);
  buf_free(&m.field);
  rd_free(&m.r);
  stream_unref(in);
  if (sh->oom)
    rc = 1;
  return rc;
}
