/*
 * bc.h - GNU bc 1.07.1 and its dc: shared declarations.
 *
 * bc compiles each line of its input (or a whole definition) into a code
 * array whose instructions take as many slots as GNU bc's byte code takes
 * bytes, so the "adr=N" of a runtime error names the same place; then it
 * runs that code on a stack machine (vm.c) with the numbers of num.c.
 */
#ifndef VSH_BUILTINS_DATA_BC_BC_H
#define VSH_BUILTINS_DATA_BC_BC_H

#include "builtins/data/bc/num.h"

enum {
  BC_BASE_MAX = 2147483647,
  BC_DIM_MAX = 16777215,
  BC_SCALE_MAX = 2147483647,
  BC_CALL_DEPTH = 2000, /* nested function calls */
  BC_STACK_MAX = 100000,
  BC_PARSE_DEPTH = 400, /* nesting of expressions and blocks */
};

/* Instructions. Slots each takes are noted (matching GNU bc's code). */
enum {
  OP_PAD = 0, /* filler slot */
  OP_ZERO,    /* 1 */
  OP_ONE,     /* 1 */
  OP_CONST,   /* 2 + digits: idx */
  OP_LOAD,    /* 2: lvalue (index popped first for arrays) */
  OP_STORE,   /* 2: lvalue; value stays on the stack */
  OP_INCDEC,  /* 4 (arrays 5): lvalue, flags */
  OP_DUP,     /* 1 */
  OP_POP,     /* 1 */
  OP_PRINT,   /* 1: print with newline, set last, pop */
  OP_PRINTV,  /* 1: print without newline, pop */
  OP_STR,     /* 2 + raw length: string idx, printed as is */
  OP_PSTR,    /* 2 + raw length: string idx, escapes processed */
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_MOD,
  OP_POW,
  OP_NEG,
  OP_NOT,
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_JUMP,   /* 3: target */
  OP_JZ,     /* 3: target; pops */
  OP_JNZ,    /* 3: target; pops */
  OP_CALL,   /* 3 + nargs: fidx, arg kinds..., end */
  OP_ARRARG, /* 3: array index (an array passed to a function) */
  OP_SQRT,   /* 2 */
  OP_LENGTH, /* 2 */
  OP_SCALEF, /* 2 */
  OP_READ,   /* 1 */
  OP_RET,    /* 1: return the value on the stack */
  OP_RET0,   /* 2 */
  OP_HALT,   /* 1 */
};

/* An lvalue: kind in the high byte, variable or array index below. */
enum { LV_VAR = 0, LV_ARR, LV_SCALE, LV_IBASE, LV_OBASE, LV_LAST };
#define LV(kind, idx) (((kind) << 24) | (idx))
#define LV_KIND(v) ((v) >> 24)
#define LV_IDX(v) ((v)&0xffffff)
enum { ID_PRE = 1, ID_DEC = 2 };

typedef struct bc_code {
  int *v;
  size_t n, cap;
} bc_code;

typedef struct bc_func {
  char *name;
  int defined;
  int nparams;
  int *params; /* LV(kind, idx) of params then autos */
  int nlocals;
  bc_code code;
} bc_func;

typedef struct bc_const {
  char *text;
  bn *cache;
  int cache_base;
} bc_const;

typedef struct bc_var {
  bn *v;
  struct bc_var *prev;
} bc_var;

typedef struct bc_arr {
  bn **v;
  size_t n;
  struct bc_arr *prev;
} bc_arr;

typedef struct bc_frame {
  int fidx; /* -1: main */
  const int *code;
  size_t n, pc;
  size_t sp;  /* stack depth at the call */
  int pushed; /* locals pushed so far (left to pop on return) */
} bc_frame;

/* A stack entry: a number, or an array passed to a function (arr >= 0). */
typedef struct bc_val {
  bn *n;
  int arr;
} bc_val;

typedef struct bc_names {
  char **v;
  size_t n, cap;
} bc_names;

typedef struct bc {
  bi_ctx *c;
  bn_env e;
  bn_out out;
  writer w;
  /* names: variables, arrays, functions share nothing */
  bc_names vnames, anames, fnames;
  bc_var **vars;
  bc_arr **arrs;
  bc_func *funcs;
  size_t nvars_cap, narrs_cap, nfuncs_cap;
  bc_const *consts;
  size_t nconsts, consts_cap;
  char **strs;
  size_t nstrs, strs_cap;
  bc_code main;
  /* machine */
  bc_val *stack;
  size_t sp, stack_cap;
  bc_frame *frames;
  size_t nframes;
  long scale, ibase, obase;
  bn *last;
  int warn_posix; /* -s / -w */
  int posix_err;
  int quiet;
  int halted;  /* halt or quit: stop everything */
  int fatal;   /* an allocation failed or a limit hit: stop, status 1 */
  int stopped; /* a sandbox limit: return at once */
  int status;
} bc;

/* names.c-like helpers live in vm.c */
int bc_name(bc *b, bc_names *t, const char *s, size_t n);
bc_func *bc_func_at(bc *b, int idx);
int bc_emit(bc *b, bc_code *k, int v);
int bc_add_const(bc *b, const char *s, size_t n);
int bc_add_str(bc *b, const char *s, size_t n);
/* Run code as the main program. */
void bc_run(bc *b, const int *code, size_t n);
void bc_free_all(bc *b);
/* Report an allocation failure / limit (once) and mark b fatal. */
void bc_fatal(bc *b);
void bc_error_msg(bc *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* parse.c: compile and run a whole source text. name is for messages
 * ("(standard_in)" or the file name). Returns -1 once bc must stop. */
int bc_exec_text(bc *b, const char *name, const char *text, size_t len);

/* lib.c: the math library (-l), in bc. */
extern const char bc_mathlib[];

#endif
