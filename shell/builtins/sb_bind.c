/*
 * sb_bind.c - bind as a bash without a terminal has it: readline is there
 * (so bind warns that line editing is off, then does its work), its key
 * maps can be changed and listed, but nothing ever reads a key. The
 * defaults are readline's emacs and vi maps and its variables
 * (sb_bind_data.c); emacs-ctlx and emacs-meta are shown as the whole emacs
 * map. A shell's changes are a list of entries applied over the defaults,
 * copied into subshells like the rest of its state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shell/builtins/builtins.h"
#include "shell/builtins/sb_bind.h"
#include "shell/sh.h"

enum { MAP_EMACS, MAP_VI_INSERT, MAP_VI_CMD };
enum { B_FUNC, B_MACRO, B_CMD, B_NONE, B_VAR };

typedef struct bnd {
  unsigned char map, kind;
  char *seq; /* decoded bytes (the name, for B_VAR) */
  char *val; /* function name, macro text, command, or variable value */
} bnd;

typedef struct bind_state {
  bnd *e;
  size_t n, cap;
} bind_state;

static void free_entry(mem *m, bnd *b) {
  mem_free(m, b->seq);
  mem_free(m, b->val);
}

void sh_bind_free(sh_exec *ex) {
  bind_state *s = ex->binds;
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++)
    free_entry(ex->m, &s->e[i]);
  mem_free(ex->m, s->e);
  mem_free(ex->m, s);
  ex->binds = NULL;
}

int sh_bind_copy(sh_exec *dst, const sh_exec *src) {
  const bind_state *s = src->binds;
  if (!s || !s->n)
    return 0;
  bind_state *d = mem_calloc(dst->m, 1, sizeof *d);
  if (!d)
    return -1;
  dst->binds = d;
  d->e = mem_calloc(dst->m, s->n, sizeof *d->e);
  if (!d->e)
    return -1;
  d->cap = s->n;
  for (size_t i = 0; i < s->n; i++) {
    bnd b = s->e[i];
    b.seq = mem_strdup(dst->m, s->e[i].seq);
    b.val = s->e[i].val ? mem_strdup(dst->m, s->e[i].val) : NULL;
    if (!b.seq || (s->e[i].val && !b.val)) {
      free_entry(dst->m, &b);
      return -1;
    }
    d->e[d->n++] = b;
  }
  return 0;
}

static int add_entry(sh_exec *ex, int map, int kind, const char *seq,
                     const char *val) {
  bind_state *s = ex->binds;
  if (!s) {
    s = mem_calloc(ex->m, 1, sizeof *s);
    if (!s)
      return sh_oom(ex);
    ex->binds = s;
  }
  /* copied first: seq or val may be the entry this one replaces */
  bnd b = {(unsigned char)map, (unsigned char)kind, mem_strdup(ex->m, seq),
           val ? mem_strdup(ex->m, val) : NULL};
  if (!b.seq || (val && !b.val)) {
    free_entry(ex->m, &b);
    return sh_oom(ex);
  }
  /* a new binding of a sequence replaces the script's earlier one */
  for (size_t i = 0; i < s->n; i++) {
    bnd *o = &s->e[i];
    if ((o->kind == B_VAR) == (kind == B_VAR) &&
        (kind == B_VAR || o->map == map) && strcmp(o->seq, b.seq) == 0) {
      free_entry(ex->m, o);
      memmove(o, o + 1, (s->n - i - 1) * sizeof *o);
      s->n--;
      break;
    }
  }
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 8;
    bnd *ne = mem_realloc(ex->m, s->e, nc * sizeof *ne);
    if (!ne) {
      free_entry(ex->m, &b);
      return sh_oom(ex);
    }
    s->e = ne;
    s->cap = nc;
  }
  s->e[s->n++] = b;
  return 0;
}

/* ---- key sequences ------------------------------------------------------ */

/* Key sequences are kept as lowercase hex, two digits a byte: a NUL key
 * (\C-@) fits, and strcmp still orders them as readline walks its maps. */
static void put_hex(char *out, size_t *k, int c) {
  static const char hex[] = "0123456789abcdef";
  out[(*k)++] = hex[(c >> 4) & 15];
  out[(*k)++] = hex[c & 15];
}

/* readline's notation to bytes (in hex): \C-x, \M-x (ESC x), \e, \\, \",
 * \NNN, \xHH and the C escapes. out has room for cap bytes, NUL-ended. */
static size_t decode_seq(const char *p, size_t n, char *out, size_t cap) {
  size_t k = 0;
  size_t i = 0;
  while (i < n && k + 5 < cap) {
    int ctrl = 0, meta = 0;
    for (;;) {
      if (i + 2 < n && p[i] == '\\' && p[i + 1] == 'C' && p[i + 2] == '-') {
        ctrl = 1;
        i += 3;
      } else if (i + 2 < n && p[i] == '\\' && p[i + 1] == 'M' &&
                 p[i + 2] == '-') {
        meta = 1;
        i += 3;
      } else {
        break;
      }
    }
    if (i >= n)
      break;
    int c = (unsigned char)p[i++];
    if (c == '\\' && i < n) {
      int e = (unsigned char)p[i++];
      switch (e) {
      case 'e':
        c = 27;
        break;
      case 'a':
        c = 7;
        break;
      case 'b':
        c = 8;
        break;
      case 'd':
        c = 127;
        break;
      case 'f':
        c = 12;
        break;
      case 'n':
        c = 10;
        break;
      case 'r':
        c = 13;
        break;
      case 't':
        c = 9;
        break;
      case 'v':
        c = 11;
        break;
      case 'x': {
        c = 0;
        for (int d = 0;
             d < 2 && i < n && strchr("0123456789abcdefABCDEF", p[i]); d++, i++)
          c = c * 16 + (p[i] <= '9' ? p[i] - '0' : (p[i] | 32) - 'a' + 10);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          c = e - '0';
          for (int d = 0; d < 2 && i < n && p[i] >= '0' && p[i] <= '7'; d++)
            c = c * 8 + (p[i++] - '0');
          c &= 255;
        } else {
          c = e;
        }
      }
    }
    if (ctrl)
      c = c == '?' ? 127 : (c & 0x1f);
    if (meta)
      put_hex(out, &k, 27);
    put_hex(out, &k, c);
  }
  out[k] = 0;
  return k;
}

/* bytes to readline's notation, as bind prints a key sequence */
static int hex_digit(char c) {
  return c <= '9' ? c - '0' : c - 'a' + 10;
}

static void encode_seq(buf *b, const char *s) {
  for (const char *p = s; p[0] && p[1]; p += 2) {
    unsigned c = (unsigned)(hex_digit(p[0]) * 16 + hex_digit(p[1]));
    if (c == 0 && p != s) {
      buf_puts(b, "\\000"); /* readline's spelling past the first key */
    } else if (c == 27) {
      buf_puts(b, "\\e");
    } else if (c < 32) {
      buf_puts(b, "\\C-");
      c = c | 0x40;
      if (c >= 'A' && c <= 'Z')
        c += 32;
      if (c == '\\' || c == '"')
        buf_putc(b, '\\');
      buf_putc(b, (char)c);
    } else if (c == 127) {
      buf_puts(b, "\\C-?");
    } else if (c >= 128) {
      buf_printf(b, "\\%03o", c);
    } else {
      if (c == '\\' || c == '"')
        buf_putc(b, '\\');
      buf_putc(b, (char)c);
    }
  }
}

/* a macro or command as bind prints it: quotes and backslashes escaped */
static void encode_text(buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\\' || *s == '"')
      buf_putc(b, '\\');
    buf_putc(b, *s);
  }
}

/* ---- the effective map ----------------------------------------------------
 */

typedef struct eff {
  const char *seq;
  int kind;
  const char *val;
} eff;

static int eff_cmp(const void *a, const void *b) {
  const unsigned char *x = (const unsigned char *)((const eff *)a)->seq;
  const unsigned char *y = (const unsigned char *)((const eff *)b)->seq;
  return strcmp((const char *)x, (const char *)y) < 0   ? -1
         : strcmp((const char *)x, (const char *)y) > 0 ? 1
                                                        : 0;
}

/* The bindings of map in key order (arena); NULL when out of memory. */
static eff *map_bindings(sh_exec *ex, int map, size_t *n) {
  bind_state *s = ex->binds;
  const sh_rl_bind *defs = map == MAP_EMACS       ? sh_rl_emacs
                           : map == MAP_VI_INSERT ? sh_rl_vi_insert
                                                  : sh_rl_vi_cmd;
  size_t ndef = 0;
  for (const sh_rl_bind *d = defs; d->seq; d++)
    ndef++;
  size_t max = ndef + 256 + (s ? s->n : 0);
  eff *v = arena_alloc(ex->ar, max * sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  unsigned char first[256] = {0}; /* bytes that start a default sequence */
  for (const sh_rl_bind *d = defs; d->seq; d++) {
    size_t cap = 2 * strlen(d->seq) + 6;
    char *t = arena_alloc(ex->ar, cap);
    if (!t)
      return NULL;
    decode_seq(d->seq, strlen(d->seq), t, cap);
    first[hex_digit(t[0]) * 16 + hex_digit(t[1])] = 1;
    v[k++] = (eff){t, B_FUNC, d->fn};
  }
  /* self-insert: emacs on the printable bytes, vi-insert on every byte
   * but NUL that starts nothing else; vi-command on none */
  for (int c = 1; c < 256 && map != MAP_VI_CMD; c++) {
    if (first[c] || (map == MAP_EMACS && (c < 32 || c == 127)))
      continue;
    char *t = arena_alloc(ex->ar, 3);
    if (!t)
      return NULL;
    size_t tk = 0;
    put_hex(t, &tk, c);
    t[tk] = 0;
    v[k++] = (eff){t, B_FUNC, "self-insert"};
  }
  for (size_t i = 0; s && i < s->n; i++) {
    bnd *b = &s->e[i];
    if (b->kind == B_VAR || b->map != map)
      continue;
    size_t j = 0;
    while (j < k && strcmp(v[j].seq, b->seq) != 0)
      j++;
    if (j == k)
      k++;
    v[j] = (eff){b->seq, b->kind, b->val};
  }
  size_t w = 0;
  for (size_t i = 0; i < k; i++)
    if (v[i].kind != B_NONE)
      v[w++] = v[i];
  qsort(v, w, sizeof *v, eff_cmp);
  *n = w;
  return v;
}

static int known_func(const char *name) {
  for (const char *const *f = sh_rl_funcs; *f; f++)
    if (strcmp(*f, name) == 0)
      return 1;
  return 0;
}

/* "NAME can be found on "a", "b"." (at most five keys shown); 0 when the
 * function has no key. */
static int keys_of(buf *b, const eff *v, size_t n, const char *fn,
                   const char *how) {
  int count = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i].kind != B_FUNC || strcmp(v[i].val, fn) != 0)
      continue;
    if (count == 5) {
      buf_puts(b, ", ...\n");
      return count + 1;
    }
    if (count)
      buf_puts(b, ", \"");
    else
      buf_printf(b, "%s %s \"", fn, how);
    encode_seq(b, v[i].seq);
    buf_putc(b, '"');
    count++;
  }
  if (count)
    buf_puts(b, ".\n");
  return count;
}

/* ---- parsing a binding ----------------------------------------------------
 */

/* The key sequence at the start of line: "..." or a key name like
 * Control-x / C-x / Meta-x. Sets *rest after the ':'. 0 on success. */
static int parse_keyseq(const char *line, char *seq, size_t cap,
                        const char **rest) {
  const char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '"' || *p == '\'') {
    char q = *p++;
    const char *st = p;
    while (*p && *p != q) {
      if (*p == '\\' && p[1])
        p++;
      p++;
    }
    decode_seq(st, (size_t)(p - st), seq, cap);
    if (*p)
      p++;
    while (*p && *p != ':')
      p++;
    if (*p != ':')
      return -1;
    *rest = p + 1;
    return 0;
  }
  const char *colon = strchr(p, ':');
  if (!colon)
    return -1;
  size_t n = (size_t)(colon - p);
  char name[64];
  if (n >= sizeof name)
    return -1;
  memcpy(name, p, n);
  name[n] = 0;
  int ctrl = 0, meta = 0;
  char *k = name;
  for (;;) {
    if (!strncasecmp(k, "Control-", 8) || !strncasecmp(k, "C-", 2)) {
      ctrl = 1;
      k += k[1] == '-' ? 2 : 8;
    } else if (!strncasecmp(k, "Meta-", 5) || !strncasecmp(k, "M-", 2)) {
      meta = 1;
      k += k[1] == '-' ? 2 : 5;
    } else {
      break;
    }
  }
  static const struct {
    const char *name;
    char c;
  } names[] = {{"DEL", 127},    {"ESC", 27},    {"Escape", 27}, {"LFD", 10},
               {"Newline", 10}, {"RET", 13},    {"Return", 13}, {"Rubout", 127},
               {"SPC", ' '},    {"Space", ' '}, {"Tab", 9}};
  int c = -1;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcasecmp(k, names[i].name))
      c = (unsigned char)names[i].c;
  if (c < 0) {
    if (strlen(k) != 1)
      return -1;
    c = (unsigned char)k[0];
  }
  if (ctrl)
    c = c == '?' ? 127 : (c & 0x1f);
  if (meta)
    c |= 0x80; /* a key name's Meta is the eighth bit, not ESC */
  size_t j = 0;
  put_hex(seq, &j, c);
  seq[j] = 0;
  *rest = colon + 1;
  return 0;
}

/* The value after the colon: "macro" / 'macro', or a function name. */
static char *parse_value(sh_exec *ex, const char *p, int *is_macro) {
  while (*p == ' ' || *p == '\t')
    p++;
  *is_macro = 0;
  if (*p == '"' || *p == '\'') {
    char q = *p++;
    const char *st = p;
    while (*p && *p != q) {
      if (*p == '\\' && p[1])
        p++;
      p++;
    }
    size_t n = (size_t)(p - st);
    char *out = arena_alloc(ex->ar, 2 * n + 6);
    if (out)
      decode_seq(st, n, out, 2 * n + 6);
    *is_macro = 1;
    return out;
  }
  size_t n = strcspn(p, " \t\n");
  return arena_strndup(ex->ar, p, n);
}

static int set_var(sh_exec *ex, const char *line) {
  const char *p = line + 3;
  while (*p == ' ' || *p == '\t')
    p++;
  size_t nl = strcspn(p, " \t");
  char *name = arena_strndup(ex->ar, p, nl);
  p += nl;
  while (*p == ' ' || *p == '\t')
    p++;
  if (!name)
    return sh_oom(ex);
  for (const sh_rl_var *v = sh_rl_vars; v->name; v++) {
    if (strcasecmp(v->name, name) != 0)
      continue;
    const char *val = p;
    /* a switch takes on/off (anything else is off, empty is on) */
    if (!strcmp(v->val, "on") || !strcmp(v->val, "off"))
      val = !*p || !strcasecmp(p, "on") || !strcmp(p, "1") ? "on" : "off";
    return add_entry(ex, 0, B_VAR, v->name, val);
  }
  return 0; /* readline ignores a variable it does not know */
}

static int bind_line(sh_exec *ex, int map, const char *line) {
  const char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  if (!*p || *p == '#' || *p == '$')
    return 0;
  if (!strncmp(p, "set", 3) && (p[3] == ' ' || p[3] == '\t'))
    return set_var(ex, p);
  char seq[512];
  const char *rest;
  if (parse_keyseq(p, seq, sizeof seq, &rest)) {
    /* readline complains on its own and the status stays 0 */
    sh_err_noline(ex, "readline: %s: no key sequence terminator", p);
    return 0;
  }
  int macro;
  char *val = parse_value(ex, rest, &macro);
  if (!val)
    return sh_oom(ex);
  if (!macro && !known_func(val))
    return add_entry(ex, map, B_NONE, seq, NULL);
  return add_entry(ex, map, macro ? B_MACRO : B_FUNC, seq, val);
}

static int bind_x(sh_exec *ex, int map, const char *arg) {
  const char *p = arg;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '"') {
    sh_builtin_err(ex, "bind", "%s: first non-whitespace character is not `\"'",
                   arg);
    return 1;
  }
  char seq[512];
  const char *rest;
  if (parse_keyseq(p, seq, sizeof seq, &rest)) {
    sh_builtin_err(ex, "bind", "%s: missing colon separator", arg);
    return 1;
  }
  while (*rest == ' ' || *rest == '\t')
    rest++;
  size_t n = strlen(rest);
  if (n >= 2 && (rest[0] == '"' || rest[0] == '\'') && rest[n - 1] == rest[0]) {
    rest++;
    n -= 2;
  }
  char *cmd = arena_strndup(ex->ar, rest, n);
  if (!cmd)
    return sh_oom(ex);
  return add_entry(ex, map, B_CMD, seq, cmd);
}

static int map_number(const char *name) {
  static const struct {
    const char *name;
    int map;
  } maps[] = {{"emacs", MAP_EMACS},       {"emacs-standard", MAP_EMACS},
              {"emacs-meta", MAP_EMACS},  {"emacs-ctlx", MAP_EMACS},
              {"vi", MAP_VI_CMD},         {"vi-move", MAP_VI_CMD},
              {"vi-command", MAP_VI_CMD}, {"vi-insert", MAP_VI_INSERT}};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
    if (strcmp(maps[i].name, name) == 0)
      return maps[i].map;
  return -1;
}

static const char *var_value(sh_exec *ex, const sh_rl_var *v) {
  bind_state *s = ex->binds;
  for (size_t i = 0; s && i < s->n; i++)
    if (s->e[i].kind == B_VAR && strcmp(s->e[i].seq, v->name) == 0)
      return s->e[i].val;
  return v->val;
}

/* ---- the builtin ----------------------------------------------------------
 */

enum {
  BF_L = 1,
  BF_LP = 2,
  BF_UP = 4,
  BF_LS = 8,
  BF_US = 16,
  BF_LV = 32,
  BF_UV = 64,
  BF_X = 128
};

static void list_maps(sh_exec *ex, buf *b, int map, unsigned what) {
  size_t n = 0;
  eff *v = (what & (BF_LP | BF_UP | BF_LS | BF_US | BF_X))
               ? map_bindings(ex, map, &n)
               : NULL;
  if (what & BF_L)
    for (const char *const *f = sh_rl_funcs; *f; f++)
      buf_printf(b, "%s\n", *f);
  if (what & BF_UP) {
    buf_putc(b, '\n');
    for (const char *const *f = sh_rl_funcs; *f; f++)
      if (!keys_of(b, v, n, *f, "can be found on"))
        buf_printf(b, "%s is not bound to any keys\n", *f);
  }
  if (what & BF_LP) {
    buf_putc(b, '\n');
    for (const char *const *f = sh_rl_funcs; *f; f++) {
      int any = 0;
      for (size_t i = 0; i < n; i++) {
        if (v[i].kind != B_FUNC || strcmp(v[i].val, *f) != 0)
          continue;
        buf_putc(b, '"');
        encode_seq(b, v[i].seq);
        buf_printf(b, "\": %s\n", *f);
        any = 1;
      }
      if (!any)
        buf_printf(b, "# %s (not bound)\n", *f);
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (v[i].kind == B_MACRO && (what & BF_LS)) {
      buf_putc(b, '"');
      encode_seq(b, v[i].seq);
      buf_puts(b, "\": \"");
      encode_seq(b, v[i].val);
      buf_puts(b, "\"\n");
    } else if (v[i].kind == B_MACRO && (what & BF_US)) {
      encode_seq(b, v[i].seq);
      buf_puts(b, " outputs ");
      encode_seq(b, v[i].val);
      buf_putc(b, '\n');
    }
  }
  if (what & (BF_LV | BF_UV))
    for (const sh_rl_var *rv = sh_rl_vars; rv->name; rv++) {
      if (what & BF_LV)
        buf_printf(b, "set %s %s\n", rv->name, var_value(ex, rv));
      else
        buf_printf(b, "%s is set to `%s'\n", rv->name, var_value(ex, rv));
    }
  if (what & BF_X)
    for (size_t i = 0; i < n; i++) {
      if (v[i].kind != B_CMD)
        continue;
      buf_putc(b, '"');
      encode_seq(b, v[i].seq);
      buf_puts(b, "\": \"");
      encode_text(b, v[i].val);
      buf_puts(b, "\"\n");
    }
}

int sb_bind(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "bind", argc, argv, "lvpVPsSXf:q:u:m:r:x:");
  g.usage = "[-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] "
            "[-r keyseq] [-x keyseq:shell-command] "
            "[keyseq:readline-function or readline-command]";
  /* bash says this first, whatever follows */
  sh_builtin_err(ex, "bind", "warning: line editing not enabled");
  unsigned what = 0;
  const char *file = NULL, *query = NULL, *unbind = NULL, *keymap = NULL;
  const char *remove[16];
  const char *cmds[16];
  int nremove = 0, ncmds = 0;
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    switch (o) {
    case 'l':
      what |= BF_L;
      break;
    case 'p':
      what |= BF_LP;
      break;
    case 'P':
      what |= BF_UP;
      break;
    case 's':
      what |= BF_LS;
      break;
    case 'S':
      what |= BF_US;
      break;
    case 'v':
      what |= BF_LV;
      break;
    case 'V':
      what |= BF_UV;
      break;
    case 'X':
      what |= BF_X;
      break;
    case 'f':
      file = g.arg;
      break;
    case 'q':
      query = g.arg;
      break;
    case 'u':
      unbind = g.arg;
      break;
    case 'm':
      keymap = g.arg;
      break;
    case 'r':
      if (nremove < 16)
        remove[nremove++] = g.arg;
      break;
    case 'x':
      if (ncmds < 16)
        cmds[ncmds++] = g.arg;
      break;
    }
  }
  if (o < 0)
    return 2;
  int map = MAP_EMACS;
  if (keymap) {
    map = map_number(keymap);
    if (map < 0) {
      sh_builtin_err(ex, "bind", "`%s': invalid keymap name", keymap);
      return 1;
    }
  }
  int st = 0;
  buf b;
  buf_init(&b, ex->m);
  list_maps(ex, &b, map, what);
  if (file) {
    char *data;
    size_t len;
    int e = vfs_read_file(ex->run->v, ex->cwd, file, &data, &len);
    if (e) {
      sh_builtin_err(ex, "bind", "%s: cannot read: %s", file, bi_strerror(-e));
      st = 1;
    } else {
      char *text = arena_strndup(ex->ar, data, len);
      vfs_release(ex->run->v, data);
      for (char *line = text; line && *line && !ex->jump;) {
        char *nl = strchr(line, '\n');
        if (nl)
          *nl = 0;
        if (bind_line(ex, map, line))
          st = 1;
        line = nl ? nl + 1 : NULL;
        if (budget_poll(&ex->run->bud))
          break;
      }
    }
  }
  if (query) {
    if (!known_func(query)) {
      sh_builtin_err(ex, "bind", "`%s': unknown function name", query);
      st = 1;
    } else {
      size_t n = 0;
      eff *v = map_bindings(ex, map, &n);
      if (!v) {
        st = sh_oom(ex);
      } else if (!keys_of(&b, v, n, query, "can be invoked via")) {
        buf_printf(&b, "%s is not bound to any keys.\n", query);
        st = 1;
      }
    }
  }
  if (unbind) {
    if (!known_func(unbind)) {
      sh_builtin_err(ex, "bind", "`%s': unknown function name", unbind);
      st = 1;
    } else {
      size_t n = 0;
      eff *v = map_bindings(ex, map, &n);
      for (size_t i = 0; v && i < n; i++)
        if (v[i].kind == B_FUNC && strcmp(v[i].val, unbind) == 0 &&
            add_entry(ex, map, B_NONE, v[i].seq, NULL))
          st = 1;
    }
  }
  for (int i = 0; i < nremove; i++) {
    char seq[512];
    decode_seq(remove[i], strlen(remove[i]), seq, sizeof seq);
    if (add_entry(ex, map, B_NONE, seq, NULL))
      st = 1;
  }
  for (int i = 0; i < ncmds; i++)
    if (bind_x(ex, map, cmds[i]))
      st = 1;
  for (int i = g.ind; i < argc && !ex->jump; i++)
    if (bind_line(ex, map, argv[i]))
      st = 1;
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}
