/*
 * find.h - internals shared by find.c (walk, actions, -printf, -ls) and
 * find_expr.c (expression parser and tests). Not used by other commands.
 */
#ifndef VSH_BUILTINS_FIND_H
#define VSH_BUILTINS_FIND_H

#include <stdint.h>

#include "builtins/fileutil.h"
#include "builtins/tzutil.h"

typedef struct fnode fnode;

/* One file as the expression sees it. Stat records are filled lazily: the
 * common `-type f -name PAT` never stats anything, the directory entry's
 * type is enough. */
typedef struct fent {
  const char *path; /* as printed */
  size_t plen;
  const char *name; /* last component, trailing slashes excluded (-name) */
  size_t nlen;
  size_t root_len; /* length of the starting point within path (%P, %H) */
  int depth;
  int dtype;  /* the entry's own type (enum vfs_type), 0 when unknown */
  int follow; /* tests look through a symlink (-L, or -H on a root) */
  int lst_done, st_done;
  int lst_err, st_err; /* positive errno of a failed lstat/stat */
  vfs_stat_t lst, st;
} fent;

/* Regular expression dialects of -regextype. */
enum { FRE_EMACS, FRE_ERE, FRE_BRE };

/* Column widths of -ls, widened as values overflow them (like GNU). */
typedef struct fx_lsw {
  int ino, blocks, nlink, user, group, size;
} fx_lsw;

typedef struct fx {
  bi_ctx *c;
  writer w;
  int status;      /* 0, or 1 after any error */
  int follow;      /* 'P', 'H' or 'L' */
  int depth_first; /* -depth, -d, implied by -delete */
  int explicit_depth;
  int maxdepth, mindepth; /* -1: none */
  int daystart;
  int regtype;
  int has_prune, has_delete;
  int64_t now_ns;      /* reference time of -mtime and friends (-daystart) */
  int64_t start_ns;    /* when find started (-ls's "recent") */
  const tz_zone *zone; /* the script's TZ: local times shown and read */
  fx_lsw lsw;
  int quit; /* -quit ran */
  int stop; /* output failed or the budget stopped: return stop_rc */
  int stop_rc;
  int prune; /* -prune ran for the current entry */
  fnode *root;
  fnode *owned; /* nodes holding resources (regexes, exec batches) */
  fu_asker ask; /* -ok answers */
} fx;

/* ---- find_expr.c ---- */
/* Parses the expression argv[0..argc). 0, or -1 with a message printed
 * (find then exits 1 without walking). Adds the implicit -print. */
int fx_parse(fx *x, char **argv, int argc);
/* Evaluates the whole expression on e. */
int fx_eval(fx *x, fnode *n, fent *e);
/* Runs the pending batches of -exec ... + (at the end and at -quit). */
void fx_flush_execs(fx *x);
/* Frees regexes, batches and the like. */
void fx_free(fx *x);

/* lstat / stat of the entry (stat falls back to lstat for a dangling
 * symlink when following, like GNU). NULL when even that failed. */
const vfs_stat_t *fx_lstat(fx *x, fent *e);
const vfs_stat_t *fx_stat(fx *x, fent *e);

/* The time of a file -atime, -ctime, -newer... and -printf look at: field
 * 'a', 'c', or the modification time for anything else. */
static inline int64_t fx_file_time(const vfs_stat_t *st, int field) {
  return field == 'a'   ? st->atime_ns
         : field == 'c' ? st->ctime_ns
                        : st->mtime_ns;
}

/* ---- find.c ---- */
/* Actions that write output: non-zero when the write failed (x->stop). */
int fx_print(fx *x, fent *e, int term);
int fx_printf(fx *x, fent *e, const char *fmt, size_t len);
int fx_ls(fx *x, fent *e);
int fx_delete(fx *x, fent *e);
/* Message on stderr after flushing stdout (keeps the order of 2>&1). */
void fx_error(fx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Warns about unknown -printf directives at parse time. */
void fx_check_format(fx *x, const char *fmt, size_t len);

#endif
