/* awk.c - the awk command: options, program text, variables, setup and
 * teardown around the interpreter. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "builtins/textutil.h"
#include "core/tz.h"

const char bi_usage_awk[] =
    "Usage: awk [-F fs] [-v var=value] [-f progfile | 'prog'] [file ...]";
const char bi_help_awk[] =
    "Run an awk program over the records of each file, or of standard\n"
    "input. The language is POSIX awk with the gawk extensions scripts use\n"
    "most: gensub, asort, asorti, PROCINFO[\"sorted_in\"], strftime,\n"
    "systime, mktime, BEGINFILE/ENDFILE, switch, IGNORECASE, FPAT,\n"
    "patsplit, RT and regular expression RS. Strings count characters under\n"
    "a UTF-8 locale.\n"
    "\n"
    "  -F fs          split fields at fs (a regular expression when it is "
    "longer\n"
    "                   than one character)\n"
    "  -v var=value   set var to value before the program runs\n"
    "  -f progfile    take the program text from progfile (may be repeated)\n"
    "  --version      say which awk this is\n"
    "\n"
    "@include and @load are refused: a program is the text given.\n";

/* Command-line values get string-literal escapes, then are strnums. */
static aval unescape_val(awk *A, const char *s) {
  buf b;
  buf_init(&b, A->m);
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    if (s[i] != '\\' || i + 1 >= n) {
      buf_putc(&b, s[i++]);
      continue;
    }
    i++;
    awk_put_escape(&b, s, n, &i);
  }
  aval v = av_strnum(A, b.data ? b.data : "", b.len);
  buf_free(&b);
  return v;
}

void awk_cmdline_assign(awk *A, const char *s) {
  const char *eq = strchr(s, '=');
  char name[256];
  size_t n = (size_t)(eq - s);
  if (n >= sizeof name)
    return;
  memcpy(name, s, n);
  name[n] = 0;
  int slot = -1;
  for (int i = 0; i < A->ngl; i++)
    if (strcmp(A->gnames[i], name) == 0)
      slot = i;
  if (slot < 0) /* the program never mentions it: nothing to set */
    return;
  node lv = {0};
  lv.op = N_VAR;
  lv.slot = slot;
  awk_assign_var(A, &lv, unescape_val(A, eq + 1));
}

static void set_special(awk *A, int slot, const char *s) {
  av_free(A, &A->globals[slot].v);
  A->globals[slot].v = av_str(A, s, strlen(s));
  A->globals[slot].kind = C_SCALAR;
}

static const char *special_names[SV_COUNT] = {
    "NF",      "NR",       "FNR",      "FS",         "OFS",
    "ORS",     "RS",       "FILENAME", "SUBSEP",     "RSTART",
    "RLENGTH", "CONVFMT",  "OFMT",     "ENVIRON",    "ARGC",
    "ARGV",    "PROCINFO", "RT",       "IGNORECASE", "FPAT"};

int bi_awk(bi_ctx *c) {
  static const bi_opt opts[] = {BI_OPTS_END};
  awk *A = mem_calloc(c->m, 1, sizeof *A);
  if (!A)
    return bi_error(c, "out of memory"), 2;
  A->c = c;
  A->m = c->m;
  A->line = 1;
  arena_init(&A->ar, c->m);
  buf_init(&A->tstr, c->m);
  buf_init(&A->rec, c->m);
  buf_init(&A->tmp, c->m);
  buf_init(&A->para, c->m);
  wr_init(&A->out, c->out);
  A->rxe_ok = rx_env_init(&A->rxe, c->m, 4 * 1024 * 1024) == 0;
  A->rxe.bud = c->bud; /* long automaton searches poll it */
  A->utf8 = tu_utf8_locale(c);
  A->empty = mem_alloc(c->m, sizeof(astr) + 1);
  if (A->empty) {
    A->empty->refs = 1;
    A->empty->len = A->empty->cap = 0;
    A->empty->p[0] = 0;
  }
  for (int i = 0; i < SV_COUNT; i++)
    awk_global(A, special_names[i]);
  A->globals = NULL;

  buf prog;
  buf_init(&prog, c->m);
  const char *fs = NULL;
  char **assigns = mem_calloc(c->m, (size_t)c->argc + 1, sizeof *assigns);
  int nassign = 0, haveprog = 0, st = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "+F:v:f:", opts);
  /* Everything set up above is needed from here on. */
  if (!assigns || A->ngl != SV_COUNT || !A->rxe_ok || !g.operands ||
      !A->empty) {
    bi_error(c, "out of memory");
    st = 2;
    goto out;
  }
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'F':
      fs = g.arg;
      break;
    case 'v':
      if (!strchr(g.arg, '=')) {
        stream_printf(c->err, "awk: invalid -v argument: %s\n", g.arg);
        st = 2;
        goto out;
      }
      assigns[nassign++] = (char *)g.arg;
      break;
    case 'f': {
      int err = 0;
      stream *s = bi_open_read(c, g.arg, &err);
      if (!s) {
        stream_printf(c->err, "awk: can't open file %s\n", g.arg);
        st = 2;
        goto out;
      }
      const char *d;
      size_t n;
      buf copy;
      buf_init(&copy, c->m);
      if (tu_slurp(c, s, &d, &n, &copy, &err) == 0) {
        struct asrc *ns =
            mem_realloc(c->m, A->srcs, (size_t)(A->nsrcs + 1) * sizeof *ns);
        if (ns) {
          int first = 1;
          for (size_t i = 0; i < prog.len; i++)
            first += prog.data[i] == '\n';
          A->srcs = ns;
          ns[A->nsrcs].name = g.arg;
          ns[A->nsrcs++].first = first;
        }
        buf_append(&prog, d, n);
        buf_putc(&prog, '\n');
      }
      buf_free(&copy);
      stream_unref(s);
      haveprog = 1;
      break;
    }
    case BI_OPT_HELP:
      st = bi_print_help(c);
      goto out;
    case BI_OPT_VERSION:
      stream_puts(c->out, "awk (GNU awk compatible; vsh) 5.2\n");
      goto out;
    default:
      st = 2;
      goto out;
    }
  }
  int opi = 0;
  if (!haveprog) {
    if (g.noperands < 1) {
      stream_printf(c->err, "%s\n", bi_usage_awk);
      st = 2;
      goto out;
    }
    buf_puts(&prog, g.operands[0]);
    opi = 1;
  }
  A->src = prog.data ? prog.data : "";
  A->srclen = prog.len;
  int prc = awk_parse(A);
  if (prc < 0) { /* gawk: 1 for a syntax error, 2 for a fatal one */
    st = prc == -1 ? 1 : 2;
    goto out;
  }
  A->globals = mem_calloc(c->m, (size_t)A->ngl + 1, sizeof *A->globals);
  if (!A->globals) {
    st = 2;
    goto out;
  }
  /* names referenced only at run time (-v, operands) extend the table */
  set_special(A, SV_FS, " ");
  set_special(A, SV_OFS, " ");
  set_special(A, SV_ORS, "\n");
  set_special(A, SV_RS, "\n");
  set_special(A, SV_SUBSEP, "\034");
  set_special(A, SV_CONVFMT, "%.6g");
  set_special(A, SV_OFMT, "%.6g");
  set_special(A, SV_FILENAME, "");
  set_special(A, SV_RT, "");
  set_special(A, SV_FPAT, "[^[:space:]]+");
  A->globals[SV_IGNORECASE].v = av_num(0);
  A->globals[SV_IGNORECASE].kind = C_SCALAR;
  A->globals[SV_RSTART].v = av_num(0);
  A->globals[SV_RLENGTH].v = av_num(-1);
  {
    aarr *env = arr_new(A), *argv = arr_new(A);
    A->globals[SV_ENVIRON].kind = C_ARRAY;
    A->globals[SV_ENVIRON].a = env;
    A->globals[SV_ARGV].kind = C_ARRAY;
    A->globals[SV_ARGV].a = argv;
    char **ev = c->environ ? c->environ(c) : NULL;
    for (; ev && *ev; ev++) {
      const char *eq = strchr(*ev, '=');
      if (!eq)
        continue;
      aval *v = arr_get(A, env, *ev, (size_t)(eq - *ev), 1);
      if (v) {
        av_free(A, v); /* a name listed twice keeps its last value */
        *v = av_strnum(A, eq + 1, strlen(eq + 1));
      }
    }
    aval *v = arr_get(A, argv, "0", 1, 1);
    if (v)
      *v = av_str(A, "awk", 3);
    int n = 1;
    for (int i = opi; i < g.noperands; i++, n++) {
      char key[16];
      int kl = snprintf(key, sizeof key, "%d", n);
      v = arr_get(A, argv, key, (size_t)kl, 1);
      if (v)
        *v = av_strnum(A, g.operands[i], strlen(g.operands[i]));
    }
    A->globals[SV_ARGC].v = av_num(n);
    A->globals[SV_ARGC].kind = C_SCALAR;
    aarr *pi = arr_new(A);
    A->globals[SV_PROCINFO].kind = C_ARRAY;
    A->globals[SV_PROCINFO].a = pi;
    static const char *const pinfo[][2] = {
        {"version", "5.2"}, {"platform", "posix"},
        {"FS", "FS"},       {"strftime", "%a %b %e %H:%M:%S %Z %Y"},
        {"pid", "1"},       {"ppid", "0"},
        {"uid", "1000"},    {"euid", "1000"},
        {"gid", "1000"},    {"egid", "1000"}};
    for (size_t i = 0; i < sizeof pinfo / sizeof pinfo[0]; i++) {
      v = arr_get(A, pi, pinfo[i][0], strlen(pinfo[i][0]), 1);
      if (v)
        *v = av_strnum(A, pinfo[i][1], strlen(pinfo[i][1]));
    }
  }
  A->argi = 1;
  /* assignments may name variables the program never mentions: those get
   * slots past the table and are simply dropped */
  if (fs) {
    if (strcmp(fs, "t") == 0)
      set_special(A, SV_FS, "\t");
    else {
      aval v = unescape_val(A, fs);
      av_free(A, &A->globals[SV_FS].v);
      A->globals[SV_FS].v = v;
    }
  }
  for (int i = 0; i < nassign; i++)
    awk_cmdline_assign(A, assigns[i]);
  st = awk_run(A);
  if (!A->stop || A->status != 141) {
    io_closeall(A);
    if (wr_flush(&A->out) < 0 && A->out.err == EPIPE)
      st = 141;
  }
out:
  if (A->globals) {
    for (int i = 0; i < A->ngl; i++) {
      cell *cl = &A->globals[i];
      if (cl->kind == C_ARRAY)
        arr_free(A, cl->a);
      av_free(A, &cl->v);
    }
    mem_free(c->m, A->globals);
  }
  while (A->ios) {
    aio *io = A->ios;
    A->ios = io->next;
    if (io->w)
      mem_free(c->m, io->w);
    if (io->s)
      stream_unref(io->s);
    if (io->rs) {
      rd_free(&io->rd);
      stream_unref(io->rs);
    }
    if (io->sb.on)
      buf_free(&io->sb.b);
    buf_free(&io->pipebuf);
    mem_free(c->m, io->name);
    mem_free(c->m, io);
  }
  if (A->main_open) {
    rd_free(&A->main_rd);
    stream_unref(A->main_s);
  }
  if (A->main_sb.on)
    buf_free(&A->main_sb.b);
  av_free(A, &A->f0);
  av_free(A, &A->retval);
  for (int i = 0; i < A->capf; i++)
    av_free(A, &A->flds[i]);
  mem_free(c->m, A->flds);
  mem_free(c->m, A->sp);
  for (size_t i = 0; i < A->nrecache; i++)
    re_free(A, A->recache[i]);
  mem_free(c->m, A->recache);
  mem_free(c->m, A->gnames);
  mem_free(c->m, A->srcs);
  if (A->empty)
    as_unref(A, A->empty);
  if (A->tz)
    tz_close(A->tz);
  mem_free(c->m, A->funcs);
  if (A->rxe_ok)
    rx_env_free(&A->rxe);
  buf_free(&A->tstr);
  buf_free(&A->rec);
  buf_free(&A->tmp);
  buf_free(&A->para);
  buf_free(&prog);
  mem_free(c->m, assigns);
  arena_destroy(&A->ar);
  mem_free(c->m, A);
  return st;
}

const char bi_usage_gawk[] =
    "Usage: gawk [-F fs] [-v var=value] [-f progfile | 'prog'] [file ...]";
const char bi_help_gawk[] = "Same as 'awk'; see 'awk --help'.\n";

int bi_gawk(bi_ctx *c) {
  return bi_awk(c);
}
