/*
 * sq.h - the sqlite3 command (the SQLite 3.40 command-line shell) over the
 * sandbox's files: the pieces shared by its files.
 *
 *   vfs.c      a sqlite3_vfs whose files are the sandbox's (sq_vfs_*)
 *   out.c      the output modes (list, csv, json, line, column, ...)
 *   dot.c      the dot commands (.tables, .schema, .mode, ...)
 *   sqlite3.c  options, the connection and its limits, reading SQL
 */
#ifndef VSH_BUILTINS_DATA_SQLITE3_SQ_H
#define VSH_BUILTINS_DATA_SQLITE3_SQ_H

#include <sqlite3.h>

#include "builtins/builtin.h"

/* One registered sqlite3_vfs, alive for one connection (vfs.c). */
typedef struct sq_vfs {
  sqlite3_vfs base;
  char name[64];
  bi_ctx *c;
  int registered;
} sq_vfs;

/* Registers a VFS with a name no other connection uses, whose files are
 * c's sandbox files. 0, or an SQLite error code. */
int sq_vfs_init(sq_vfs *sv, bi_ctx *c);
/* Unregisters it (after sqlite3_close of its connection). */
void sq_vfs_done(sq_vfs *sv);

/* Output modes, in the order .mode names them. */
enum {
  SQ_ASCII,
  SQ_BOX,
  SQ_COLUMN,
  SQ_CSV,
  SQ_HTML,
  SQ_INSERT,
  SQ_JSON,
  SQ_LINE,
  SQ_LIST,
  SQ_MARKDOWN,
  SQ_QBOX,
  SQ_QUOTE,
  SQ_TABLE,
  SQ_TABS,
  SQ_TCL,
  SQ_NMODES
};

typedef struct sq_shell {
  bi_ctx *c;
  sqlite3 *db;
  sq_vfs sv;
  writer w;
  int mode;
  int header;
  int wrap, wordwrap; /* .mode --wrap N, --wordwrap on|off (--ww) */
  int widths[100];    /* .width: per column, <0 right-justified, 0 auto */
  int nwidths;
  int header_set; /* .headers or -[no]header given: .mode column keeps it */
  int bail;
  int echo;
  int oom;            /* an allocation of ours failed */
  char colsep[20];    /* column separator */
  char rowsep[20];    /* row separator */
  char nullvalue[20]; /* text shown for NULL */
  char table[64];     /* the table name of insert mode */
  const char *dbname; /* the file operand (":memory:" by default) */
  int quit;           /* .exit seen: leave with exit_code */
  int exit_code;
  int in_stdin; /* reading SQL from standard input */
  int depth;    /* nesting of .read */
  /* The database opens when first needed (as the real shell: a command
   * that needs none, such as .mode, does not create the file). */
  int ro, nofollow, open_failed, sv_live;
  stream *redirect; /* .output/.once file, or NULL for standard output */
  int once;         /* the redirection ends after the next SQL */
  void *guard;
} sq_shell;

/* Ends an .output/.once redirection: output goes to stdout again. */
void sq_output_reset(sq_shell *sh);
/* Opens the database unless it is open: 0, or 1 after the error was
 * printed (the command then ends with status 1). */
int sq_open(sq_shell *sh);

/* Runs every statement of sql, printing results in the current mode.
 * 0, or the SQLite code of the failing statement with *err set to a message
 * ("in prepare, ..." or "stepping, ...", sqlite3_free it). */
int sq_exec(sq_shell *sh, const char *sql, char **err);
/* One dot command line: 0 ok, 1 error (already reported), 2 quit. */
int sq_dot(sq_shell *sh, const char *line);
/* Runs the SQL and dot commands of an input (stdin or .read): the number
 * of errors (stops at the first with -bail). */
int sq_input(sq_shell *sh, stream *in);
/* .import ARGS (import.c): 0 or 1 (reported). */
int sq_import(sq_shell *sh, int argc, char **argv);
/* Sets mode by name (the .mode and -MODE spellings); -1 when unknown. */
int sq_set_mode(sq_shell *sh, const char *name);
/* The mode named exactly name, or -1. */
int sq_mode_index(const char *name);
/* The name of a mode. */
const char *sq_mode_name(int mode);

#endif
