/*
 * awk.h - internals of the awk builtin.
 *
 *   lex.c     tokens (regex vs '/' decided by the previous token)
 *   parse.c   recursive descent to a tree; names resolved to slots once
 *   interp.c  tree walking evaluator, fields, the main loop
 *   input.c   records by RS (a character, paragraphs, a regex) and RT
 *   lib.c     values, arrays, builtin functions, printf, I/O
 *   regex.c   gawk's regex text to POSIX ERE to PCRE2, the regex cache
 *   gawk.c    gensub, asort/asorti, sorted_in orders, time, case mapping
 *
 * Values are small structs passed by value; strings are reference-counted
 * blobs from the sandbox allocator so that copying a field into an array
 * element costs a counter increment, not a copy. Field values reuse their
 * blobs from record to record when nothing else holds them, so the main
 * loop allocates nothing per record in the common case.
 */
#ifndef VSH_BUILTINS_AWK_AWK_H
#define VSH_BUILTINS_AWK_AWK_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

#include "builtins/builtin.h"
#include "core/regex.h"

typedef struct astr {
  uint32_t refs;
  uint32_t len, cap;
  char p[]; /* NUL-terminated */
} astr;

enum { V_UNINIT = 0, V_NUM, V_STR, V_STRNUM };
enum { VF_NUMOK = 1 }; /* a V_STR's n holds its numeric value */

typedef struct aval {
  uint8_t t, f;
  double n;
  astr *s; /* V_STR/V_STRNUM always; V_NUM: a cached conversion or NULL */
} aval;

typedef struct aent {
  astr *k;
  aval v;
  uint32_t hash;
  struct aent *chain, *prev, *next; /* hash chain; insertion order */
} aent;

typedef struct aarr {
  aent **tab;
  size_t mask, n;
  aent *first, *last;
  int iter; /* live for-in loops: deletions must not free entries */
} aarr;

enum { C_UNSET = 0, C_SCALAR, C_ARRAY, C_REF };
typedef struct cell {
  uint8_t kind;
  aval v;
  aarr *a;
  struct cell *ref; /* C_REF: a caller's variable passed to a parameter */
} cell;

typedef struct are {
  rx rx;     /* POSIX leftmost-longest (core/regex.h) */
  int lit;   /* pattern is a plain literal (split fast path) */
  int icase; /* compiled caseless (IGNORECASE) */
  int caps;  /* capture groups can be asked for (gensub) */
  astr *src;
} are;

/* ---- tokens ------------------------------------------------------------- */
enum {
  T_EOF = 0,
  T_NL,
  T_LBRACE,
  T_RBRACE,
  T_LPAREN,
  T_RPAREN,
  T_LBRACK,
  T_RBRACK,
  T_SEMI,
  T_COMMA,
  T_NUM,
  T_STR,
  T_ERE,
  T_NAME,
  T_FUNC_NAME,
  T_BUILTIN,
  T_ADD,
  T_SUB,
  T_MUL,
  T_DIV,
  T_MOD,
  T_POW,
  T_NOT,
  T_GT,
  T_LT,
  T_PIPE,
  T_QUEST,
  T_COLON,
  T_TILDE,
  T_NOMATCH,
  T_DOLLAR,
  T_ASSIGN,
  T_ADD_ASSIGN,
  T_SUB_ASSIGN,
  T_MUL_ASSIGN,
  T_DIV_ASSIGN,
  T_MOD_ASSIGN,
  T_POW_ASSIGN,
  T_EQ,
  T_LE,
  T_GE,
  T_NE,
  T_INCR,
  T_DECR,
  T_APPEND,
  T_AND,
  T_OR,
  T_BEGIN,
  T_END,
  T_FUNCTION,
  T_IF,
  T_ELSE,
  T_WHILE,
  T_FOR,
  T_DO,
  T_BREAK,
  T_CONTINUE,
  T_NEXT,
  T_NEXTFILE,
  T_EXIT,
  T_RETURN,
  T_DELETE,
  T_GETLINE,
  T_PRINT,
  T_PRINTF,
  T_IN,
  T_BEGINFILE,
  T_ENDFILE,
  T_SWITCH,
  T_CASE,
  T_DEFAULT
};

/* builtin functions */
enum {
  B_LENGTH,
  B_SUBSTR,
  B_INDEX,
  B_SPLIT,
  B_SUB,
  B_GSUB,
  B_MATCH,
  B_SPRINTF,
  B_TOLOWER,
  B_TOUPPER,
  B_INT,
  B_SQRT,
  B_EXP,
  B_LOG,
  B_SIN,
  B_COS,
  B_ATAN2,
  B_RAND,
  B_SRAND,
  B_CLOSE,
  B_FFLUSH,
  B_SYSTEM,
  B_GENSUB,
  B_ASORT,
  B_ASORTI,
  B_STRFTIME,
  B_SYSTIME,
  B_MKTIME,
  B_PATSPLIT
};

/* ---- tree --------------------------------------------------------------- */
enum {
  N_NUM,
  N_STR,
  N_ERE,
  N_VAR,
  N_FIELD,
  N_INDEX,
  N_IN,
  N_ASSIGN,
  N_COND,
  N_OR,
  N_AND,
  N_NOT,
  N_NEG,
  N_UPLUS,
  N_BIN,
  N_CONCAT,
  N_CMP,
  N_MATCH,
  N_PREINC,
  N_PREDEC,
  N_POSTINC,
  N_POSTDEC,
  N_CALL,
  N_BUILTIN,
  N_GETLINE,
  N_GROUP,
  S_PRINT,
  S_PRINTF,
  S_EXPR,
  S_IF,
  S_WHILE,
  S_DO,
  S_FOR,
  S_FORIN,
  S_BLOCK,
  S_NEXT,
  S_NEXTFILE,
  S_EXIT,
  S_RETURN,
  S_BREAK,
  S_CONTINUE,
  S_DELETE,
  S_SWITCH, /* a: the value, b: the S_CASE list */
  S_CASE    /* a: the constant (NULL: default), b: the statements */
};
enum { G_SIMPLE, G_FILE, G_CMD };          /* getline kinds */
enum { R_NONE, R_FILE, R_APPEND, R_PIPE }; /* print redirections */

typedef struct node {
  uint8_t op;
  uint8_t sub;   /* operator token, builtin id, getline/redirect kind */
  uint8_t local; /* N_VAR/N_INDEX/...: slot is a frame slot */
  int line;
  int slot; /* variable slot, function index, number of args */
  struct node *a, *b, *c, *d;
  struct node *next; /* lists: statements, arguments, subscripts */
  aval v;            /* N_NUM / N_STR constant */
  are *re;           /* N_ERE */
} node;

typedef struct afunc {
  char *name;
  int nparams, defined, line;
  char **params;
  node *body;
} afunc;

typedef struct item { /* pattern-action */
  node *pat, *pat2;   /* pat2: range end */
  node *act;          /* NULL: print $0 */
  int inrange;
  struct item *next;
} item;

/* Input already taken from a reader for a regex RS (which needs to look
 * past a record's end): once on, every record of that input comes from
 * here. */
typedef struct arsb {
  buf b;
  size_t off;
  int eof, on;
} arsb;

/* ---- output/input redirections ------------------------------------------ */
typedef struct aio {
  char *name;
  int kind; /* R_FILE/R_APPEND/R_PIPE for output, 'r' file reader, 'c' cmd */
  stream *s;
  writer *w;
  buf pipebuf; /* R_PIPE: collected, run at close */
  reader rd;
  stream *rs;
  char *cmdout; /* 'c': captured output */
  int cmdst;    /* 'c': the command's exit status */
  arsb sb;
  struct aio *next;
} aio;

typedef struct awk awk;

typedef struct frame {
  cell *locals;
  int n;
} frame;

/* The global slots of the special variables come first, in this order. */
enum {
  SV_NF,
  SV_NR,
  SV_FNR,
  SV_FS,
  SV_OFS,
  SV_ORS,
  SV_RS,
  SV_FILENAME,
  SV_SUBSEP,
  SV_RSTART,
  SV_RLENGTH,
  SV_CONVFMT,
  SV_OFMT,
  SV_ENVIRON,
  SV_ARGC,
  SV_ARGV,
  SV_PROCINFO,
  SV_RT,
  SV_IGNORECASE,
  SV_FPAT,
  SV_COUNT
};

struct awk {
  bi_ctx *c;
  mem *m;
  arena ar; /* the tree and names */
  /* lexer */
  const char *src;
  size_t srclen, pos;
  int line, tok, prevtok;
  double tnum;
  buf tstr;
  int tbi; /* builtin id / name index */
  int paren, in_print_args, no_in;
  /* names */
  char **gnames;
  int ngl, capgl;
  cell *globals;
  afunc *funcs;
  int nfuncs, capfuncs;
  afunc *curfn;
  item *begin, *end, *main, *bfile, *efile;
  item **begin_tail, **end_tail, **main_tail, **bfile_tail, **efile_tail;
  int syntax_err;
  int parse_errs;     /* errors reported while parsing went on */
  const char *rule;   /* "BEGIN", "END", ...: the special rule parsed */
  const char *lexerr; /* why the lexer refused the text, NULL: syntax */
  size_t tokend;      /* offset just past the current token */
  size_t tokstart;    /* offset where it starts */
  const char *why;    /* a syntax error's own message, NULL: syntax */
  char lexmsg[48];    /* lexerr's text when it names a character */
  int loops;          /* loops around the statement being parsed */
  int switches;       /* switch statements around it */
  /* where each -f file starts in src (for "FILE:LINE:" in messages) */
  struct asrc {
    const char *name; /* NULL: the command line */
    int first;        /* its first line in src */
  } * srcs;
  int nsrcs;
  int curline; /* line of the statement running (messages) */
  int utf8;    /* a UTF-8 locale: strings count characters */
  void *pj;    /* jmp_buf of the parser */
  /* runtime */
  writer out;
  rx_env rxe; /* PCRE2 contexts and DFA workspace of every regex */
  int rxe_ok;
  are **recache; /* dynamic regex cache */
  size_t nrecache;
  are *fsre;
  astr *fscache;  /* FS value fsre was built for */
  buf rec;        /* $0 text */
  aval f0;        /* $0 as value (valid unless rec_dirty) */
  int rec_dirty;  /* a field changed: rebuild $0 */
  int split_done; /* fields valid */
  aval *flds;     /* 1..nf */
  int nf, capf;
  double nr, fnr;
  frame *fr;
  int depth;
  aval retval;
  int exiting, status, stop, ranbegin;
  aio *ios;
  reader main_rd;
  stream *main_s;
  int argi; /* next ARGV index to open */
  int main_open, main_eof;
  uint64_t seed;
  double prevseed;
  int convgen; /* bumped when CONVFMT changes */
  buf tmp;     /* scratch for subscripts and conversions */
  size_t *sp;  /* field spans: start, length pairs */
  size_t spcap;
  int pend;       /* next/nextfile raised inside a function */
  buf para;       /* RS="" record assembly */
  const void *tz; /* the script's time zone (tz_zone), opened on use */
  int icase;      /* IGNORECASE is true */
  int fpat;       /* FPAT, assigned after FS, splits the fields */
  int uses_rt;    /* the program mentions RT: set it per record */
  astr *empty;    /* "" shared by the fields past NF */
  arsb main_sb;
};

/* lex.c */
int awk_lex(awk *A);
/* The escape after a backslash, at s[*i] (\n, \/, \", \ddd ...): its
 * character, with *i moved past it; -1 when it is none (*i unchanged). */
int awk_escape(const char *s, size_t n, size_t *i);
/* Appends that character to o, or an unknown escape as typed. */
void awk_put_escape(buf *o, const char *s, size_t n, size_t *i);
const char *awk_tokname(int t);
/* parse.c */
int awk_parse(awk *A);
int awk_global(awk *A, const char *name);
/* lib.c: values */
astr *as_new(awk *A, const char *p, size_t n);
static inline void as_unref(awk *A, astr *s) {
  if (s && --s->refs == 0)
    mem_free(A->m, s);
}
static inline void av_free(awk *A, aval *v) {
  as_unref(A, v->s);
  v->s = NULL;
}
static inline aval av_copy(aval v) {
  if (v.s)
    v.s->refs++;
  return v;
}
static inline aval av_num(double d) {
  aval v = {V_NUM, 0, d, NULL};
  return v;
}
aval av_str(awk *A, const char *p, size_t n);
/* A field past NF: the empty string, compared as a string. */
aval av_empty_field(awk *A);
aval av_strnum(awk *A, const char *p, size_t n);
double av_tonum(awk *A, aval *v);
/* A number as an integer, clamped to the type's range (NaN is 0): a
 * script controls every number, and converting a double that does not fit
 * is undefined behaviour. */
static inline long long awk_toll(double d) {
  if (d != d)
    return 0;
  if (d >= 9223372036854775807.0) /* 2^63 */
    return INT64_MAX;
  if (d <= -9223372036854775807.0)
    return INT64_MIN;
  return (long long)d;
}
static inline int awk_toint(double d) {
  long long v = awk_toll(d);
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v;
}
astr *av_tostr(awk *A, aval *v, int output); /* borrowed, valid while v */
/* Is d a finite whole number (printed as an integer)? Its digits into out. */
int awk_integral(double d);
size_t awk_int_text(char *out, size_t cap, double d);
int av_true(awk *A, aval *v);
int av_cmp(awk *A, aval *x, aval *y);
/* Byte order, ASCII letters folded under IGNORECASE: <0, 0, >0. */
int awk_strcmp(awk *A, const astr *s, const astr *t);
int looks_numeric(const char *p, size_t n, double *d);
double str2num(const char *p, size_t n);
/* arrays */
aarr *arr_new(awk *A);
void arr_free(awk *A, aarr *a);
void arr_clear(awk *A, aarr *a);
aval *arr_get(awk *A, aarr *a, const char *k, size_t n, int create);
void arr_del(awk *A, aarr *a, const char *k, size_t n);
/* regexes */
are *re_compile(awk *A, const char *p, size_t n);
are *re_compile_caps(awk *A, const char *p, size_t n, int caps);
void re_free(awk *A, are *r);
are *re_dynamic(awk *A, aval *v);
/* The regex of an operand: a /re/ constant (recompiled when IGNORECASE
 * changed) or any expression's string. */
are *re_node(awk *A, node *x);
/* The leftmost-longest match at or after from: 1 with [*ms, *me), 0 none
 * (or a matcher limit, which is fatal: awk_fatal). */
int re_match(awk *A, are *r, const char *s, size_t n, size_t from, size_t *ms,
             size_t *me, int notbol);
/* Does s[0..n) hold a match (for ~ and /re/ patterns)? */
int re_test(awk *A, are *r, const char *s, size_t n);
/* A search that failed (rc < 0): stops the program; returns 0. */
int re_failed(awk *A, int rc);
/* builtins, printf, I/O */
aval awk_builtin(awk *A, node *e);
int awk_format(awk *A, buf *o, const char *fmt, size_t fn, node *args);
aio *io_get(awk *A, const char *name, int kind);
int io_close(awk *A, const char *name);
void io_closeall(awk *A);
int io_getline(awk *A, aio *io, buf *line);
writer *io_out(awk *A, int kind, aval *target);
void awk_fatal(awk *A, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "awk: cmd. line:N: " (or "awk: FILE:N: ") for source line n into b. */
void awk_where(awk *A, buf *b, int line);
/* Character counts under a UTF-8 locale, bytes otherwise. */
size_t awk_chars(awk *A, const char *s, size_t n);
size_t awk_char_off(awk *A, const char *s, size_t n, size_t ci);
/* gawk.c: the gawk extensions */
aval awk_gensub(awk *A, node *e);
aval awk_asort(awk *A, node *e, int byindex);
aval awk_time_fn(awk *A, node *e);
/* Sorts keys[0..n) of a for-in loop over a by PROCINFO["sorted_in"]; 0,
 * or -1 after a fatal error. */
int awk_sort_keys(awk *A, aarr *a, astr **keys, size_t n);
int awk_case_map(awk *A, buf *o, const char *s, size_t n, int upper);
int awk_flush_all(awk *A);
/* interp.c */
aval awk_eval(awk *A, node *e);
cell *awk_cell(awk *A, node *e);
aarr *awk_array(awk *A, node *e);
void awk_set_field(awk *A, int i, aval v);
aval awk_get_field(awk *A, int i);
void awk_set_record(awk *A, const char *p, size_t n);
void awk_assign_var(awk *A, node *lv, aval v);
int awk_split(awk *A, const char *s, size_t n, aarr *arr, aval *sep, int usefs);
/* patsplit(): the matches of fp (NULL: FPAT) into arr; their number. */
int awk_patsplit(awk *A, const char *s, size_t n, aarr *arr, aval *fp);
astr *awk_subsep_key(awk *A, node *subs, buf *tmp);
int awk_next_main_record(awk *A, buf *line);
/* input.c: one record from r by RS, 1 with p/n valid until the next call,
 * 0 at the end, -1 on error; is s a command-line assignment (name=...)? */
int awk_read_rec(awk *A, reader *r, arsb *sb, const char **p, size_t *n);
int awk_valid_assign(const char *s);
int awk_run(awk *A);
/* Calls function fi with the values args (copied into its parameters). */
aval awk_call_values(awk *A, int fi, aval *args, int nargs);

#endif
