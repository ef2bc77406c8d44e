/*
 * bc.c - the bc command (GNU bc 1.07.1): options, the math library, the
 * file operands in order and then standard input.
 *
 * Each file is read whole through the VFS and run line by line; a file
 * that cannot be read ends bc ("File NAME is unavailable.", status 1).
 * Numbers are capped at BC_MAX_DIGITS digits so that a huge power ends
 * with a runtime error instead of exhausting the sandbox.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/bc/bc.h"

enum { BC_MAX_DIGITS = 1000000 };

const char bi_usage_bc[] = "Usage: bc [OPTION]... [FILE]...";
const char bi_help_bc[] =
    "An arbitrary precision calculator language: run the statements of each\n"
    "FILE, then those read from standard input.\n"
    "\n"
    "  -h, --help         print this summary and quit\n"
    "  -i, --interactive  accepted for compatibility (input is never a "
    "terminal)\n"
    "  -l, --mathlib      load the math library (s c a l e j) and set scale "
    "to 20\n"
    "  -q, --quiet        accepted for compatibility (no banner is printed)\n"
    "  -s, --standard     accepted; POSIX-only checking is not done\n"
    "  -w, --warn         accepted; POSIX-only checking is not done\n"
    "  -v, --version      print the version line and quit\n"
    "\n"
    "BC_LINE_LENGTH sets where long numbers are split with a backslash\n"
    "(70 by default; 0 never splits). read() is not available: standard\n"
    "input is the program.\n";

static const char *const bc_longs[] = {
    "help", "interactive", "mathlib", "quiet", "standard", "warn", "version"};
static const char bc_shorts[] = "hilqswv";

/* After an invalid option GNU bc prints its usage on stdout. */
static void bc_usage(bi_ctx *c) {
  stream_printf(c->out, "%s\n%s", bi_usage_bc, bi_help_bc);
}

/* Whole contents of a file operand (or stdin for NULL), mem allocated. */
static char *slurp(bc *b, const char *path, size_t *len, int *err) {
  stream *s;
  if (path) {
    s = bi_open_read(b->c, path, err);
    if (!s)
      return NULL;
  } else {
    s = stream_ref(b->c->in);
  }
  char *data = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 > cap) {
      size_t nc = cap ? cap * 2 : 8192;
      char *nd = mem_realloc(b->e.m, data, nc);
      if (!nd) {
        *err = ENOMEM;
        goto fail;
      }
      data = nd;
      cap = nc;
    }
    long r = stream_read(s, data + n, cap - n);
    if (r < 0) {
      *err = s->err ? s->err : EIO;
      goto fail;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  stream_unref(s);
  *len = n;
  return data;
fail:
  stream_unref(s);
  mem_free(b->e.m, data);
  return NULL;
}

/* Parse options as GNU getopt_long would; returns the index of the first
 * operand after permutation into ops, or -1 (status in *st). */
static int bc_opts(bi_ctx *c, int *mathlib, char **ops, int *nops, int *st) {
  int done = 0;
  *nops = 0;
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (done || a[0] != '-' || !a[1]) {
      ops[(*nops)++] = c->argv[i];
      continue;
    }
    if (!strcmp(a, "--")) {
      done = 1;
      continue;
    }
    char o = 0;
    if (a[1] == '-') {
      size_t n = strlen(a + 2);
      int hit = -1, nh = 0;
      for (int k = 0; k < 7; k++)
        if (!strncmp(bc_longs[k], a + 2, n)) {
          if (strlen(bc_longs[k]) == n) {
            hit = k;
            nh = 1;
            break;
          }
          hit = k;
          nh++;
        }
      if (nh != 1) {
        stream_printf(c->err,
                      nh ? "%s: option '%s' is ambiguous\n"
                         : "%s: unrecognized option '%s'\n",
                      c->argv[0], a);
        bc_usage(c);
        *st = 1;
        return -1;
      }
      o = bc_shorts[hit];
      if (o == 'h') {
        *st = bi_print_help(c);
        return -1;
      }
      if (o == 'v') {
        stream_printf(c->out, "%s (GNU bc compatible; vsh) 1.07.1\n",
                      c->argv[0]);
        *st = 0;
        return -1;
      }
      if (o == 'l')
        *mathlib = 1;
      continue;
    }
    for (const char *p = a + 1; *p; p++) {
      if (!strchr(bc_shorts, *p)) {
        stream_printf(c->err, "%s: invalid option -- '%c'\n", c->argv[0], *p);
        bc_usage(c);
        *st = 1;
        return -1;
      }
      if (*p == 'h') {
        *st = bi_print_help(c);
        return -1;
      }
      if (*p == 'v') {
        stream_printf(c->out, "%s (GNU bc compatible; vsh) 1.07.1\n",
                      c->argv[0]);
        *st = 0;
        return -1;
      }
      if (*p == 'l')
        *mathlib = 1;
    }
  }
  return 0;
}

int bi_bc(bi_ctx *c) {
  int mathlib = 0, nops = 0, st = 0;
  char **ops = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
  if (!ops) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  if (bc_opts(c, &mathlib, ops, &nops, &st) < 0)
    return st;
  bc *b = mem_calloc(c->m, 1, sizeof *b);
  if (!b) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  b->c = c;
  b->e.m = c->m;
  b->e.bud = c->bud;
  b->e.max_digits = BC_MAX_DIGITS;
  wr_init(&b->w, c->out);
  b->out.w = &b->w;
  b->out.line_len = 70;
  const char *ll = c->getenv ? c->getenv(c, "BC_LINE_LENGTH") : NULL;
  if (ll) {
    long v = strtol(ll, NULL, 10);
    b->out.line_len = v < 3 && v != 0 ? 70 : v > 1 << 30 ? 1 << 30 : (int)v;
  }
  b->ibase = b->obase = 10;
  int status = 0;
  if (mathlib) {
    bc_exec_text(b, "(math library)", bc_mathlib, strlen(bc_mathlib));
    b->scale = 20;
  }
  for (int i = 0; i < nops && !b->halted && !b->fatal && !b->stopped; i++) {
    size_t len;
    int err = 0;
    char *text = slurp(b, ops[i], &len, &err);
    if (!text) {
      if (err == ENOMEM) {
        bc_fatal(b);
      } else if (err == EISDIR) {
        wr_flush(&b->w);
        stream_printf(c->err, "%s 1: read() in flex scanner failed\n", ops[i]);
        status = 1;
        b->halted = 1;
      } else {
        wr_flush(&b->w);
        stream_printf(c->err, "File %s is unavailable.\n", ops[i]);
        status = 1;
        b->halted = 1;
      }
      break;
    }
    bc_exec_text(b, ops[i], text, len);
    mem_free(c->m, text);
  }
  if (!b->halted && !b->fatal && !b->stopped) {
    size_t len;
    int err = 0;
    char *text = slurp(b, NULL, &len, &err);
    if (text) {
      bc_exec_text(b, "(standard_in)", text, len);
      mem_free(c->m, text);
    } else if (err == ENOMEM) {
      bc_fatal(b);
    }
  }
  int werr = wr_flush(&b->w) ? b->w.err : 0;
  if (b->fatal)
    status = 1;
  if (werr && !status)
    status = bi_stream_status(werr);
  bc_free_all(b);
  mem_free(c->m, b);
  return status;
}
