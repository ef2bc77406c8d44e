/* lex.c - awk tokens. A '/' starts a regex unless the previous token ends
 * an operand (then it divides), which is how every awk decides it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "builtins/textutil.h"

static const struct {
  const char *w;
  int tok, bi;
} kw[] = {
    {"BEGIN", T_BEGIN, 0},
    {"END", T_END, 0},
    {"BEGINFILE", T_BEGINFILE, 0},
    {"ENDFILE", T_ENDFILE, 0},
    {"function", T_FUNCTION, 0},
    {"func", T_FUNCTION, 0},
    {"if", T_IF, 0},
    {"else", T_ELSE, 0},
    {"while", T_WHILE, 0},
    {"for", T_FOR, 0},
    {"do", T_DO, 0},
    {"break", T_BREAK, 0},
    {"continue", T_CONTINUE, 0},
    {"next", T_NEXT, 0},
    {"nextfile", T_NEXTFILE, 0},
    {"exit", T_EXIT, 0},
    {"return", T_RETURN, 0},
    {"delete", T_DELETE, 0},
    {"getline", T_GETLINE, 0},
    {"print", T_PRINT, 0},
    {"printf", T_PRINTF, 0},
    {"in", T_IN, 0},
    {"switch", T_SWITCH, 0},
    {"case", T_CASE, 0},
    {"default", T_DEFAULT, 0},
    {"length", T_BUILTIN, B_LENGTH},
    {"substr", T_BUILTIN, B_SUBSTR},
    {"index", T_BUILTIN, B_INDEX},
    {"split", T_BUILTIN, B_SPLIT},
    {"sub", T_BUILTIN, B_SUB},
    {"gsub", T_BUILTIN, B_GSUB},
    {"match", T_BUILTIN, B_MATCH},
    {"sprintf", T_BUILTIN, B_SPRINTF},
    {"tolower", T_BUILTIN, B_TOLOWER},
    {"toupper", T_BUILTIN, B_TOUPPER},
    {"int", T_BUILTIN, B_INT},
    {"sqrt", T_BUILTIN, B_SQRT},
    {"exp", T_BUILTIN, B_EXP},
    {"log", T_BUILTIN, B_LOG},
    {"sin", T_BUILTIN, B_SIN},
    {"cos", T_BUILTIN, B_COS},
    {"atan2", T_BUILTIN, B_ATAN2},
    {"rand", T_BUILTIN, B_RAND},
    {"srand", T_BUILTIN, B_SRAND},
    {"close", T_BUILTIN, B_CLOSE},
    {"fflush", T_BUILTIN, B_FFLUSH},
    {"system", T_BUILTIN, B_SYSTEM},
    {"gensub", T_BUILTIN, B_GENSUB},
    {"asort", T_BUILTIN, B_ASORT},
    {"asorti", T_BUILTIN, B_ASORTI},
    {"strftime", T_BUILTIN, B_STRFTIME},
    {"systime", T_BUILTIN, B_SYSTIME},
    {"mktime", T_BUILTIN, B_MKTIME},
    {"patsplit", T_BUILTIN, B_PATSPLIT},
};

const char *awk_tokname(int t) {
  (void)t;
  return "token";
}

static int ends_operand(int t) {
  switch (t) {
  case T_NAME:
  case T_NUM:
  case T_STR:
  case T_ERE:
  case T_RPAREN:
  case T_RBRACK:
  case T_BUILTIN:
  case T_INCR:
  case T_DECR:
  case T_DOLLAR:
    return 1;
  default:
    return 0;
  }
}

int awk_escape(const char *s, size_t n, size_t *i) {
  int ch = (unsigned char)s[*i];
  int lit = tu_escape_char(ch);
  if (lit >= 0 || ch == '"' || ch == '/') {
    (*i)++;
    return lit >= 0 ? lit : ch;
  }
  if (ch == 'x' && *i + 1 < n && isxdigit((unsigned char)s[*i + 1])) {
    int v = 0, k = 0; /* gawk: \x and at most two hex digits */
    (*i)++;
    while (k < 2 && *i < n && isxdigit((unsigned char)s[*i])) {
      int d = (unsigned char)s[*i];
      v = v * 16 + (d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
      (*i)++;
      k++;
    }
    return v;
  }
  if (ch >= '0' && ch <= '7') {
    int v = 0, k = 0;
    while (k < 3 && *i < n && s[*i] >= '0' && s[*i] <= '7') {
      v = v * 8 + (s[*i] - '0');
      (*i)++;
      k++;
    }
    return v;
  }
  return -1;
}

void awk_put_escape(buf *o, const char *s, size_t n, size_t *i) {
  int v = awk_escape(s, n, i);
  if (v >= 0) {
    buf_putc(o, v);
    return;
  }
  /* gawk: an unknown escape stands for its character */
  buf_putc(o, s[(*i)++]);
}

static int lex1(awk *A) {
  const char *s = A->src;
  size_t n = A->srclen;
  for (;;) {
    while (A->pos < n &&
           (s[A->pos] == ' ' || s[A->pos] == '\t' || s[A->pos] == '\r'))
      A->pos++;
    if (A->pos + 1 < n && s[A->pos] == '\\' &&
        (s[A->pos + 1] == '\n' ||
         (s[A->pos + 1] == '\r' && A->pos + 2 < n && s[A->pos + 2] == '\n'))) {
      A->pos += s[A->pos + 1] == '\n' ? 2 : 3;
      A->line++;
      continue;
    }
    if (A->pos < n && s[A->pos] == '#') {
      while (A->pos < n && s[A->pos] != '\n')
        A->pos++;
      continue;
    }
    break;
  }
  A->tokstart = A->pos;
  if (A->pos >= n)
    return T_EOF;
  char ch = s[A->pos++];
  char nx = A->pos < n ? s[A->pos] : 0;
#define TWO(c2, t2, t1)                                                        \
  do {                                                                         \
    if (nx == (c2)) {                                                          \
      A->pos++;                                                                \
      return t2;                                                               \
    }                                                                          \
    return t1;                                                                 \
  } while (0)
  switch (ch) {
  case '\n':
    A->line++;
    return T_NL;
  case '{':
    return T_LBRACE;
  case '}':
    return T_RBRACE;
  case '(':
    return T_LPAREN;
  case ')':
    return T_RPAREN;
  case '[':
    return T_LBRACK;
  case ']':
    return T_RBRACK;
  case ';':
    return T_SEMI;
  case ',':
    return T_COMMA;
  case '?':
    return T_QUEST;
  case ':':
    return T_COLON;
  case '~':
    return T_TILDE;
  case '$':
    return T_DOLLAR;
  case '+':
    if (nx == '+') {
      A->pos++;
      return T_INCR;
    }
    TWO('=', T_ADD_ASSIGN, T_ADD);
  case '-':
    if (nx == '-') {
      A->pos++;
      return T_DECR;
    }
    TWO('=', T_SUB_ASSIGN, T_SUB);
  case '*':
    if (nx == '*') { /* ** and **= as ^ */
      A->pos++;
      nx = A->pos < n ? s[A->pos] : 0;
      TWO('=', T_POW_ASSIGN, T_POW);
    }
    TWO('=', T_MUL_ASSIGN, T_MUL);
  case '%':
    TWO('=', T_MOD_ASSIGN, T_MOD);
  case '^':
    TWO('=', T_POW_ASSIGN, T_POW);
  case '=':
    TWO('=', T_EQ, T_ASSIGN);
  case '!':
    if (nx == '~') {
      A->pos++;
      return T_NOMATCH;
    }
    TWO('=', T_NE, T_NOT);
  case '<':
    TWO('=', T_LE, T_LT);
  case '>':
    if (nx == '>') {
      A->pos++;
      return T_APPEND;
    }
    TWO('=', T_GE, T_GT);
  case '|':
    TWO('|', T_OR, T_PIPE);
  case '&':
    if (nx == '&') {
      A->pos++;
      return T_AND;
    }
    break;
  case '@': {
    /* gawk's directives read other files or load code: a program here is
     * the text it is given, nothing more */
    size_t st = A->pos;
    while (A->pos < n && ((s[A->pos] >= 'a' && s[A->pos] <= 'z') ||
                          (s[A->pos] >= 'A' && s[A->pos] <= 'Z')))
      A->pos++;
    size_t wl = A->pos - st;
    if ((wl == 7 && !memcmp(s + st, "include", 7)) ||
        (wl == 4 && !memcmp(s + st, "load", 4)) ||
        (wl == 9 && !memcmp(s + st, "namespace", 9))) {
      A->lexerr = wl == 7   ? "@include is not supported: give every "
                              "source file with -f"
                  : wl == 4 ? "@load is not supported: extensions cannot "
                              "be loaded"
                            : "@namespace is not supported";
      A->pos = st;
      return -1;
    }
    A->pos = st;
    return -1;
  }
  case '"': {
    buf_clear(&A->tstr);
    size_t open = A->pos - 1;
    while (A->pos < n && s[A->pos] != '"') {
      if (s[A->pos] == '\n') {
        A->lexerr = "unterminated string";
        A->pos = open + 1;
        return -1;
      }
      if (s[A->pos] == '\\' && A->pos + 1 < n) {
        A->pos++;
        if (s[A->pos] == '\n') { /* continuation inside a string */
          A->pos++;
          A->line++;
          continue;
        }
        awk_put_escape(&A->tstr, s, n, &A->pos);
        continue;
      }
      buf_putc(&A->tstr, s[A->pos++]);
    }
    if (A->pos >= n) {
      A->lexerr = "unterminated string";
      A->pos = open + 1;
      return -1;
    }
    A->pos++;
    return T_STR;
  }
  case '/':
    if (!ends_operand(A->prevtok)) {
      /* A regex: kept as typed but for \/ ; brackets may hold '/'. */
      buf_clear(&A->tstr);
      int inbr = 0;
      size_t open = A->pos - 1;
      while (A->pos < n && (s[A->pos] != '/' || inbr)) {
        char d = s[A->pos];
        if (d == '\n') {
          A->lexerr = "unterminated regexp";
          A->pos = open + 2; /* gawk: the caret after the slash */
          return -1;
        }
        if (d == '\\' && A->pos + 1 < n) {
          if (s[A->pos + 1] == '/') {
            buf_putc(&A->tstr, '/');
          } else {
            buf_putc(&A->tstr, '\\');
            buf_putc(&A->tstr, s[A->pos + 1]);
          }
          A->pos += 2;
          continue;
        }
        if (d == '[' && !inbr) {
          inbr = 1;
          buf_putc(&A->tstr, d);
          A->pos++;
          if (A->pos < n && s[A->pos] == '^')
            buf_putc(&A->tstr, s[A->pos++]);
          if (A->pos < n && s[A->pos] == ']')
            buf_putc(&A->tstr, s[A->pos++]);
          continue;
        }
        if (d == '[' && inbr && A->pos + 1 < n &&
            (s[A->pos + 1] == ':' || s[A->pos + 1] == '.' ||
             s[A->pos + 1] == '=')) {
          char close = s[A->pos + 1];
          const char *e = NULL;
          for (size_t j = A->pos + 2; j + 1 < n && s[j] != '\n'; j++)
            if (s[j] == close && s[j + 1] == ']') {
              e = s + j;
              break;
            }
          if (e) {
            size_t len = (size_t)(e - (s + A->pos)) + 2;
            buf_append(&A->tstr, s + A->pos, len);
            A->pos += len;
            continue;
          }
        }
        if (d == ']' && inbr)
          inbr = 0;
        buf_putc(&A->tstr, d);
        A->pos++;
      }
      if (A->pos >= n) {
        A->lexerr = "unterminated regexp";
        A->pos = open + 2 <= n ? open + 2 : n;
        return -1;
      }
      A->pos++;
      return T_ERE;
    }
    TWO('=', T_DIV_ASSIGN, T_DIV);
  default:
    break;
  }
  if (ch == '0' && (nx == 'x' || nx == 'X') && A->pos + 1 < n &&
      isxdigit((unsigned char)s[A->pos + 1])) { /* gawk: 0x1F */
    size_t i = A->pos + 1;
    double v = 0;
    for (; i < n && isxdigit((unsigned char)s[i]); i++)
      v = v * 16 + (s[i] <= '9'   ? s[i] - '0'
                    : s[i] >= 'a' ? s[i] - 'a' + 10
                                  : s[i] - 'A' + 10);
    A->tnum = v;
    A->pos = i;
    return T_NUM;
  }
  if (ch == '0' && nx >= '0' && nx <= '7') { /* gawk: 011 is octal */
    size_t i = A->pos;
    double v = 0;
    while (i < n && s[i] >= '0' && s[i] <= '7')
      v = v * 8 + (s[i++] - '0');
    if (i >= n || !(s[i] == '8' || s[i] == '9' || s[i] == '.' || s[i] == 'e' ||
                    s[i] == 'E')) {
      A->tnum = v;
      A->pos = i;
      return T_NUM;
    }
  }
  if ((ch >= '0' && ch <= '9') || (ch == '.' && nx >= '0' && nx <= '9')) {
    size_t st = A->pos - 1, i = st;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
    if (i < n && s[i] == '.') {
      i++;
      while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      size_t j = i + 1;
      if (j < n && (s[j] == '+' || s[j] == '-'))
        j++;
      if (j < n && s[j] >= '0' && s[j] <= '9') {
        while (j < n && s[j] >= '0' && s[j] <= '9')
          j++;
        i = j;
      }
    }
    char tmp[128];
    size_t len = i - st < sizeof tmp - 1 ? i - st : sizeof tmp - 1;
    memcpy(tmp, s + st, len);
    tmp[len] = 0;
    A->tnum = strtod(tmp, NULL);
    A->pos = i;
    return T_NUM;
  }
  if (ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
    size_t st = A->pos - 1;
    while (A->pos < n &&
           (s[A->pos] == '_' || (s[A->pos] >= 'a' && s[A->pos] <= 'z') ||
            (s[A->pos] >= 'A' && s[A->pos] <= 'Z') ||
            (s[A->pos] >= '0' && s[A->pos] <= '9')))
      A->pos++;
    buf_clear(&A->tstr);
    buf_append(&A->tstr, s + st, A->pos - st);
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
      if (strlen(kw[k].w) == A->pos - st &&
          memcmp(kw[k].w, s + st, A->pos - st) == 0) {
        A->tbi = kw[k].bi;
        return kw[k].tok;
      }
    if (A->pos < n && s[A->pos] == '(')
      return T_FUNC_NAME;
    return T_NAME;
  }
  if ((unsigned char)ch > ' ' && (unsigned char)ch < 0x7f) {
    snprintf(A->lexmsg, sizeof A->lexmsg, "invalid char '%c' in expression",
             ch);
    A->lexerr = A->lexmsg;
  }
  return -1;
}

int awk_lex(awk *A) {
  int t = lex1(A);
  A->tokend = A->pos;
  A->prevtok = t;
  A->tok = t;
  return t;
}
