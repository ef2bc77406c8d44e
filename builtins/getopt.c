/* getopt.c - GNU-style option parsing for builtins (see builtin.h). */
#include <string.h>

#include "builtins/builtin.h"

void bi_getopt_init(bi_getopt *g, bi_ctx *c, const char *shortopts,
                    const bi_opt *longopts) {
  memset(g, 0, sizeof *g);
  g->c = c;
  g->shortopts = shortopts ? shortopts : "";
  g->longopts = longopts;
  g->idx = 1;
  g->operands = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
}

static void try_help(bi_getopt *g) {
  if (g->hint) {
    g->hint(g->c);
    return;
  }
  if (g->try_prefix)
    stream_printf(g->c->err, "%s: ", g->c->argv[0]);
  bi_try_help(g->c);
}

static int posix_order(const bi_getopt *g) {
  return g->shortopts[0] == '+';
}

static int do_long(bi_getopt *g, const char *a) {
  const char *name = a + 2;
  const char *eq = strchr(name, '=');
  size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
  const bi_opt *hit = NULL;
  int nhits = 0;
  for (const bi_opt *o = g->longopts; o && o->name; o++) {
    if (strncmp(o->name, name, nlen) != 0)
      continue;
    if (strlen(o->name) == nlen) { /* exact match wins */
      hit = o;
      nhits = 1;
      break;
    }
    if (!hit || hit->id != o->id)
      nhits++;
    hit = o;
  }
  if (!hit) {
    bi_error(g->c, "unrecognized option '%s'", a); /* with any =VALUE */
    try_help(g);
    return '?';
  }
  if (nhits > 1) {
    buf b;
    buf_init(&b, g->c->m);
    for (const bi_opt *o = g->longopts; o->name; o++)
      if (strncmp(o->name, name, nlen) == 0)
        buf_printf(&b, " '--%s'", o->name);
    bi_error(g->c, "option '%s' is ambiguous; possibilities:%s", a,
             buf_cstr(&b));
    buf_free(&b);
    try_help(g);
    return '?';
  }
  g->idx++;
  if (hit->has_arg == BI_ARG_NONE) {
    if (eq) {
      bi_error(g->c, "option '--%s' doesn't allow an argument", hit->name);
      try_help(g);
      return '?';
    }
  } else if (eq) {
    g->arg = eq + 1;
  } else if (hit->has_arg == BI_ARG_REQUIRED) {
    if (g->idx >= g->c->argc) {
      bi_error(g->c, "option '--%s' requires an argument", hit->name);
      try_help(g);
      return '?';
    }
    g->arg = g->c->argv[g->idx++];
  }
  return hit->id;
}

static int do_short(bi_getopt *g) {
  int ch = (unsigned char)*g->next++;
  const char *spec = g->shortopts;
  if (*spec == '+')
    spec++;
  const char *p = ch == ':' ? NULL : strchr(spec, ch);
  if (!p) {
    g->optopt = ch;
    bi_error(g->c, "invalid option -- '%c'", ch);
    try_help(g);
    if (!*g->next) {
      g->next = NULL;
      g->idx++;
    }
    return '?';
  }
  if (p[1] == ':') {
    if (*g->next) {
      g->arg = g->next;
    } else if (p[2] != ':') {
      if (g->idx + 1 >= g->c->argc) {
        g->optopt = ch;
        bi_error(g->c, "option requires an argument -- '%c'", ch);
        try_help(g);
        g->next = NULL;
        g->idx++;
        return '?';
      }
      g->arg = g->c->argv[++g->idx];
    }
    g->next = NULL;
    g->idx++;
    return ch;
  }
  if (!*g->next) {
    g->next = NULL;
    g->idx++;
  }
  return ch;
}

int bi_getopt_next(bi_getopt *g) {
  g->arg = NULL;
  if (g->next)
    return do_short(g);
  while (g->idx < g->c->argc) {
    char *a = g->c->argv[g->idx];
    if (g->done || a[0] != '-' || a[1] == 0) {
      g->operands[g->noperands++] = a;
      g->idx++;
      if (posix_order(g))
        g->done = 1;
      continue;
    }
    if (a[1] == '-' && a[2] == 0) {
      g->done = 1;
      g->idx++;
      continue;
    }
    if (a[1] == '-')
      return do_long(g, a);
    g->next = a + 1;
    return do_short(g);
  }
  g->operands[g->noperands] = NULL;
  return -1;
}

int bi_getopt_each(bi_getopt *g, int bad_status) {
  int o = bi_getopt_next(g);
  switch (o) {
  case BI_OPT_HELP:
    g->status = bi_print_help(g->c);
    return BI_OPT_STOP;
  case BI_OPT_VERSION:
    g->status = bi_print_version(g->c);
    return BI_OPT_STOP;
  case '?':
    g->status = bad_status;
    return BI_OPT_STOP;
  default:
    return o;
  }
}
