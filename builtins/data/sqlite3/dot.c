/*
 * dot.c - the dot commands of the sqlite3 shell: .tables, .schema, .mode,
 * .headers, .separator, .nullvalue, .read, .dump, .import (import.c),
 * .indexes, .databases, .output, .once, .print, .echo, .bail, .width, .show,
 * .quit, .exit, .help,
 * with SQLite 3.40's words for their errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/sqlite3/sq.h"
#include "builtins/textutil.h"
#include "core/buf.h"

enum { SQ_MAXARGS = 50 };

static const char *const mode_names[SQ_NMODES] = {
    "ascii", "box",      "column", "csv",   "html",  "insert", "json", "line",
    "list",  "markdown", "qbox",   "quote", "table", "tabs",   "tcl"};

const char *sq_mode_name(int mode) {
  return mode_names[mode];
}

static void set_seps(sq_shell *sh, const char *col, const char *row) {
  if (col)
    snprintf(sh->colsep, sizeof sh->colsep, "%s", col);
  if (row)
    snprintf(sh->rowsep, sizeof sh->rowsep, "%s", row);
}

int sq_mode_index(const char *name) {
  for (int i = 0; i < SQ_NMODES; i++)
    if (!strcmp(name, mode_names[i]))
      return i;
  return -1;
}

int sq_set_mode(sq_shell *sh, const char *name) {
  int m = sq_mode_index(name);
  if (!strcmp(name, "lines"))
    m = SQ_LINE;
  else if (!strcmp(name, "columns"))
    m = SQ_COLUMN;
  if (m < 0)
    return -1;
  sh->mode = m;
  switch (m) {
  case SQ_LIST:
    set_seps(sh, "|", "\n");
    break;
  case SQ_TABS:
    set_seps(sh, "\t", NULL);
    break;
  case SQ_CSV:
    set_seps(sh, ",", "\r\n");
    break;
  case SQ_QUOTE:
    set_seps(sh, ",", "\n");
    break;
  case SQ_ASCII:
    set_seps(sh, "\x1f", "\x1e");
    break;
  case SQ_TCL:
    set_seps(sh, " ", "\n");
    break;
  case SQ_LINE:
    set_seps(sh, NULL, "\n");
    break;
  default:
    break;
  }
  return 0;
}

/* Splits a dot command line into words: whitespace separates them,
 * '...' is literal, "..." takes backslash escapes. Words are written into
 * out (same size as line) and pointed at by av. Returns the count. */
static int split_args(const char *line, char *out, char **av) {
  int n = 0;
  const char *p = line;
  while (*p && n < SQ_MAXARGS) {
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
      p++;
    if (!*p)
      break;
    av[n++] = out;
    if (*p == '\'' || *p == '"') {
      char q = *p++;
      while (*p && *p != q) {
        if (q == '"' && *p == '\\' && p[1])
          *out++ = *p++;
        *out++ = *p++;
      }
      if (*p)
        p++;
    } else {
      while (*p && !(*p == ' ' || (*p >= '\t' && *p <= '\r')))
        *out++ = *p++;
    }
    *out++ = 0;
  }
  return n;
}

/* Backslash escapes of .separator and quoted words, in place. */
static void unescape(char *z) {
  char *o = z;
  for (char *p = z; *p; p++) {
    if (*p != '\\' || !p[1]) {
      *o++ = *p;
      continue;
    }
    char ch = *++p;
    switch (ch) {
    case 'a':
      *o++ = '\a';
      break;
    case 'b':
      *o++ = '\b';
      break;
    case 't':
      *o++ = '\t';
      break;
    case 'n':
      *o++ = '\n';
      break;
    case 'v':
      *o++ = '\v';
      break;
    case 'f':
      *o++ = '\f';
      break;
    case 'r':
      *o++ = '\r';
      break;
    case '"':
      *o++ = '"';
      break;
    case '\'':
      *o++ = '\'';
      break;
    case '\\':
      *o++ = '\\';
      break;
    default:
      if (ch >= '0' && ch <= '7') {
        int v = ch - '0';
        for (int k = 0; k < 2 && p[1] >= '0' && p[1] <= '7'; k++)
          v = v * 8 + (*++p - '0');
        *o++ = (char)v;
      } else {
        *o++ = '\\';
        *o++ = ch;
      }
    }
  }
  *o = 0;
}

static int boolean_value(sq_shell *sh, const char *z) {
  char *end;
  long v = strtol(z, &end, 10);
  if (*z && !*end)
    return v != 0;
  if (!sqlite3_stricmp(z, "on") || !sqlite3_stricmp(z, "yes") ||
      !sqlite3_stricmp(z, "true"))
    return 1;
  if (!sqlite3_stricmp(z, "off") || !sqlite3_stricmp(z, "no") ||
      !sqlite3_stricmp(z, "false"))
    return 0;
  stream_printf(sh->c->err,
                "ERROR: Not a boolean value: \"%s\". Assuming \"no\".\n", z);
  return 0;
}

/* Runs a query of the dot commands, calling fn for each row. 0 or 1. */
static int each_row(sq_shell *sh, const char *sql,
                    int (*fn)(sq_shell *, sqlite3_stmt *, void *), void *ud) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(sh->db, sql, -1, &st, NULL) != SQLITE_OK) {
    stream_printf(sh->c->err, "Error: %s\n", sqlite3_errmsg(sh->db));
    return 1;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (fn(sh, st, ud) || sh->w.err)
      break;
  rc = sqlite3_finalize(st);
  if (rc != SQLITE_OK && !sh->w.err && !sh->oom) {
    stream_printf(sh->c->err, "Error: %s\n", sqlite3_errmsg(sh->db));
    return 1;
  }
  return sh->oom;
}

/* ---- .tables ------------------------------------------------------------- */

typedef struct names {
  buf text, offs;
  size_t n;
} names;

static int collect_name(sq_shell *sh, sqlite3_stmt *st, void *ud) {
  names *nm = ud;
  const char *z = (const char *)sqlite3_column_text(st, 0);
  size_t at = nm->text.len;
  buf_puts(&nm->text, z ? z : "");
  buf_putc(&nm->text, 0);
  buf_append(&nm->offs, &at, sizeof at);
  nm->n++;
  if (nm->text.oom || nm->offs.oom)
    sh->oom = 1;
  return sh->oom;
}

/* Names in columns, as .tables and .indexes print them. */
static void print_columns(sq_shell *sh, names *nm) {
  if (!nm->n)
    return;
  const size_t *off = (const size_t *)nm->offs.data;
  int maxlen = 0;
  for (size_t i = 0; i < nm->n; i++) {
    int k = (int)strlen(nm->text.data + off[i]);
    if (k > maxlen)
      maxlen = k;
  }
  int ncol = 80 / (maxlen + 2);
  if (ncol < 1)
    ncol = 1;
  size_t nrow = (nm->n + (size_t)ncol - 1) / (size_t)ncol;
  for (size_t i = 0; i < nrow && !sh->w.err; i++) {
    for (size_t j = i; j < nm->n; j += nrow)
      wr_printf(&sh->w, "%s%-*s", j < nrow ? "" : "  ", maxlen,
                nm->text.data + off[j]);
    wr_putc(&sh->w, '\n');
  }
}

static int dot_tables(sq_shell *sh, int argc, char **argv) {
  bi_ctx *c = sh->c;
  names dbs = {0}, tabs = {0};
  buf_init(&dbs.text, c->m);
  buf_init(&dbs.offs, c->m);
  buf_init(&tabs.text, c->m);
  buf_init(&tabs.offs, c->m);
  /* the names of the schemas */
  sqlite3_stmt *st;
  int rc = 0;
  if (sqlite3_prepare_v2(sh->db, "SELECT name FROM pragma_database_list", -1,
                         &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW)
      if (collect_name(sh, st, &dbs))
        break;
    rc = sqlite3_finalize(st) != SQLITE_OK;
  } else {
    rc = 1;
  }
  if (rc && !sh->oom)
    stream_printf(c->err, "Error: %s\n", sqlite3_errmsg(sh->db));
  if (sh->oom || rc)
    dbs.n = 0;
  sqlite3_str *q = sqlite3_str_new(sh->db);
  const size_t *doff = (const size_t *)dbs.offs.data;
  for (size_t i = 0; i < dbs.n; i++) {
    const char *db = dbs.text.data + doff[i];
    if (i)
      sqlite3_str_appendall(q, " UNION ALL ");
    if (!strcmp(db, "main"))
      sqlite3_str_appendf(q, "SELECT name FROM \"main\".sqlite_schema");
    else
      sqlite3_str_appendf(q, "SELECT %Q||'.'||name FROM \"%w\".sqlite_schema",
                          db, db);
    sqlite3_str_appendf(q,
                        " WHERE type IN ('table','view')"
                        "   AND name NOT LIKE 'sqlite_%%'"
                        "   AND name LIKE %Q",
                        argc > 1 ? argv[1] : "%");
  }
  sqlite3_str_appendall(q, " ORDER BY 1");
  char *sql = sqlite3_str_finish(q);
  if (!sql || !dbs.n || rc)
    rc = 1;
  else
    rc = each_row(sh, sql, collect_name, &tabs);
  sqlite3_free(sql);
  if (!rc && !sh->oom)
    print_columns(sh, &tabs);
  buf_free(&dbs.text);
  buf_free(&dbs.offs);
  buf_free(&tabs.text);
  buf_free(&tabs.offs);
  return rc;
}

/* ---- .schema ------------------------------------------------------------- */

/* The column names of a view or table as ".schema" adds them after a
 * view: "/ * name(a,b) * /". */
static void add_view_columns(sq_shell *sh, const char *schema, const char *name,
                             sqlite3_str *out) {
  char *q = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q,%Q)", name,
                            schema);
  sqlite3_stmt *st;
  if (!q || sqlite3_prepare_v2(sh->db, q, -1, &st, NULL) != SQLITE_OK) {
    sqlite3_free(q);
    return;
  }
  sqlite3_free(q);
  sqlite3_str_appendf(out, "\n/* %s(", name);
  int k = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *col = (const char *)sqlite3_column_text(st, 0);
    int plain = col && *col && !(*col >= '0' && *col <= '9');
    for (const char *p = col; p && *p && plain; p++)
      plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_';
    if (plain && sqlite3_keyword_check(col, (int)strlen(col)))
      plain = 0;
    sqlite3_str_appendf(out, plain ? "%s%s" : "%s\"%w\"", k++ ? "," : "",
                        col ? col : "");
  }
  sqlite3_finalize(st);
  sqlite3_str_appendall(out, ") */");
}

/* A CREATE statement as .schema and .dump write it: a table whose name is
 * quoted gets IF NOT EXISTS. */
static void put_create(sqlite3_str *s, const char *sql) {
  if (sqlite3_strglob("CREATE TABLE ['\"]*", sql) == 0) {
    sqlite3_str_appendall(s, "CREATE TABLE IF NOT EXISTS ");
    sqlite3_str_appendall(s, sql + 13);
  } else {
    sqlite3_str_appendall(s, sql);
  }
}

static int schema_row(sq_shell *sh, sqlite3_stmt *st, void *ud) {
  const char *sql = (const char *)sqlite3_column_text(st, 0);
  const char *type = (const char *)sqlite3_column_text(st, 1);
  const char *name = (const char *)sqlite3_column_text(st, 2);
  const char *schema = (const char *)sqlite3_column_text(st, 3);
  if (!sql)
    return 0;
  sqlite3_str *s = sqlite3_str_new(sh->db);
  put_create(s, sql);
  if (type && name && schema && !strcmp(type, "view"))
    add_view_columns(sh, schema, name, s);
  char *z = sqlite3_str_finish(s);
  if (!z) {
    sh->oom = 1;
    return 1;
  }
  wr_printf(&sh->w, "%s;\n", z);
  sqlite3_free(z);
  return 0;
}

static int dot_schema(sq_shell *sh, int argc, char **argv) {
  if (argc > 2) {
    stream_printf(sh->c->err, "Usage: .schema ?--indent? ?--nosys? "
                              "?LIKE-PATTERN?\n");
    return 1;
  }
  sqlite3_str *q = sqlite3_str_new(sh->db);
  sqlite3_stmt *st;
  int k = 0;
  if (sqlite3_prepare_v2(sh->db, "SELECT name FROM pragma_database_list", -1,
                         &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      const char *db = (const char *)sqlite3_column_text(st, 0);
      if (!db)
        continue;
      if (k)
        sqlite3_str_appendall(q, " UNION ALL ");
      sqlite3_str_appendf(q,
                          "SELECT sql, type, name, %Q AS sname, tbl_name, "
                          "rowid AS x, %d AS snum FROM \"%w\".sqlite_schema",
                          db, k, db);
      k++;
    }
    if (sqlite3_finalize(st) != SQLITE_OK)
      k = 0;
  }
  if (!k)
    stream_printf(sh->c->err, "Error: %s\n", sqlite3_errmsg(sh->db));
  char *u = sqlite3_str_finish(q);
  char *sql;
  if (argc > 1) {
    const char *pat = argv[1];
    int glob = strpbrk(pat, "*?[") != NULL;
    sql = sqlite3_mprintf(
        "SELECT sql, type, name, sname FROM (%s) WHERE %s %s %Q%s AND "
        "type!='meta' AND sql IS NOT NULL ORDER BY snum, x",
        u ? u : "SELECT 1",
        strchr(pat, '.') ? "lower(printf('%s.%s',sname,tbl_name))"
                         : "lower(tbl_name)",
        glob ? "GLOB" : "LIKE", pat, glob ? "" : " ESCAPE '\\'");
  } else {
    sql = sqlite3_mprintf("SELECT sql, type, name, sname FROM (%s) WHERE "
                          "type!='meta' AND sql IS NOT NULL ORDER BY snum, x",
                          u ? u : "SELECT 1");
  }
  sqlite3_free(u);
  if (!sql || !k) {
    sqlite3_free(sql);
    return 1;
  }
  int rc = each_row(sh, sql, schema_row, NULL);
  sqlite3_free(sql);
  return rc;
}

/* ---- .dump --------------------------------------------------------------- */

static int dump_rows(sq_shell *sh, const char *table) {
  int save_mode = sh->mode, save_header = sh->header;
  char save_table[sizeof sh->table];
  memcpy(save_table, sh->table, sizeof save_table);
  snprintf(sh->table, sizeof sh->table, "%s", table);
  sh->mode = SQ_INSERT;
  sh->header = 0;
  char *err = NULL;
  char *sel = sqlite3_mprintf("SELECT * FROM \"%w\"", table);
  int rc = sel ? sq_exec(sh, sel, &err) : SQLITE_NOMEM;
  sqlite3_free(sel);
  sqlite3_free(err);
  sh->mode = save_mode;
  sh->header = save_header;
  memcpy(sh->table, save_table, sizeof save_table);
  return rc != SQLITE_OK;
}

static int dump_obj(sq_shell *sh, sqlite3_stmt *st, void *ud) {
  const char *name = (const char *)sqlite3_column_text(st, 0);
  const char *type = (const char *)sqlite3_column_text(st, 1);
  const char *sql = (const char *)sqlite3_column_text(st, 2);
  if (!name || !type || !sql)
    return 0;
  if (!strcmp(name, "sqlite_sequence")) {
    wr_puts(&sh->w, "DELETE FROM sqlite_sequence;\n");
  } else if (!strncmp(name, "sqlite_stat", 11)) {
    wr_puts(&sh->w, "ANALYZE sqlite_schema;\n");
  } else if (!strncmp(name, "sqlite_", 7)) {
    return 0;
  } else {
    sqlite3_str *s = sqlite3_str_new(sh->db);
    put_create(s, sql);
    char *z = sqlite3_str_finish(s);
    if (!z) {
      sh->oom = 1;
      return 1;
    }
    wr_printf(&sh->w, "%s;\n", z);
    sqlite3_free(z);
  }
  if (!strcmp(type, "table") && dump_rows(sh, name))
    return 1;
  return sh->oom || (sh->c->bud && budget_poll(sh->c->bud));
}

static int dot_dump(sq_shell *sh, int argc, char **argv) {
  const char *like = argc > 1 ? argv[1] : NULL;
  char *filter = like ? sqlite3_mprintf(" AND name LIKE %Q", like)
                      : sqlite3_mprintf("%s", "");
  char *q1 = sqlite3_mprintf(
      "SELECT name, type, sql FROM sqlite_schema WHERE sql NOT NULL AND "
      "type=='table'%s ORDER BY tbl_name='sqlite_sequence', rowid",
      filter ? filter : "");
  char *q2 = sqlite3_mprintf(
      "SELECT name, type, sql FROM sqlite_schema WHERE sql NOT NULL AND "
      "type IN ('index','trigger','view')%s ORDER BY rowid",
      filter ? filter : "");
  int rc = 1;
  wr_puts(&sh->w, "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n");
  if (filter && q1 && q2) {
    rc = each_row(sh, q1, dump_obj, NULL);
    if (!rc)
      rc = each_row(sh, q2, dump_obj, NULL);
  }
  sqlite3_free(filter);
  sqlite3_free(q1);
  sqlite3_free(q2);
  wr_puts(&sh->w, rc ? "ROLLBACK; -- due to errors\n" : "COMMIT;\n");
  return rc;
}

/* ---- .read --------------------------------------------------------------- */

static int dot_read(sq_shell *sh, int argc, char **argv) {
  bi_ctx *c = sh->c;
  if (argc != 2) {
    stream_printf(c->err, "Usage: .read FILE\n");
    return 1;
  }
  if (sh->depth >= 25) {
    stream_printf(c->err, "Input nesting limit (25) reached at line 1. "
                          "Check recursion.\n");
    return 1;
  }
  int e = 0;
  stream *in = bi_open_read(c, argv[1], &e);
  if (!in) {
    stream_printf(c->err, "Error: cannot open \"%s\"\n", argv[1]);
    return 1;
  }
  int save = sh->in_stdin;
  sh->in_stdin = 1;
  sh->depth++;
  int errs = sq_input(sh, in);
  sh->depth--;
  sh->in_stdin = save;
  stream_unref(in);
  return errs ? 1 : 0;
}

/* ---- .output, .once ------------------------------------------------------ */

void sq_output_reset(sq_shell *sh) {
  if (!sh->redirect)
    return;
  wr_flush(&sh->w);
  int err = sh->w.err;
  stream_unref(sh->redirect);
  sh->redirect = NULL;
  sh->once = 0;
  wr_init(&sh->w, sh->c->out);
  if (err == ECANCELED)
    sh->w.err = err;
}

static int dot_output(sq_shell *sh, int argc, char **argv, int once) {
  bi_ctx *c = sh->c;
  const char *file = NULL;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1]) {
      stream_printf(c->err,
                    "ERROR: unknown option: \"%s\".  Usage:\n"
                    ".%s ?FILE?\n",
                    argv[i], once ? "once" : "output");
      return 1;
    }
    if (file) {
      stream_printf(c->err,
                    "ERROR: extra parameter: \"%s\".  Usage:\n"
                    ".%s ?FILE?\n",
                    argv[i], once ? "once" : "output");
      return 1;
    }
    file = argv[i];
  }
  sq_output_reset(sh);
  if (!file || (!once && !strcmp(file, "stdout")))
    return 0;
  if (file[0] == '|') {
    stream_printf(c->err,
                  "Error: cannot run \"%s\": the sandbox starts no "
                  "processes\n",
                  file + 1);
    return 1;
  }
  int e = 0;
  stream *s = tu_open_write(c, file, 0, &e);
  if (!s) {
    stream_printf(c->err, "Error: cannot open \"%s\"\n", file);
    stream_printf(c->err, "Error: cannot write to \"%s\"\n", file);
    return 1;
  }
  wr_flush(&sh->w);
  sh->redirect = s;
  sh->once = once;
  wr_init(&sh->w, s);
  return 0;
}

/* ---- .indexes, .databases -------------------------------------------------
 */

static int dot_indexes(sq_shell *sh, int argc, char **argv) {
  bi_ctx *c = sh->c;
  if (argc > 2) {
    stream_printf(c->err, "Usage: .indexes ?LIKE-PATTERN?\n");
    return 1;
  }
  names ix = {0};
  buf_init(&ix.text, c->m);
  buf_init(&ix.offs, c->m);
  char *sql = sqlite3_mprintf(
      "SELECT name FROM sqlite_schema WHERE type='index'%s%Q%s ORDER BY 1",
      argc > 1 ? " AND tbl_name LIKE " : "", argc > 1 ? argv[1] : "", "");
  if (argc == 1) {
    sqlite3_free(sql);
    sql = sqlite3_mprintf(
        "SELECT name FROM sqlite_schema WHERE type='index' ORDER BY 1");
  }
  int rc = sql ? each_row(sh, sql, collect_name, &ix) : 1;
  sqlite3_free(sql);
  if (!rc && !sh->oom)
    print_columns(sh, &ix);
  buf_free(&ix.text);
  buf_free(&ix.offs);
  return rc;
}

static int db_row(sq_shell *sh, sqlite3_stmt *st, void *ud) {
  const char *name = (const char *)sqlite3_column_text(st, 1);
  const char *file = (const char *)sqlite3_column_text(st, 2);
  if (!name)
    return 0;
  int ro = sqlite3_db_readonly(sh->db, name);
  wr_printf(&sh->w, "%s: %s %s\n", name, file ? file : "", ro ? "r/o" : "r/w");
  return 0;
}

/* ---- dispatch ------------------------------------------------------------ */

static const char dot_help[] =
    ".dump ?PATTERN?          SQL text that rebuilds the tables matching "
    "PATTERN\n"
    ".bail on|off             stop at the first error or not\n"
    ".databases               the attached databases and their files\n"
    ".echo on|off             print each command before running it or not\n"
    ".exit ?CODE?             leave with status CODE\n"
    ".headers on|off          column names before the rows or not\n"
    ".help                    this list\n"
    ".import FILE TABLE       rows of FILE (CSV with --csv) into TABLE\n"
    ".indexes ?TABLE?         names of the indexes (of the matching tables)\n"
    ".mode MODE ?TABLE?       the output mode (ascii box column csv html\n"
    "                         insert json line list markdown qbox quote\n"
    "                         table tabs tcl)\n"
    ".nullvalue STRING        the text shown for NULL values\n"
    ".once FILE               the next command's output into FILE\n"
    ".output ?FILE?           output into FILE (none: standard output)\n"
    ".print STRING...         print the words\n"
    ".quit                    stop reading input\n"
    ".read FILE               run the SQL and commands of FILE\n"
    ".schema ?PATTERN?        the CREATE statements of matching tables\n"
    ".separator COL ?ROW?     column and row separators of the text modes\n"
    ".show                    the current settings\n"
    ".tables ?PATTERN?        names of tables and views matching PATTERN\n"
    ".width N...              column widths of the columnar modes (negative:\n"
    "                         right-justified; 0: as wide as the values)\n";

static int is_cmd(const char *word, const char *name, size_t min) {
  size_t n = strlen(word);
  return n >= min && n <= strlen(name) && !strncmp(word, name, n);
}

static void show_sep(writer *w, const char *s) {
  wr_putc(w, '"');
  for (; *s; s++) {
    if (*s == '\n')
      wr_puts(w, "\\n");
    else if (*s == '\r')
      wr_puts(w, "\\r");
    else if (*s == '\t')
      wr_puts(w, "\\t");
    else if ((unsigned char)*s < ' ')
      wr_printf(w, "\\%03o", (unsigned char)*s);
    else
      wr_putc(w, *s);
  }
  wr_putc(w, '"');
}

int sq_dot(sq_shell *sh, const char *line) {
  bi_ctx *c = sh->c;
  size_t len = strlen(line);
  char *space = mem_alloc(c->m, len + 1);
  if (!space) {
    sh->oom = 1;
    return 1;
  }
  char *av[SQ_MAXARGS + 1];
  int ac = split_args(line + 1, space, av);
  av[ac] = NULL;
  int rc = 0;
  if (ac == 0) {
    rc = 0;
  } else if (is_cmd(av[0], "headers", 1)) {
    if (ac != 2) {
      stream_printf(c->err, "Usage: .headers on|off\n");
      rc = 1;
    } else {
      sh->header = boolean_value(sh, av[1]);
      sh->header_set = 1;
    }
  } else if (is_cmd(av[0], "mode", 1)) {
    if (ac == 1) {
      /* names the mode, and sets it again (its separators too) */
      wr_printf(&sh->w, "current output mode: %s\n", mode_names[sh->mode]);
      sq_set_mode(sh, mode_names[sh->mode]);
    } else if (sq_set_mode(sh, av[1]) < 0) {
      stream_printf(c->err,
                    "Error: mode should be one of: ascii box column csv "
                    "html insert json line list markdown qbox quote table "
                    "tabs tcl\n");
      rc = 1;
    } else {
      /* the options of the columnar modes; other words are let be, as the
       * real shell lets them be */
      for (int i = 2; i < ac; i++) {
        if (!strcmp(av[i], "--wrap") && i + 1 < ac)
          sh->wrap = atoi(av[++i]);
        else if (!strcmp(av[i], "--wordwrap") && i + 1 < ac)
          sh->wordwrap = boolean_value(sh, av[++i]);
        else if (!strcmp(av[i], "--ww"))
          sh->wordwrap = 1;
      }
      if (sh->mode == SQ_INSERT)
        snprintf(sh->table, sizeof sh->table, "%s", ac > 2 ? av[2] : "table");
      if (sh->mode == SQ_COLUMN && !sh->header_set)
        sh->header = 1;
    }
  } else if (is_cmd(av[0], "separator", 2)) {
    if (ac < 2 || ac > 3) {
      stream_printf(c->err, "Usage: .separator COL ?ROW?\n");
      rc = 1;
    } else {
      unescape(av[1]);
      set_seps(sh, av[1], NULL);
      if (ac > 2) {
        unescape(av[2]);
        set_seps(sh, NULL, av[2]);
      }
    }
  } else if (is_cmd(av[0], "nullvalue", 2)) {
    if (ac != 2) {
      stream_printf(c->err, "Usage: .nullvalue STRING\n");
      rc = 1;
    } else {
      unescape(av[1]);
      snprintf(sh->nullvalue, sizeof sh->nullvalue, "%s", av[1]);
    }
  } else if (is_cmd(av[0], "tables", 2)) {
    rc = sq_open(sh) ? 1 : dot_tables(sh, ac, av);
  } else if (is_cmd(av[0], "schema", 2)) {
    rc = sq_open(sh) ? 1 : dot_schema(sh, ac, av);
  } else if (is_cmd(av[0], "dump", 1)) {
    rc = sq_open(sh) ? 1 : dot_dump(sh, ac, av);
  } else if (is_cmd(av[0], "indexes", 3) || is_cmd(av[0], "indices", 3)) {
    rc = sq_open(sh) ? 1 : dot_indexes(sh, ac, av);
  } else if (is_cmd(av[0], "databases", 2)) {
    rc = sq_open(sh) ? 1 : each_row(sh, "PRAGMA database_list", db_row, NULL);
  } else if (is_cmd(av[0], "output", 3)) {
    rc = dot_output(sh, ac, av, 0);
  } else if (is_cmd(av[0], "once", 2)) {
    rc = dot_output(sh, ac, av, 1);
  } else if (is_cmd(av[0], "width", 1)) {
    sh->nwidths = 0;
    for (int i = 1; i < ac && sh->nwidths < (int)(sizeof sh->widths /
                                                  sizeof sh->widths[0]);
         i++) {
      long v = strtol(av[i], NULL, 10);
      if (v > 30000)
        v = 30000;
      if (v < -30000)
        v = -30000;
      sh->widths[sh->nwidths++] = (int)v;
    }
  } else if (is_cmd(av[0], "print", 2)) {
    for (int i = 1; i < ac; i++) {
      unescape(av[i]);
      wr_printf(&sh->w, "%s%s", i > 1 ? " " : "", av[i]);
    }
    wr_putc(&sh->w, '\n');
  } else if (is_cmd(av[0], "echo", 2) || is_cmd(av[0], "bail", 2)) {
    int echo = av[0][0] == 'e';
    if (ac != 2) {
      stream_printf(c->err, "Usage: .%s on|off\n", echo ? "echo" : "bail");
      rc = 1;
    } else if (echo) {
      sh->echo = boolean_value(sh, av[1]);
    } else {
      sh->bail = boolean_value(sh, av[1]);
    }
  } else if (is_cmd(av[0], "import", 2)) {
    rc = sq_open(sh) ? 1 : sq_import(sh, ac, av);
  } else if (is_cmd(av[0], "read", 3)) {
    rc = dot_read(sh, ac, av);
  } else if (is_cmd(av[0], "quit", 1)) {
    rc = 2;
  } else if (is_cmd(av[0], "exit", 2)) {
    sh->quit = 1;
    sh->exit_code = ac > 1 ? atoi(av[1]) : 0;
    rc = 2;
  } else if (is_cmd(av[0], "help", 2)) {
    wr_puts(&sh->w, dot_help);
  } else if (is_cmd(av[0], "show", 2)) {
    writer *w = &sh->w;
    wr_printf(w, "%12.12s: %s\n", "echo", sh->echo ? "on" : "off");
    wr_printf(w, "%12.12s: off\n%12.12s: auto\n", "eqp", "explain");
    wr_printf(w, "%12.12s: %s\n", "headers", sh->header ? "on" : "off");
    wr_printf(w, "%12.12s: %s\n", "mode", mode_names[sh->mode]);
    wr_printf(w, "%12.12s: ", "nullvalue");
    show_sep(w, sh->nullvalue);
    wr_printf(w, "\n%12.12s: stdout\n%12.12s: ", "output", "colseparator");
    show_sep(w, sh->colsep);
    wr_printf(w, "\n%12.12s: ", "rowseparator");
    show_sep(w, sh->rowsep);
    wr_printf(w, "\n%12.12s: off\n%12.12s: ", "stats", "width");
    for (int i = 0; i < sh->nwidths; i++)
      wr_printf(w, "%d ", sh->widths[i]);
    wr_printf(w, "\n%12.12s: %s\n", "filename", sh->dbname);
  } else {
    stream_printf(c->err,
                  "Error: unknown command or invalid arguments:  \"%s\". "
                  "Enter \".help\" for help\n",
                  av[0]);
    rc = 1;
  }
  mem_free(c->m, space);
  return rc;
}
