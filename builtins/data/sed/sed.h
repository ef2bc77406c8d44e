/*
 * sed.h - internals of the sed builtin, shared by its three parts:
 *
 *   parse.c  the script text -> an array of commands (regexes compiled once,
 *            through grep's BRE/ERE translation and core/regex.h)
 *   exec.c   the cycle: read a line, run the commands, print
 *   sed.c    options, operands, --help
 *
 * Everything is allocated on the sandbox allocator and freed by sd_free.
 */
#ifndef VSH_BUILTINS_SED_SED_H
#define VSH_BUILTINS_SED_SED_H

#include <stdint.h>

#include "builtins/builtin.h"
#include "core/regex.h"

/* A compiled regex: POSIX leftmost-longest through core/regex.h. */
typedef struct sd_re {
  rx rx;
  int ngroups;
} sd_re;

enum {
  SA_NONE = 0,
  SA_LINE, /* N */
  SA_LAST, /* $ */
  SA_RE,   /* /re/ (re NULL: the last regex used) */
  SA_STEP, /* first~step */
  SA_ZERO, /* 0 of 0,/re/ */
  SA_PLUS, /* addr2 +N */
  SA_MULT  /* addr2 ~N */
};

typedef struct sd_addr {
  int kind;
  uint64_t n1, n2;
  sd_re *re;
} sd_addr;

/* An output file of w, W and s///w, opened once per name. */
typedef struct sd_wfile {
  char *name;
  stream *s;      /* NULL: the main output (/dev/stdout) */
  int missing_nl; /* the last line written had no newline */
  struct sd_wfile *next;
} sd_wfile;

/* An input file of R, read one line per use. */
typedef struct sd_rfile {
  char *name;
  stream *s;
  void *rd; /* reader*, allocated on first use */
  int eof;
  struct sd_rfile *next;
} sd_rfile;

/* Pieces of an s replacement. */
enum { SR_LIT, SR_GROUP, SR_CASE };
enum { SC_NONE, SC_LOWER, SC_UPPER, SC_LOWER1, SC_UPPER1, SC_END };

typedef struct sd_rpart {
  int kind;
  int n;           /* SR_GROUP: 0 for &; SR_CASE: SC_* */
  size_t off, len; /* SR_LIT: in the command's text */
} sd_rpart;

typedef struct sd_cmd {
  sd_addr a1, a2;
  int neg;
  char cmd;
  /* range state */
  int active;
  uint64_t end;
  /* arguments */
  char *text; /* a i c text, label, file name, s replacement literals */
  size_t tlen;
  int64_t num;  /* q/Q exit code, l width (-1: default), s occurrence */
  size_t jump;  /* b t T target, { the index after its } */
  char *label;  /* b t T label while parsing */
  sd_re *re;    /* s */
  int re_empty; /* s// : the last regex used */
  sd_rpart *parts;
  size_t nparts;
  int gflag, pflag; /* pflag: how many p flags */
  sd_wfile *wf;
  sd_rfile *rf;
  /* y: a byte map, or for multibyte characters pairs of strings */
  unsigned char *ymap;
  char **yfrom, **yto;
  size_t ny;
} sd_cmd;

typedef struct sd_prog {
  bi_ctx *c;
  sd_cmd *cmds;
  size_t ncmds, cap;
  sd_wfile *wfiles;
  sd_rfile *rfiles;
  sd_re **res; /* every compiled regex, for freeing */
  size_t nres, capres;
  rx_env env; /* PCRE2 contexts shared by the regexes */
  int env_ok;
  /* options */
  int ere, quiet, separate, zero, unbuffered, posix, debug, utf8;
  int64_t lwidth;
  int quiet_from_script; /* #n */
} sd_prog;

/* ---- parse.c ------------------------------------------------------------ */

/* One piece of script: an -e expression or an -f file. */
typedef struct sd_src {
  const char *text;
  size_t len;
  const char *file; /* -f: its name; NULL for -e */
} sd_src;

int sd_prog_init(sd_prog *p, bi_ctx *c);
/* Parse all pieces (joined by newlines, as GNU does). 0, or -1 after GNU's
 * message ("sed: -e expression #1, char 3: ..."). */
int sd_parse(sd_prog *p, const sd_src *src, size_t nsrc);
void sd_free(sd_prog *p);

/* ---- exec.c ------------------------------------------------------------- */

/* Run the program over the operands (none: stdin). inplace: -i given, with
 * suffix (may be NULL or ""). Returns the exit status. */
int sd_run(sd_prog *p, char **files, int nfiles, int inplace,
           const char *suffix);

#endif
