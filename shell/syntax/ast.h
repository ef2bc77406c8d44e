/*
 * ast.h - the syntax tree shared by the parser (parse*.c) and the
 * interpreter (exec*.c, expand*.c). All nodes live in an arena owned by
 * whoever parsed them; the tree is immutable once built, so function bodies
 * and cached command substitutions can be shared freely.
 *
 * Words are parsed at parse time into parts (literal text, quotes,
 * expansions), so the expander never re-scans source text. Quoting is kept
 * as structure: an unquoted literal may undergo brace expansion, field
 * splitting (only expansion results are split) and pathname expansion; a
 * quoted one may not.
 */
#ifndef VSH_SHELL_AST_H
#define VSH_SHELL_AST_H

#include <stddef.h>

typedef struct sh_node sh_node;
typedef struct sh_word sh_word;
typedef struct sh_part sh_part;
typedef struct sh_redir sh_redir;
typedef struct sh_assign sh_assign;
typedef struct sh_cond sh_cond;

/* ---- words ------------------------------------------------------------- */

typedef enum sh_part_kind {
  WP_LIT,     /* text; quoted=1 for '...', $'...', \c and literal text
                 inside "..." */
  WP_DQUOTE,  /* "...": children in parts/nparts */
  WP_PARAM,   /* $x ${...} */
  WP_CMDSUB,  /* $(...) or `...` */
  WP_ARITH,   /* $((...)) */
  WP_TILDE,   /* ~ or ~user at the start of a word or after = / : in
                 assignments; text = user name ("" for ~) */
  WP_PROCSUB, /* <(...) (dir '<') or >(...) (dir '>') */
  WP_EXTGLOB  /* @(..) *(..) +(..) ?(..) !(..) when extglob is on at parse
                 time: text is the whole pattern source, unquoted */
} sh_part_kind;

typedef enum sh_param_op {
  PO_PLAIN,    /* $x ${x} ${a[i]} */
  PO_LENGTH,   /* ${#x} ${#a[@]} */
  PO_INDIRECT, /* ${!x} (with any sub-operation applied after) */
  PO_KEYS,     /* ${!a[@]} ${!a[*]} */
  PO_NAMES     /* ${!prefix*} ${!prefix@} */
} sh_param_op;

typedef enum sh_param_sub {
  PS_NONE,
  PS_DEFAULT,     /* ${x-w} ${x:-w} */
  PS_ASSIGN,      /* ${x=w} ${x:=w} */
  PS_ERROR,       /* ${x?w} ${x:?w} */
  PS_ALT,         /* ${x+w} ${x:+w} */
  PS_TRIM_SP,     /* ${x#p}  shortest prefix */
  PS_TRIM_LP,     /* ${x##p} longest prefix */
  PS_TRIM_SS,     /* ${x%p}  shortest suffix */
  PS_TRIM_LS,     /* ${x%%p} longest suffix */
  PS_REPLACE,     /* ${x/p/r} */
  PS_REPLACE_ALL, /* ${x//p/r} */
  PS_REPLACE_PRE, /* ${x/#p/r} */
  PS_REPLACE_SUF, /* ${x/%p/r} */
  PS_SLICE,       /* ${x:off} ${x:off:len}; arg1 off, arg2 len or NULL */
  PS_UPPER_FIRST, /* ${x^p} */
  PS_UPPER_ALL,   /* ${x^^p} */
  PS_LOWER_FIRST, /* ${x,p} */
  PS_LOWER_ALL,   /* ${x,,p} */
  PS_TRANSFORM    /* ${x@Q} etc.; transform holds the letter */
} sh_param_sub;

typedef struct sh_param {
  const char *name; /* "x", "10", "@", "*", "#", "?", "$", "!", "-", "0" */
  sh_word *index;   /* subscript text of a[...] as a word, or NULL */
  int index_at;     /* subscript is [@] (1) or [*] (2) */
  sh_param_op op;
  sh_param_sub sub;
  int colon;       /* ':' form of - = ? + */
  sh_word *arg1;   /* word / pattern / offset (may be NULL: empty) */
  sh_word *arg2;   /* replacement / length, NULL when absent */
  char transform;  /* Q E P A K a u U L k for PS_TRANSFORM */
  int braced;      /* written as ${...} */
  int bad;         /* ${...} that bash cannot parse (${x y}, ${#x:-w}): a
                      "bad substitution" error when expanded, at run time
                      as in bash; only src is meaningful */
  const char *src; /* source text of ${...} (NULL for $x), for messages */
  size_t src_len;
} sh_param;

struct sh_part {
  sh_part_kind kind;
  int quoted; /* WP_LIT: text came from quotes or a backslash */
  union {
    struct {
      const char *text; /* may contain NUL only via $'\0'... (cut there) */
      size_t len;
    } lit; /* WP_LIT, WP_TILDE, WP_EXTGLOB */
    struct {
      sh_part *parts;
      size_t nparts;
    } dq;           /* WP_DQUOTE */
    sh_param param; /* WP_PARAM */
    struct {
      sh_node *body; /* NULL for an empty $( ) */
      int backtick;
      const char *src; /* source text of the body */
      size_t src_len;
      /* `...` whose body has a syntax error: reported when it runs */
      const char *err;
      int err_line;
    } cmdsub; /* WP_CMDSUB, WP_PROCSUB */
    struct {
      sh_word *expr; /* expanded, then evaluated */
    } arith;         /* WP_ARITH */
  } u;
  char dir; /* WP_PROCSUB: '<' or '>' */
};

enum {
  SW_ASSIGN_LIKE = 1u << 0, /* NAME=... argument of declare/local/export/
                               readonly/typeset/alias: not split or globbed
                               after '=' */
  SW_HAS_QUOTES = 1u << 1   /* some part was quoted (affects "" -> "") */
};

struct sh_word {
  sh_part *parts;
  size_t nparts;
  unsigned flags;  /* SW_* */
  const char *src; /* original source text of the word */
  size_t src_len;
  sh_assign *assign; /* SW_ASSIGN_LIKE words of the form NAME=...: the
                        parsed assignment (name, index, +=, value or array
                        literal as in `local -a a=(1 2)`); parts then hold
                        the "NAME=" text as a literal followed by the
                        value's parts (for an array: the whole source
                        text as one literal) */
};

/* ---- redirections ------------------------------------------------------ */

typedef enum sh_redir_op {
  R_IN,            /* <  */
  R_OUT,           /* >  */
  R_CLOBBER,       /* >| */
  R_APPEND,        /* >> */
  R_INOUT,         /* <> */
  R_DUP_IN,        /* <& word (a number or -) */
  R_DUP_OUT,       /* >& word */
  R_HEREDOC,       /* << and <<- (strip set) */
  R_HERESTRING,    /* <<< */
  R_OUT_ERR,       /* &> (and >& file) */
  R_APPEND_OUT_ERR /* &>> */
} sh_redir_op;

struct sh_redir {
  sh_redir_op op;
  int fd;             /* explicit fd, or -1 for the default */
  const char *fd_var; /* {name}>file form, else NULL */
  sh_word *target;    /* file, fd word, here-string word */
  sh_word *heredoc;   /* body: parts with expansions unless quoted */
  int heredoc_quoted; /* delimiter was quoted: body is literal */
  int strip_tabs;     /* <<- */
  sh_redir *next;
};

/* ---- assignments ------------------------------------------------------- */

typedef struct sh_array_elem {
  sh_word *key; /* [key]=value form, else NULL */
  sh_word *value;
  int append; /* [key]+=value */
} sh_array_elem;

struct sh_assign {
  const char *name;
  sh_word *index;       /* a[i]=v, else NULL */
  int append;           /* += */
  sh_word *value;       /* scalar value (may be an empty word), or NULL when
                           array is set */
  sh_array_elem *array; /* x=(...) */
  size_t narray;
  int is_array;
  sh_assign *next;
};

/* ---- [[ ... ]] --------------------------------------------------------- */

typedef enum sh_cond_kind {
  C_AND,
  C_OR,
  C_NOT,
  C_UNARY,  /* op is "-f", "-z", "-v", ... ; a is the operand */
  C_BINARY, /* op is "==", "!=", "=~", "<", "-eq", "-nt", ... */
  C_WORD    /* a lone word: true when non-empty */
} sh_cond_kind;

struct sh_cond {
  sh_cond_kind kind;
  const char *op;
  sh_word *a, *b; /* for == != the right side is a pattern; for =~ a
                     regex (quoted parts match literally) */
  sh_cond *l, *r; /* C_AND, C_OR; C_NOT uses l */
  int paren;      /* written inside ( ) (for printing only) */
};

/* ---- commands ---------------------------------------------------------- */

typedef enum sh_node_kind {
  N_SIMPLE,
  N_PIPELINE,
  N_AND,      /* l && r */
  N_OR,       /* l || r */
  N_LIST,     /* items run in order; an item may be async (&) */
  N_SUBSHELL, /* ( list ) */
  N_GROUP,    /* { list; } */
  N_IF,
  N_WHILE,
  N_UNTIL,
  N_FOR,
  N_FOR_ARITH, /* for ((init; cond; step)) */
  N_SELECT,
  N_CASE,
  N_FUNCDEF,
  N_ARITH, /* (( expr )) */
  N_COND,  /* [[ ... ]] */
  N_TIME   /* time [-p] pipeline (reserved word) */
} sh_node_kind;

typedef enum sh_case_term {
  CT_BREAK,   /* ;; */
  CT_FALL,    /* ;& */
  CT_CONTINUE /* ;;& */
} sh_case_term;

typedef struct sh_case_item {
  sh_word **patterns;
  size_t npatterns;
  sh_node *body; /* may be NULL */
  sh_case_term term;
} sh_case_item;

typedef struct sh_list_item {
  sh_node *node;
  int async;   /* terminated by & */
  int newline; /* followed by a newline rather than ';' (only printing
                  $(...) bodies cares, as bash keeps the difference) */
} sh_list_item;

struct sh_node {
  sh_node_kind kind;
  int line;         /* line where the command starts (1-based) */
  sh_redir *redirs; /* for N_SIMPLE and compound commands */
  union {
    struct {
      sh_assign *assigns; /* prefix assignments */
      sh_word **words;
      size_t nwords;
    } simple;
    struct {
      sh_node **cmds;
      size_t ncmds;
      int bang;        /* ! pipeline */
      int *stderr_too; /* per stage i (0..ncmds-2): joined with |& */
    } pipe;
    struct {
      sh_node *l, *r;
    } andor; /* N_AND, N_OR */
    struct {
      sh_list_item *items;
      size_t nitems;
    } list;
    struct {
      sh_node *body;
    } group; /* N_SUBSHELL, N_GROUP */
    struct {
      sh_node *cond, *then_part, *else_part; /* elif = nested N_IF */
    } if_;
    struct {
      sh_node *cond, *body;
    } loop; /* N_WHILE, N_UNTIL */
    struct {
      const char *var;
      sh_word **words; /* NULL with has_in == 0: "$@" */
      size_t nwords;
      int has_in;
      sh_node *body;
    } for_; /* N_FOR, N_SELECT */
    struct {
      sh_word *init, *cond, *step; /* each may be NULL */
      sh_node *body;
    } for_arith;
    struct {
      sh_word *word;
      sh_case_item *items;
      size_t nitems;
    } case_;
    struct {
      const char *name;
      sh_node *body;   /* a compound command (its redirs apply per call) */
      const char *src; /* source text of the definition, for type/-f */
      size_t src_len;
    } func;
    struct {
      sh_word *expr;
    } arith; /* N_ARITH */
    struct {
      sh_cond *expr;
    } cond; /* N_COND */
    struct {
      sh_node *pipeline;
      int posix; /* time -p */
    } time;
  } u;
};

#endif
