/*
 * test.c - bash's test and [ builtins.
 *
 * Up to four arguments follow the POSIX rules by count (so `test -f` and
 * `test ! = x` mean what POSIX says); longer expressions go through bash's
 * recursive parser (-o below -a below !, parentheses). A syntax error ends
 * the evaluation at once (longjmp) with status 2. String < and > compare
 * bytes, as bash's test does; integers follow bash's rules (blanks around
 * them allowed, decimal only).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_test[] = "test: test [expr]";
const char bi_help_test[] =
    "    Check a condition and report the answer in the exit status.\n"
    "\n"
    "    EXPR is made of unary tests (one operand, mostly about files), "
    "binary\n"
    "    tests (comparing two strings or two numbers) and the logical "
    "operators\n"
    "    that combine them. The status is 0 when EXPR holds and 1 when it\n"
    "    does not.\n"
    "\n"
    "    Tests on files:\n"
    "\n"
    "      -a FILE        FILE exists.\n"
    "      -b FILE        FILE names a block device.\n"
    "      -c FILE        FILE names a character device.\n"
    "      -d FILE        FILE names a directory.\n"
    "      -e FILE        FILE exists.\n"
    "      -f FILE        FILE names a plain (regular) file.\n"
    "      -g FILE        FILE carries the set-group-ID bit.\n"
    "      -h FILE        FILE names a symbolic link.\n"
    "      -L FILE        FILE names a symbolic link.\n"
    "      -k FILE        FILE carries the sticky bit.\n"
    "      -p FILE        FILE names a FIFO.\n"
    "      -r FILE        you may read FILE.\n"
    "      -s FILE        FILE exists and holds at least one byte.\n"
    "      -S FILE        FILE names a socket.\n"
    "      -t FD          file descriptor FD refers to a terminal.\n"
    "      -u FILE        FILE carries the set-user-ID bit.\n"
    "      -w FILE        you may write FILE.\n"
    "      -x FILE        you may execute FILE (or search it, for a "
    "directory).\n"
    "      -O FILE        your effective user ID owns FILE.\n"
    "      -G FILE        your effective group ID owns FILE.\n"
    "      -N FILE        FILE changed after it was last read.\n"
    "\n"
    "      FILE1 -nt FILE2  FILE1 has the later modification time.\n"
    "\n"
    "      FILE1 -ot FILE2  FILE1 has the earlier modification time.\n"
    "\n"
    "      FILE1 -ef FILE2  FILE1 and FILE2 are the same file (same device "
    "and\n"
    "                       inode).\n"
    "\n"
    "    Tests on strings:\n"
    "\n"
    "      -z STRING      STRING has length zero.\n"
    "\n"
    "      -n STRING\n"
    "         STRING      STRING has at least one character.\n"
    "\n"
    "      STRING1 = STRING2\n"
    "                     the two strings are identical.\n"
    "      STRING1 != STRING2\n"
    "                     the two strings differ.\n"
    "      STRING1 < STRING2\n"
    "                     STRING1 comes first in byte order.\n"
    "      STRING1 > STRING2\n"
    "                     STRING1 comes last in byte order.\n"
    "\n"
    "    Other tests:\n"
    "\n"
    "      -o OPTION      OPTION is turned on in `set -o'.\n"
    "      -v VAR         a shell variable named VAR has been assigned.\n"
    "      -R VAR         VAR has been assigned and is a name reference\n"
    "                     (declare -n).\n"
    "      ! EXPR         EXPR does not hold.\n"
    "      EXPR1 -a EXPR2 neither EXPR1 nor EXPR2 fails.\n"
    "      EXPR1 -o EXPR2 at least one of EXPR1 and EXPR2 holds.\n"
    "\n"
    "      arg1 OP arg2   compare two integers; OP is one of -eq, -ne,\n"
    "                     -lt, -le, -gt, or -ge.\n"
    "\n"
    "    The integer operators stand for =, !=, <, <=, > and >= in that "
    "order,\n"
    "    with arg1 on the left.\n"
    "\n"
    "    Exit Status:\n"
    "    0 when EXPR holds; 1 when it does not; 2 when the expression is\n"
    "    malformed.\n";

const char bi_usage_lbracket[] = "[: [ arg... ]";
const char bi_help_lbracket[] =
    "    Check a condition; the same as the \"test\" builtin.\n"
    "\n"
    "    The only difference is the closing argument: it must be a literal "
    "`]',\n"
    "    the partner of the opening `['.\n";

typedef struct tst {
  bi_ctx *c;
  char **argv; /* the expression words */
  int argc, pos;
  int depth; /* open parentheses */
  jmp_buf fail;
} tst;

/* Nesting a script may ask for: parentheses recurse, and the recursion
 * must end well inside the fiber's stack. */
#define TEST_MAX_DEPTH 1024

static _Noreturn void syntax(tst *t, const char *fmt, const char *arg) {
  if (arg)
    bi_error(t->c, fmt, arg);
  else
    bi_error(t->c, "%s", fmt);
  longjmp(t->fail, 1);
}

static int streq(const char *a, const char *b) {
  return strcmp(a, b) == 0;
}

static int is_binop(const char *s) {
  static const char *const ops[] = {"=",   "==",  "!=",  "<",   ">",
                                    "-nt", "-ot", "-ef", "-eq", "-ne",
                                    "-lt", "-le", "-gt", "-ge", NULL};
  for (int i = 0; ops[i]; i++)
    if (streq(s, ops[i]))
      return 1;
  return 0;
}

static int is_unop(const char *s) {
  return s[0] == '-' && s[1] && !s[2] &&
         strchr("abcdefghknoprstuvwxzGLOSNR", s[1]) != NULL;
}

/* bash's legal_number: blanks, optional sign, decimal digits, blanks. */
static int legal_number(const char *s, intmax_t *v) {
  char *end;
  errno = 0;
  intmax_t r = strtoimax(s, &end, 10);
  if (errno || end == s)
    return 0;
  while (*end == ' ' || *end == '\t' || *end == '\n')
    end++;
  if (*end)
    return 0;
  *v = r;
  return 1;
}

static intmax_t integer(tst *t, const char *s) {
  intmax_t v;
  if (!legal_number(s, &v))
    syntax(t, "%s: integer expression expected", s);
  return v;
}

static int do_stat(tst *t, const char *path, vfs_stat_t *st, int follow) {
  if (!t->c->vfs || !*path)
    return -ENOENT;
  return follow ? vfs_stat(t->c->vfs, t->c->cwd, path, st)
                : vfs_lstat(t->c->vfs, t->c->cwd, path, st);
}

/* -o NAME: the shell tells its set -o options through SHELLOPTS. */
static int shell_option(tst *t, const char *name) {
  const char *opts = t->c->getenv ? t->c->getenv(t->c, "SHELLOPTS") : NULL;
  size_t n = strlen(name);
  if (!opts || !n)
    return 0;
  for (const char *p = opts; *p;) {
    const char *e = strchr(p, ':');
    size_t k = e ? (size_t)(e - p) : strlen(p);
    if (k == n && memcmp(p, name, n) == 0)
      return 1;
    if (!e)
      break;
    p = e + 1;
  }
  return 0;
}

static int unary_test(tst *t, const char *op, const char *arg) {
  vfs_stat_t st;
  int ch = op[1];
  switch (ch) {
  case 'z':
    return arg[0] == 0;
  case 'n':
    return arg[0] != 0;
  case 'o':
    return shell_option(t, arg);
  case 'v':
    return t->c->getenv && t->c->getenv(t->c, arg) != NULL;
  case 'R': /* namerefs are the shell's: a plain command sees none */
    return 0;
  case 't': /* no terminal in the sandbox */
    return 0;
  case 'h':
  case 'L':
    return do_stat(t, arg, &st, 0) == 0 && st.type == VFS_LNK;
  case 'r':
  case 'w':
  case 'x':
    if (!t->c->vfs || !*arg)
      return 0;
    return vfs_access(t->c->vfs, t->c->cwd, arg,
                      ch == 'r'   ? R_OK
                      : ch == 'w' ? W_OK
                                  : X_OK) == 0;
  default:
    break;
  }
  if (do_stat(t, arg, &st, 1) != 0)
    return 0;
  switch (ch) {
  case 'a':
  case 'e':
    return 1;
  case 'f':
    return st.type == VFS_REG;
  case 'd':
    return st.type == VFS_DIR;
  case 's':
    return st.size > 0;
  case 'S': /* sockets never appear in the vfs */
  case 'b': /* nor block devices */
    return 0;
  case 'p':
    return st.type == VFS_FIFO;
  case 'c':
    return st.type == VFS_CHR;
  case 'g':
    return (st.mode & 02000) != 0;
  case 'u':
    return (st.mode & 04000) != 0;
  case 'k':
    return (st.mode & 01000) != 0;
  case 'O':
    return st.uid == t->c->uid;
  case 'G':
    return st.gid == t->c->gid;
  case 'N':
    return st.mtime_ns > st.atime_ns;
  }
  return 0;
}

static int binary_test(tst *t, const char *l, const char *op, const char *r) {
  if (op[0] != '-') {
    int cmp = strcmp(l, r);
    if (op[0] == '=')
      return cmp == 0;
    if (op[0] == '!')
      return cmp != 0;
    return op[0] == '<' ? cmp < 0 : cmp > 0;
  }
  if (op[1] == 'e' && op[2] == 'f') {
    vfs_stat_t a, b;
    return do_stat(t, l, &a, 1) == 0 && do_stat(t, r, &b, 1) == 0 &&
           a.ino == b.ino;
  }
  if (op[1] == 'n' && op[2] == 't') { /* newer, or only l exists */
    vfs_stat_t a, b;
    int ea = do_stat(t, l, &a, 1) == 0, eb = do_stat(t, r, &b, 1) == 0;
    return ea && (!eb || a.mtime_ns > b.mtime_ns);
  }
  if (op[1] == 'o' && op[2] == 't') {
    vfs_stat_t a, b;
    int ea = do_stat(t, l, &a, 1) == 0, eb = do_stat(t, r, &b, 1) == 0;
    return eb && (!ea || a.mtime_ns < b.mtime_ns);
  }
  intmax_t a = integer(t, l), b = integer(t, r);
  if (streq(op, "-eq"))
    return a == b;
  if (streq(op, "-ne"))
    return a != b;
  if (streq(op, "-lt"))
    return a < b;
  if (streq(op, "-le"))
    return a <= b;
  if (streq(op, "-gt"))
    return a > b;
  return a >= b;
}

static void advance(tst *t, int need) {
  t->pos++;
  if (need && t->pos >= t->argc)
    syntax(t, "argument expected", NULL);
}

static int binary_operator(tst *t) {
  int v =
      binary_test(t, t->argv[t->pos], t->argv[t->pos + 1], t->argv[t->pos + 2]);
  t->pos += 3;
  return v;
}

static int unary_operator(tst *t) {
  const char *op = t->argv[t->pos];
  if (op[1] == 't') { /* -t [FD]: the FD is optional */
    advance(t, 0);
    if (t->pos < t->argc) {
      intmax_t fd;
      if (!legal_number(t->argv[t->pos], &fd))
        return 0;
      advance(t, 0);
    }
    return 0;
  }
  advance(t, 1);
  int v = unary_test(t, op, t->argv[t->pos]);
  advance(t, 0);
  return v;
}

static int expr(tst *t);

static int term(tst *t) {
  if (t->pos >= t->argc)
    syntax(t, "argument expected", NULL);
  const char *a = t->argv[t->pos];
  if (streq(a, "!")) {
    int neg = 0;
    while (t->pos < t->argc && streq(t->argv[t->pos], "!")) {
      advance(t, 1);
      neg = !neg;
    }
    int v = term(t);
    return neg ? !v : v;
  }
  if (streq(a, "(")) {
    if (++t->depth > TEST_MAX_DEPTH)
      syntax(t, "expression nested too deeply", NULL);
    advance(t, 1);
    int v = expr(t);
    t->depth--;
    if (t->pos >= t->argc)
      syntax(t, "`)' expected", NULL);
    if (!streq(t->argv[t->pos], ")"))
      syntax(t, "`)' expected, found %s", t->argv[t->pos]);
    advance(t, 0);
    return v;
  }
  if (t->pos + 3 <= t->argc && is_binop(t->argv[t->pos + 1]))
    return binary_operator(t);
  /* A unary operator needs its operand; as the last word it is a plain
   * string (bash: [ -a -a -a -a ] is false, not an error). */
  if (t->pos + 2 <= t->argc && is_unop(a))
    return unary_operator(t);
  advance(t, 0);
  return a[0] != 0;
}

/* -a binds tighter than -o; both are loops, not recursion, so a long
 * chain of terms needs no stack. Every term is evaluated (a syntax error
 * in a later one is reported even when the result is already known). */
static int and_expr(tst *t) {
  int v = term(t);
  while (t->pos < t->argc && streq(t->argv[t->pos], "-a")) {
    advance(t, 0);
    int w = term(t);
    v = v && w;
  }
  return v;
}

static int or_expr(tst *t) {
  int v = and_expr(t);
  while (t->pos < t->argc && streq(t->argv[t->pos], "-o")) {
    advance(t, 0);
    int w = and_expr(t);
    v = v || w;
  }
  return v;
}

static int expr(tst *t) {
  if (t->pos >= t->argc)
    syntax(t, "argument expected", NULL);
  return or_expr(t);
}

static int two_args(tst *t) {
  const char *a = t->argv[t->pos];
  if (streq(a, "!"))
    return t->argv[t->pos + 1][0] == 0;
  if (is_unop(a))
    return unary_operator(t);
  syntax(t, "%s: unary operator expected", a);
}

static int three_args(tst *t) {
  const char *a = t->argv[t->pos], *op = t->argv[t->pos + 1],
             *b = t->argv[t->pos + 2];
  int v;
  if (is_binop(op)) {
    v = binary_operator(t);
  } else if (streq(op, "-a") || streq(op, "-o")) {
    v = op[1] == 'a' ? (a[0] && b[0]) : (a[0] || b[0]);
  } else if (streq(a, "!")) {
    advance(t, 1);
    v = !two_args(t);
  } else if (streq(a, "(") && streq(b, ")")) {
    v = op[0] != 0;
  } else {
    syntax(t, "%s: binary operator expected", op);
  }
  t->pos = t->argc;
  return v;
}

static int evaluate(tst *t) {
  int v;
  switch (t->argc) {
  case 0:
    return 0;
  case 1:
    return t->argv[0][0] != 0;
  case 2:
    v = two_args(t);
    t->pos = t->argc;
    return v;
  case 3:
    return three_args(t);
  case 4:
    if (streq(t->argv[0], "!")) {
      advance(t, 1);
      return !three_args(t);
    }
    if (streq(t->argv[0], "(") && streq(t->argv[3], ")")) {
      advance(t, 1);
      v = two_args(t);
      t->pos = t->argc;
      return v;
    }
    /* fall through */
  default:
    v = expr(t);
    if (t->pos != t->argc)
      syntax(t, "too many arguments", NULL);
    return v;
  }
}

static int run(bi_ctx *c, int bracket) {
  tst t;
  t.c = c;
  t.argv = c->argv + 1;
  t.argc = c->argc - 1;
  t.pos = 0;
  t.depth = 0;
  if (bracket) {
    if (t.argc == 0 || !streq(t.argv[t.argc - 1], "]")) {
      bi_error(c, "missing `]'");
      return 2;
    }
    t.argc--;
  }
  if (setjmp(t.fail))
    return 2;
  return evaluate(&t) ? 0 : 1;
}

int bi_test(bi_ctx *c) {
  return run(c, 0);
}
int bi_lbracket(bi_ctx *c) {
  return run(c, 1);
}
