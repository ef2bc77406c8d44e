/*
 * rg.h - internals of the rg builtin (ripgrep 13 compatible), in parts:
 *
 *   rg.c      options, operands, exit status
 *   regex.c   patterns: Rust regex syntax -> PCRE2, smart case, -F -w -x
 *   glob.c    gitignore-style globs (ignore files, -g/--iglob, types)
 *   types.c   the built-in file type table (-t, -T, --type-list)
 *   walk.c    the directory walk: hidden files, ignore files, overrides
 *   search.c  searching one file and printing (standard, counts, --json)
 *
 * Everything is sorted by path (as rg --sort path): directories are read in
 * byte order of names and walked depth first on one thread.
 */
#ifndef VSH_BUILTINS_RG_RG_H
#define VSH_BUILTINS_RG_RG_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

#include "builtins/builtin.h"
#include "core/regex.h"

/* ---- glob.c ------------------------------------------------------------- */

enum { RG_M_NONE = 0, RG_M_IGNORE = 1, RG_M_WHITE = 2 };

/* How a glob is matched: most ignore lines need no regex. */
enum {
  RG_G_REGEX = 0, /* the translated regex */
  RG_G_NAME,      /* any depth, one literal name: "build", "node_modules" */
  RG_G_SUFFIX,    /* any depth, a name ending in a literal: "*.log" */
  RG_G_PATH       /* one literal path: "/top.txt", "docs/a.md" */
};

typedef struct rg_glob {
  int kind;  /* RG_G_* */
  char *lit; /* the literal part of the simple kinds */
  size_t litn;
  rx re;       /* RG_G_REGEX only */
  int neg;     /* a '!' line: a whitelist entry */
  int dironly; /* a trailing '/': matches directories only */
} rg_glob;

/* The globs of one ignore file (or of the -g list). */
typedef struct rg_gi {
  rg_glob *v;
  size_t n, cap;
  size_t nwhite; /* how many are '!' lines */
  budget *bud;   /* polled while matching */
} rg_gi;

/* Add one gitignore line (comments and blank lines are skipped). icase:
 * --iglob. Returns 0, 1 when the line was skipped, or -1 with *msg set (an
 * invalid glob or memory). */
int rg_gi_add(rx_env *env, rg_gi *g, const char *line, size_t n, int icase,
              const char **msg);
/* Parse a whole ignore file into g. Returns 0 or -1 (memory). */
int rg_gi_parse(rx_env *env, rg_gi *g, const char *data, size_t n);
/* Last glob matching path (relative, no leading "./"), honouring dironly. */
int rg_gi_match(rg_gi *g, const char *path, size_t n, int is_dir);
void rg_gi_free(mem *m, rg_gi *g);
/* Compile one glob (already in globset syntax) anchored at both ends. */
int rg_glob_compile(rx_env *env, rx *r, const char *glob, size_t n, int icase);

/* ---- types.c ------------------------------------------------------------ */

typedef struct rg_type {
  const char *name;
  const char *globs; /* comma separated */
} rg_type;
const rg_type *rg_types(size_t *n);
const rg_type *rg_type_find(const char *name);

/* ---- regex.c ------------------------------------------------------------ */

typedef struct rg_pat {
  const char *s;
  size_t n;
} rg_pat;

typedef struct rg_mcfg {
  int fixed, pcre, icase, smart, word, line, dotall, multiline;
} rg_mcfg;

/* Build the PCRE2 pattern for all patterns into re (env must be set up).
 * Returns 0, or -1 after printing rg's error (exit 2). */
int rg_compile(bi_ctx *c, rx_env *env, rx *re, const rg_pat *pats, size_t npats,
               const rg_mcfg *cfg);

/* ---- the run ------------------------------------------------------------ */

typedef struct rg_stats {
  uint64_t searches, with_match, bytes_searched, bytes_printed, lines, matches;
  int64_t elapsed_ns;
} rg_stats;

typedef struct rg {
  bi_ctx *c;
  writer w;
  rx_env env;
  rx re;
  int compiled;
  int never; /* no pattern at all */
  /* output options */
  int lineno, with_fname, heading, only, invert, count, list, column;
  int vimgrep, json, nul, quiet, nomsg, text, binary_all;
  int color; /* --color always / ansi */
  int trim, max_preview;
  int multiline;       /* -U: matches may span lines */
  int64_t max_columns; /* 0: no limit */
  const char *replace;
  int64_t max_count, before, after;
  /* walk options */
  int max_depth, hidden, no_ignore, no_ignore_vcs, no_ignore_parent, follow;
  int no_ignore_dot, no_ignore_exclude;
  int files_mode;
  int sorted;        /* --sort given: rg words a missing path differently */
  rg_gi over;        /* -g / --iglob */
  size_t ntypes_sel; /* -t given: files of no selected type are left out */
  rg_gi type_sel;    /* -t globs whitelist ('!' entries), -T globs ignore */
  int mmap_like; /* every operand is a file: NULs past 64 KiB not looked at */
  /* state */
  int matched, errored, stop, status;
  int any_printed; /* output went out: "--" and heading blank lines */
  uint64_t searched;
  rg_stats st;
  int64_t t0;
} rg;

/* ---- search.c ----------------------------------------------------------- */

/* Search data[0..n) as the file shown as name. explicit: a command-line
 * operand (binary files are searched, and reported when they match). */
void rg_search(rg *r, const char *name, const char *data, size_t n,
               int explicit_);
/* Print a path line (--files, -l) */
void rg_print_path(rg *r, const char *name);
/* The JSON summary line (--json, at the end). */
void rg_json_summary(rg *r);
/* Report an I/O error on a path: "PATH: message (os error N)". */
void rg_file_error(rg *r, const char *path, int err);

/* ---- walk.c ------------------------------------------------------------- */

/* Search (or list, --files) a directory operand, display prefix disp
 * (NULL: the default "./", shown without prefix). */
void rg_walk(rg *r, const char *op, const char *disp);
/* Search one file by path (name shown as given). */
void rg_search_path(rg *r, const char *path, const char *shown, int explicit_);

#endif
