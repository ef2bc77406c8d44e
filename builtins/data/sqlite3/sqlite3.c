/*
 * sqlite3.c - the sqlite3 command: the command-line shell of SQLite 3.40
 * (Debian 12) over a database file of the sandbox.
 *
 *   sqlite3 [OPTIONS] [FILE] [SQL|.COMMAND]...
 *
 * SQL comes from the arguments after FILE, else from standard input, where
 * statements are cut where sqlite3_complete says one ends and lines that
 * start with '.' are dot commands (dot.c). Messages, their "near line N"
 * prefixes and the exit statuses are those of the real shell.
 *
 * Limits. The connection's files go through vfs.c (sandbox files and
 * quota). SQLite's own heap is process-global (sqlite3_config and the heap
 * limits would change it for every user of the library in the embedding
 * process), so this command bounds what one connection can take instead:
 *   - a progress handler runs every few hundred VDBE steps and polls the
 *     exec's budget (deadline, cancel, limits), so a runaway query such as
 *     an endless recursive CTE ends like any other command at the deadline;
 *     it also ends the command with the memory limit when SQLite's heap has
 *     grown, since the command began, past what the sandbox may still use;
 *   - sqlite3_limit caps one value or SQL text at the sandbox's longest
 *     string (max_string_bytes), so no single allocation is larger;
 *   - the page cache is at most 2 MiB (its default), or a sixteenth of the
 *     sandbox's memory when that is less; sorts and temporary tables beyond
 *     it spill to temporary files held by the sandbox allocator (vfs.c);
 *   - memory-mapped I/O stays off (mmap_size 0).
 * Nothing from SQL reaches the host: extension loading is off, ATTACH and
 * VACUUM INTO refuse URI file names (they could name another VFS), the
 * pragmas that set process-wide state (hard_heap_limit, soft_heap_limit,
 * temp_store_directory, data_store_directory) are refused, the
 * fts3_tokenizer pointer form is disabled, and defensive mode is on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/sqlite3/sq.h"
#include "builtins/textutil.h"
#include "core/buf.h"
#include "vfs/vfs.h"

const char bi_usage_sqlite3[] = "Usage: sqlite3 [OPTIONS] [FILENAME [SQL...]]";
const char bi_help_sqlite3[] =
    "Open the SQLite database FILENAME (a sandbox file, created when\n"
    "missing; \":memory:\" or none: a database in memory) and run each SQL\n"
    "argument, or else the SQL read from standard input. An argument or\n"
    "input line that starts with '.' is a shell command: .tables, .schema,\n"
    ".mode, .headers, .separator, .nullvalue, .dump, .read, .show, .quit,\n"
    ".exit, .help. Options may be written with one dash or two.\n"
    "\n"
    "  -ascii             output mode 'ascii' (0x1F and 0x1E separators)\n"
    "  -bail              stop at the first error\n"
    "  -batch             read standard input as a script (always so here)\n"
    "  -box               output mode 'box'\n"
    "  -column            output mode 'column'\n"
    "  -cmd COMMAND       run COMMAND (SQL or a dot command) first\n"
    "  -csv               output mode 'csv'\n"
    "  -echo              print each statement before running it\n"
    "  -header, -noheader show column names, or do not\n"
    "  -html              output mode 'html'\n"
    "  -init FILE         run the SQL and commands of FILE first\n"
    "  -json              output mode 'json'\n"
    "  -line              output mode 'line'\n"
    "  -list              output mode 'list' (the default)\n"
    "  -markdown          output mode 'markdown'\n"
    "  -newline SEP       the row separator (default: newline)\n"
    "  -nofollow          refuse a database file that is a symbolic link\n"
    "  -nullvalue TEXT    the text shown for NULL (default: empty)\n"
    "  -quote             output mode 'quote'\n"
    "  -readonly          open the database read-only\n"
    "  -safe              safe mode (the sandbox is always so)\n"
    "  -separator SEP     the column separator (default: '|')\n"
    "  -table             output mode 'table'\n"
    "  -tabs              output mode 'tabs'\n"
    "  -version           print the SQLite library version\n"
    "  -help              print this help\n"
    "\n"
    "Database files, their journals and temporary files live in the\n"
    "sandbox. Options about the host's memory, memory maps, other VFSes,\n"
    "archives and interactive use are refused.\n";

/* ---- the connection -------------------------------------------------------
 */

typedef struct sq_guard {
  sq_shell *sh;
  sqlite3_int64 base; /* SQLite's heap when the command began */
  uint64_t room;      /* what the sandbox may still use, in bytes */
} sq_guard;

static int progress(void *ud) {
  sq_guard *g = ud;
  bi_ctx *c = g->sh->c;
  if (budget_poll(c->bud))
    return 1;
  sqlite3_int64 grown = sqlite3_memory_used() - g->base;
  if (grown > 0 && (uint64_t)grown > g->room) {
    budget_set_stop(c->bud, BUDGET_MEMORY, 0);
    return 1;
  }
  return 0;
}

static int starts_uri(const char *z) {
  return z && !sqlite3_strnicmp(z, "file:", 5);
}

/* Refuses what could leave the sandbox: ATTACH (and VACUUM INTO, which
 * attaches) of a URI, which may name another VFS, an ATTACH whose file
 * name is computed (it cannot be checked here), and pragmas that change
 * the whole process. */
static int authorize(void *ud, int action, const char *a1, const char *a2,
                     const char *a3, const char *a4) {
  if (action == SQLITE_ATTACH && (!a1 || starts_uri(a1)))
    return SQLITE_DENY;
  /* Pragmas that set process-wide state: the heap limits of every SQLite
   * user in the embedding process, and the host directories of the unix
   * VFS. Reading them is harmless. */
  if (action == SQLITE_PRAGMA && a1 && a2 &&
      (!sqlite3_stricmp(a1, "hard_heap_limit") ||
       !sqlite3_stricmp(a1, "soft_heap_limit") ||
       !sqlite3_stricmp(a1, "temp_store_directory") ||
       !sqlite3_stricmp(a1, "data_store_directory")))
    return SQLITE_DENY;
  return SQLITE_OK;
}

static int open_db(sq_shell *sh, const char *name, int readonly, int nofollow,
                   sq_guard *g) {
  bi_ctx *c = sh->c;
  int rc = sq_vfs_init(&sh->sv, c);
  if (rc != SQLITE_OK) {
    stream_printf(c->err, "Error: unable to open database \"%s\": %s\n", name,
                  sqlite3_errstr(rc));
    return 1;
  }
  sh->sv_live = 1;
  /* A name SQLite cannot take for a URI: relative ones become absolute. */
  const char *path = name;
  if (strcmp(name, ":memory:") && *name && name[0] != '/')
    path = bi_path(c, name);
  int flags = readonly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (nofollow)
    flags |= SQLITE_OPEN_NOFOLLOW;
  rc = sqlite3_open_v2(path ? path : name, &sh->db, flags, sh->sv.name);
  if (rc != SQLITE_OK) {
    stream_printf(c->err, "Error: unable to open database \"%s\": %s\n", name,
                  sh->db ? sqlite3_errmsg(sh->db) : sqlite3_errstr(rc));
    sqlite3_close(sh->db);
    sh->db = NULL;
    return 1;
  }
  sqlite3 *db = sh->db;
  sqlite3_extended_result_codes(db, 0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  uint64_t maxstr = c->bud->lim.max_string_bytes;
  if (!maxstr || maxstr > 1000000000)
    maxstr = 1000000000;
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, (int)maxstr);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, (int)maxstr);
  size_t cap = mem_cap(c->m);
  uint64_t room = cap ? cap : ((uint64_t)1 << 30);
  size_t used = mem_used(c->m);
  g->room = room > used ? room - used : 0;
  g->base = sqlite3_memory_used();
  g->sh = sh;
  long cache_kib = (long)(room / 16 / 1024);
  if (cache_kib > 2000)
    cache_kib = 2000;
  if (cache_kib < 64)
    cache_kib = 64;
  char pragma[64];
  snprintf(pragma, sizeof pragma, "PRAGMA cache_size=-%ld", cache_kib);
  sqlite3_exec(db, pragma, NULL, NULL, NULL);
  sqlite3_exec(db, "PRAGMA mmap_size=0", NULL, NULL, NULL);
  sqlite3_set_authorizer(db, authorize, NULL);
  sqlite3_progress_handler(db, 200, progress, g);
  return 0;
}

int sq_open(sq_shell *sh) {
  if (sh->db)
    return 0;
  if (sh->open_failed ||
      open_db(sh, sh->dbname, sh->ro, sh->nofollow, sh->guard)) {
    sh->open_failed = 1;
    sh->quit = 1;
    sh->exit_code = 1;
    return 1;
  }
  return 0;
}

static void close_db(sq_shell *sh) {
  if (sh->db)
    sqlite3_close_v2(sh->db);
  sh->db = NULL;
  if (sh->sv_live)
    sq_vfs_done(&sh->sv);
  sh->sv_live = 0;
}

/* ---- input ----------------------------------------------------------------
 */

static int all_space(const char *z) {
  for (; *z; z++)
    if (!(*z == ' ' || (*z >= '\t' && *z <= '\r')))
      return 0;
  return 1;
}

/* Runs one complete chunk of input SQL; 1 when it failed. */
static int run_chunk(sq_shell *sh, const char *sql, int startline) {
  bi_ctx *c = sh->c;
  char *err = NULL;
  if (sh->echo)
    wr_printf(&sh->w, "%s\n", sql);
  int rc = sq_exec(sh, sql, &err);
  if (sh->once)
    sq_output_reset(sh);
  if (rc == SQLITE_OK && !err)
    return 0;
  if (budget_poll(c->bud) || sh->w.err || sh->oom) {
    sqlite3_free(err);
    return 1;
  }
  const char *type = "Error", *tail = err ? err : sqlite3_errmsg(sh->db);
  if (err && !strncmp(err, "in prepare, ", 12)) {
    type = "Parse error";
    tail = err + 12;
  } else if (err && !strncmp(err, "stepping, ", 10)) {
    type = "Runtime error";
    tail = err + 10;
  }
  wr_flush(&sh->w);
  stream_printf(c->err, "%s near line %d: %s\n", type, startline, tail);
  sqlite3_free(err);
  return 1;
}

int sq_input(sq_shell *sh, stream *in) {
  bi_ctx *c = sh->c;
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, &sh->w);
  buf sql;
  buf_init(&sql, c->m);
  int errs = 0, lineno = 0, startline = 0;
  const char *line;
  size_t len;
  while (!(errs && sh->bail) && !sh->quit) {
    int k = rd_record(&r, '\n', &line, &len);
    if (k <= 0)
      break;
    lineno++;
    if (len && line[len - 1] == '\n')
      len--;
    if (memchr(line, 0, len))
      len = strlen(line);
    char *ln = mem_strndup(c->m, line, len);
    if (!ln) {
      sh->oom = 1;
      break;
    }
    if (sql.len == 0 && all_space(ln)) {
      mem_free(c->m, ln);
      continue;
    }
    if (sql.len == 0 && (ln[0] == '.' || ln[0] == '#')) {
      if (sh->echo)
        wr_printf(&sh->w, "%s\n", ln);
      if (ln[0] == '.') {
        wr_flush(&sh->w);
        int rc = sq_dot(sh, ln);
        if (rc == 2) {
          mem_free(c->m, ln);
          break;
        }
        errs += rc != 0;
      }
      mem_free(c->m, ln);
      if (sh->w.err || sh->oom)
        break;
      continue;
    }
    if (sql.len == 0) {
      const char *p = ln;
      while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
      buf_puts(&sql, p);
      startline = lineno;
    } else {
      buf_putc(&sql, '\n');
      buf_puts(&sql, ln);
    }
    mem_free(c->m, ln);
    if (sql.oom) {
      sh->oom = 1;
      break;
    }
    if (sqlite3_complete(buf_cstr(&sql))) {
      errs += run_chunk(sh, buf_cstr(&sql), startline);
      buf_clear(&sql);
    }
    if (sh->w.err || sh->oom || budget_poll(c->bud))
      break;
  }
  if (r.err && r.err != ECANCELED)
    tu_file_error(c, "stdin", r.err);
  else if (sql.len && !all_space(buf_cstr(&sql)) && !sh->w.err && !sh->oom &&
           !budget_poll(c->bud) && !(errs && sh->bail) && !sh->quit)
    errs += run_chunk(sh, buf_cstr(&sql), startline);
  buf_free(&sql);
  rd_free(&r);
  return errs;
}

/* ---- options --------------------------------------------------------------
 */

/* Options with a value, and those refused here. */
static int takes_value(const char *z) {
  static const char *const v[] = {"separator", "nullvalue", "newline", "cmd",
                                  "init",      "nonce",     "vfs",     "mmap",
                                  "maxsize",   NULL};
  for (int i = 0; v[i]; i++)
    if (!strcmp(z, v[i]))
      return 1;
  return !strcmp(z, "lookaside") || !strcmp(z, "pagecache") ? 2 : 0;
}

static int refused(const char *z) {
  static const char *const v[] = {
      "A",       "append",   "deserialize", "interactive", "lookaside",
      "maxsize", "memtrace", "mmap",        "pagecache",   "stats",
      "vfs",     "zip",      NULL};
  for (int i = 0; v[i]; i++)
    if (!strcmp(z, v[i]))
      return 1;
  return 0;
}

/* Separators given as options are taken as they are (no escapes). */
static void sep_opt(char *dst, size_t cap, const char *v) {
  snprintf(dst, cap, "%s", v);
}

/* A -cmd or argument: a dot command or SQL. 0, or the status to leave
 * with (after printing the error). cmdline: from -cmd (errors go on
 * unless -bail). */
static int run_arg(sq_shell *sh, const char *z, int from_cmd, int *leave) {
  bi_ctx *c = sh->c;
  *leave = 0;
  if (z[0] == '.') {
    wr_flush(&sh->w);
    int rc = sq_dot(sh, z);
    if (sh->quit) {
      *leave = 1;
      return sh->exit_code;
    }
    if (rc && (!from_cmd || sh->bail)) {
      *leave = 1;
      return rc == 2 ? 0 : rc;
    }
    return 0;
  }
  char *err = NULL;
  int rc = sq_exec(sh, z, &err); /* .once lasts to the end of arguments */
  if (rc == SQLITE_OK && !err)
    return 0;
  if (sh->open_failed) {
    *leave = 1;
    return 1;
  }
  if (budget_poll(c->bud) || sh->w.err || sh->oom) {
    sqlite3_free(err);
    *leave = 1;
    return sh->w.err ? bi_stream_status(sh->w.err) : 1;
  }
  wr_flush(&sh->w);
  if (err)
    stream_printf(c->err, "Error: %s\n", err);
  else
    stream_printf(c->err, "Error: unable to process SQL: %s\n", z);
  sqlite3_free(err);
  if (!from_cmd || sh->bail) {
    *leave = 1;
    return rc ? rc : 1;
  }
  return 0;
}

int bi_sqlite3(bi_ctx *c) {
  sq_shell sh;
  memset(&sh, 0, sizeof sh);
  sh.c = c;
  sh.mode = SQ_LIST;
  strcpy(sh.colsep, "|");
  strcpy(sh.rowsep, "\n");
  strcpy(sh.table, "table");
  wr_init(&sh.w, c->out);
  const char *argv0 = c->argv[0];
  const char *file = NULL;
  const char *init = NULL;
  int ncmd = 0, readonly = 0, nofollow = 0;
  char **cmds = mem_calloc(c->m, (size_t)c->argc + 1, sizeof *cmds);
  if (!cmds) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  int status = 0;
  /* First pass: the file, the SQL arguments, and options that must be
   * known before the database opens. */
  for (int i = 1; i < c->argc; i++) {
    const char *z = c->argv[i];
    if (z[0] != '-') {
      if (!file)
        file = z;
      else
        cmds[ncmd++] = c->argv[i];
      continue;
    }
    if (z[1] == '-')
      z++;
    const char *o = z + 1;
    int nv = takes_value(o);
    if (nv && i + nv >= c->argc) {
      stream_printf(c->err, "%s: Error: missing argument to %s\n", argv0,
                    c->argv[c->argc - 1]);
      status = 1;
      goto out;
    }
    if (refused(o)) {
      stream_printf(c->err,
                    "%s: Error: option %s is not available in the sandbox\n",
                    argv0, c->argv[i]);
      status = 1;
      goto out;
    }
    if (!strcmp(o, "help")) {
      status = bi_print_help(c);
      goto out;
    }
    if (!strcmp(o, "init"))
      init = c->argv[i + 1];
    else if (!strcmp(o, "readonly"))
      readonly = 1;
    else if (!strcmp(o, "nofollow"))
      nofollow = 1;
    else if (!strcmp(o, "bail"))
      sh.bail = 1;
    else if (nv || !strcmp(o, "batch") || !strcmp(o, "safe") ||
             !strcmp(o, "echo") || !strcmp(o, "version") ||
             !strcmp(o, "header") || !strcmp(o, "noheader") ||
             sq_mode_index(o) >= 0)
      ; /* the second pass applies them */
    else {
      stream_printf(c->err,
                    "%s: Error: unknown option: %s\nUse -help for a list of "
                    "options.\n",
                    argv0, z);
      status = 1;
      goto out;
    }
    i += nv;
  }
  if (!file)
    file = ":memory:";
  sh.dbname = file;
  sq_guard guard;
  sh.ro = readonly;
  sh.nofollow = nofollow;
  sh.guard = &guard;
  if (!strcmp(file, ":memory:") || !*file || vfs_exists(c->vfs, c->cwd, file)) {
    if (sq_open(&sh)) {
      status = 1;
      goto out;
    }
  }
  if (init) {
    int e = 0;
    stream *in = bi_open_read(c, init, &e);
    if (!in)
      stream_printf(c->err, "Error: cannot open \"%s\"\n", init);
    else {
      sh.in_stdin = 1;
      int errs = sq_input(&sh, in);
      stream_unref(in);
      if (errs && sh.bail) {
        status = 1;
        goto out;
      }
    }
  }
  /* Second pass: output options and -cmd, in order. */
  for (int i = 1; i < c->argc; i++) {
    const char *z = c->argv[i];
    if (z[0] != '-')
      continue;
    if (z[1] == '-')
      z++;
    const char *o = z + 1;
    int nv = takes_value(o);
    if (!strcmp(o, "separator") || !strcmp(o, "csv") || !strcmp(o, "tabs") ||
        !strcmp(o, "ascii")) {
      if (!strcmp(o, "separator"))
        sep_opt(sh.colsep, sizeof sh.colsep, c->argv[i + 1]);
      else {
        char keep[sizeof sh.rowsep];
        memcpy(keep, sh.rowsep, sizeof keep);
        sq_set_mode(&sh, o);
        if (strcmp(o, "ascii"))
          memcpy(sh.rowsep, keep, sizeof keep);
      }
    } else if (!strcmp(o, "newline")) {
      sep_opt(sh.rowsep, sizeof sh.rowsep, c->argv[i + 1]);
    } else if (!strcmp(o, "nullvalue")) {
      snprintf(sh.nullvalue, sizeof sh.nullvalue, "%s", c->argv[i + 1]);
    } else if (!strcmp(o, "header")) {
      sh.header = sh.header_set = 1;
    } else if (!strcmp(o, "noheader")) {
      sh.header = 0;
      sh.header_set = 1;
    } else if (!strcmp(o, "echo")) {
      sh.echo = 1;
    } else if (!strcmp(o, "version")) {
      wr_printf(&sh.w, "%s %s\n", sqlite3_libversion(), sqlite3_sourceid());
      goto out;
    } else if (!strcmp(o, "cmd")) {
      int leave;
      int rc = run_arg(&sh, c->argv[i + 1], 1, &leave);
      if (leave) {
        status = rc;
        goto out;
      }
    } else if (!strcmp(o, "quote")) {
      sq_set_mode(&sh, o);
    } else if (!nv && sq_mode_index(o) >= 0) {
      sh.mode = sq_mode_index(o); /* the separators stay as they are */
    }
    i += nv;
  }
  if (ncmd > 0) {
    for (int i = 0; i < ncmd; i++) {
      int leave;
      int rc = run_arg(&sh, cmds[i], 0, &leave);
      if (leave) {
        status = rc;
        goto out;
      }
    }
  } else {
    sh.in_stdin = 1;
    int errs = sq_input(&sh, c->in);
    status = sh.quit ? sh.exit_code : errs > 0;
  }
out:
  sq_output_reset(&sh);
  close_db(&sh);
  if (wr_flush(&sh.w) && !status)
    status = bi_stream_status(sh.w.err);
  if (sh.oom && !budget_poll(c->bud)) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    status = 1;
  }
  mem_free(c->m, cmds);
  return status;
}
