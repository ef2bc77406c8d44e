/*
 * jq.h - internals of the jq builtin.
 *
 *   value.c    reference-counted JSON values, comparison, sorting
 *   json.c     JSON text to values (parser) and back (printer)
 *   lex.c      program tokens
 *   parse.c    program text to a tree; names resolved to frames once
 *   eval.c     the evaluator: every output goes to a callback (generators)
 *   paths.c    indexing, slices, getpath, setpath, delpaths
 *   natives.c  operators and builtins written in C, the table of them
 *   gen.c      builtins that are generators or take closures
 *   strfn.c    string builtins, formats (@csv ...), regexes, dates
 *   prelude.c  builtins written in jq, compiled at each run
 *   jq.c       the command: options, inputs, outputs, errors
 *
 * Values are small structs passed by value; strings, arrays and objects
 * are blocks of the sandbox allocator with a reference count, changed in
 * place when only one reference exists. Objects keep insertion order and a
 * hash index.
 *
 * The evaluator walks the tree; an expression hands each of its outputs to
 * a callback, so backtracking is the return of the callback. Environment
 * frames live on the C stack of the node that binds them, which is below
 * every use. Depth is bounded by a counter and the stack left.
 */
#ifndef VSH_BUILTINS_JQ_JQ_H
#define VSH_BUILTINS_JQ_JQ_H

#include <stddef.h>
#include <stdint.h>

#include "builtins/builtin.h"
#include "core/regex.h"

enum {
  JV_INVALID = 0,
  JV_NULL,
  JV_FALSE,
  JV_TRUE,
  JV_NUMBER,
  JV_STRING,
  JV_ARRAY,
  JV_OBJECT
};

typedef struct jstr {
  uint32_t rc, len;
  uint32_t hash; /* 0: not computed */
  char p[];      /* NUL-terminated */
} jstr;

typedef struct jarr jarr;
typedef struct jobj jobj;

typedef struct jv {
  uint8_t k;
  uint32_t lit; /* numbers: 1 + index of the literal text kept, or 0 */
  union {
    double n;
    jstr *s;
    jarr *a;
    jobj *o;
    uint32_t *rc;
  } u;
} jv;

struct jarr {
  uint32_t rc, len, cap;
  uint8_t fkind; /* the next container to free (jv_free_ worklist) */
  void *fnext;
  jv *v;
};

typedef struct jent {
  jstr *k; /* NULL: deleted */
  jv v;
} jent;

struct jobj {
  uint32_t rc, n, live, cap; /* n slots used (deleted included) */
  uint8_t fkind;
  void *fnext;
  jent *e;
  int32_t *idx; /* open addressing, mask+1 slots, -1 empty */
  uint32_t mask;
};

typedef struct jqs jqs;

/* ---- values (value.c) ---------------------------------------------------*/
static inline jv jv_null(void) {
  jv v = {JV_NULL, 0, {0}};
  return v;
}
static inline jv jv_invalid(void) {
  jv v = {JV_INVALID, 0, {0}};
  return v;
}
static inline jv jv_bool(int b) {
  jv v = {b ? JV_TRUE : JV_FALSE, 0, {0}};
  return v;
}
static inline jv jv_num(double d) {
  jv v = {JV_NUMBER, 0, {0}};
  v.u.n = d;
  return v;
}
static inline int jv_ok(jv v) {
  return v.k != JV_INVALID;
}
static inline int jv_truthy(jv v) {
  return v.k != JV_NULL && v.k != JV_FALSE;
}
static inline jv jv_copy(jv v) {
  if (v.k >= JV_STRING)
    (*v.u.rc)++;
  return v;
}
void jv_free_(jqs *J, jv v);
static inline void jv_free(jqs *J, jv v) {
  if (v.k >= JV_STRING && --(*v.u.rc) == 0)
    jv_free_(J, v);
}

jv jv_str(jqs *J, const char *p, size_t n);
jv jv_cstr(jqs *J, const char *s);
jv jv_strcat(jqs *J, jv a, const char *p, size_t n); /* consumes a */
uint32_t jv_strhash(jstr *s);
jv jv_arr(jqs *J, size_t cap);
jv jv_apush(jqs *J, jv a, jv x); /* consumes both; invalid on OOM */
jv jv_aset(jqs *J, jv a, long i, jv x);
jv jv_aget(jv a, long i); /* borrowed; null outside */
jv jv_obj(jqs *J);
jv jv_oset(jqs *J, jv o, jv key, jv val);   /* consumes all */
jv *jv_oget(jv o, const char *k, size_t n); /* borrowed or NULL */
jv jv_odel(jqs *J, jv o, jstr *key);
jv jv_unshare(jqs *J, jv v);          /* a copy with rc 1 (arrays, objects) */
jv jv_keys(jqs *J, jv o, int sorted); /* strings */
int jv_cmp(jv a, jv b);
int jv_equal(jv a, jv b);
void jv_sort(jqs *J, jv *v, size_t n); /* stable */
jv jv_err_str(jqs *J, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *jv_kind_name(int k);

/* ---- JSON text (json.c) -------------------------------------------------*/
typedef struct jparser {
  jqs *J;
  const char *p, *end; /* the text being parsed */
  int line, col;
  int depth;
  int allow_nan;
  char msg[160];
} jparser;
/* One value from s[*pos..n): 1 with *out, 0 at the end (only blanks), -1
 * with a jq-style message in msg. */
int jp_parse(jqs *J, const char *s, size_t n, size_t *pos, jv *out, char *msg,
             size_t msglen, int *line, int *col);
/* The whole of s must be one value (fromjson, --argjson). */
jv jp_parse_one(jqs *J, const char *s, size_t n, char *msg, size_t msglen);

enum {
  JD_INDENT_MASK = 0xff,
  JD_TAB = 1 << 8,
  JD_SORT = 1 << 9,
  JD_ASCII = 1 << 10,
  JD_COLOR = 1 << 11,
  JD_PRETTY = 1 << 12
};
/* Appends the JSON text of v to b; 0, or -1 when out of memory. */
int jd_dump(jqs *J, buf *b, jv v, int flags);
jv jv_tojson(jqs *J, jv v);               /* compact, as tojson */
jv jv_tostring(jqs *J, jv v);             /* strings as they are */
void jd_num(char *out, double d);         /* jq's number format, 32 bytes */
void jd_colors(jqs *J, const char *spec); /* JQ_COLORS, or NULL */
/* The text of a number: its literal when one was kept, else jd_num in buf. */
const char *jd_numtext(jqs *J, jv v, char *buf);
/* A number read from literal text s[0..n): keeps the text when it is an
 * integer that the double d does not hold exactly. */
jv jv_num_lit(jqs *J, double d, const char *s, size_t n);
void jv_numlits_free(jqs *J);
/* jq's short form of a value in error messages (at most 11 bytes + ...) */
void jd_trunc(jqs *J, jv v, char *out, size_t outlen);

/* ---- the program tree ---------------------------------------------------*/
enum {
  N_IDENT,
  N_RECDEF,
  N_LIT,
  N_INDEX,
  N_SLICE,
  N_ITER,
  N_TRY,
  N_PIPE,
  N_COMMA,
  N_NEG,
  N_BIN,
  N_AND,
  N_OR,
  N_ALT,
  N_ARRAY,
  N_OBJECT,
  N_IF,
  N_REDUCE,
  N_FOREACH,
  N_FUNCDEF,
  N_CALL,
  N_VAR,
  N_AS,
  N_LABEL,
  N_BREAK,
  N_FORMAT,
  N_UPDATE,
  N_ASSIGN,
  N_ALTUPD,
  N_LOC,
  N_EMPTY
};
/* pattern kinds */
enum { P_VAR, P_ARRAY, P_OBJECT };
/* call kinds after resolution */
enum { C_FRAME, C_GLOBAL, C_NATIVE };

typedef struct jnode jnode;
struct jnode {
  uint8_t t, op, opt, ckind;
  int line;
  jnode *a, *b, *c, *d, *e;
  jnode **args; /* calls: arguments; objects: key,value pairs */
  int nargs;
  jv lit;
  const char *name; /* calls, vars, defs, formats */
  /* defs */
  const char **params;
  int nparams;
  /* resolution */
  int hops;
  jnode *def;  /* C_GLOBAL */
  int native;  /* C_NATIVE */
  int nvars;   /* N_AS, reduce, foreach: variables bound */
  int pkind;   /* patterns */
  jnode *next; /* ?// alternatives, pattern lists */
  int slot;    /* P_VAR: index among the bound variables */
};

/* ---- the interpreter ----------------------------------------------------*/
enum { JR_OK = 0, JR_ERR = 1, JR_BREAK = 2, JR_HALT = 3 };

typedef struct jenv jenv;
struct jenv {
  jenv *up;
  uint8_t kind; /* F_VAR, F_FUNC, F_CLOSURE, F_LABEL */
  jv val;
  jnode *node;
  jenv *cenv;
  uint64_t label;
};
enum { F_VAR, F_FUNC, F_CLOSURE, F_LABEL };

typedef int (*jcb)(jqs *J, jv v, jv path, void *ud);

typedef struct jnative {
  const char *name;
  int arity;
  int gen; /* 1: gets closures (jgen), 0: gets values (jcf) */
  jv (*cf)(jqs *J, jv in, jv *args);
  int (*gf)(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb, void *ud);
} jnative;
extern const jnative jq_natives[];
extern const int jq_nnatives;

struct jqs {
  bi_ctx *c;
  mem *m;
  budget *bud;
  arena ar; /* the program tree */
  jv err;   /* the error value of JR_ERR */
  uint64_t brk, nlabels;
  int depth, maxdepth;
  jnode **globals; /* prelude definitions */
  int nglobals, capglobals;
  jv env_obj; /* $ENV */
  jv named;   /* $__prog_args named */
  int halt_status;
  int halted;
  /* inputs */
  int (*next_input)(jqs *J, jv *out); /* 1, 0 at end, -1 error (err set) */
  void *input_ud;
  jv cur_filename;
  /* error texts while compiling */
  int nerrors;
  const char *src;
  rx_env rxe;
  int rxe_ok;
  void *rxcache;
  writer *errw; /* stderr (debug, stderr, messages) */
  buf tmp;
  jv *lits; /* literals of the tree, freed at the end */
  size_t nlits, caplits;
  char **numlits; /* texts of integer literals a double cannot hold */
  uint32_t nnumlits, capnumlits;
  char colors[8][20];
  int cur_line;     /* input_line_number */
  char *stack_base; /* the command's first frame */
};

int jq_eval(jqs *J, jnode *n, jenv *env, jv in, jv path, jcb cb, void *ud);
int jq_call_closure(jqs *J, jnode *call, int i, jenv *env, jv in, jv path,
                    jcb cb, void *ud);
/* Evaluate argument i of a native call to its values one by one. */
int jq_error(jqs *J, jv v); /* sets J->err, JR_ERR */
int jq_errf(jqs *J, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int jq_poll(jqs *J); /* JR_HALT when the budget says stop */

/* path helpers */
jv jq_getpath(jqs *J, jv v, jv path);                 /* consumes v */
jv jq_setpath(jqs *J, jv v, jv path, size_t i, jv x); /* consumes v, x */
jv jq_delpaths(jqs *J, jv v, jv paths);               /* consumes both */
jv jq_index(jqs *J, jv t, jv k);                      /* consumes t,k */

/* paths.c: t[from:to] (consumes t); the bounds of a slice of len */
jv jq_slice(jqs *J, jv t, jv from, jv to);
void jq_slice_bounds(double len, jv from, jv to, long *s, long *e);

/* parse.c */
jnode *jq_compile(jqs *J, const char *src, size_t n, const char **vars,
                  int nvars, int prelude);

/* strfn.c */
jv jq_format(jqs *J, const char *fmt, jv v); /* consumes v */
jv jq_explode(jqs *J, jv s);
jv jq_implode(jqs *J, jv a);
int jq_utf8_len(const char *p, size_t n);

extern const char jq_prelude[];

#endif
