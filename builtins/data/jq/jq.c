/*
 * jq.c - the jq command: options, inputs, printing results, errors and
 * exit statuses as jq 1.7.1 has them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

const char bi_usage_jq[] = "Usage: jq [OPTION]... FILTER [FILE]...";
const char bi_help_jq[] =
    "Run the jq program FILTER on each JSON value read from the FILEs (or\n"
    "standard input) and print each result as JSON.\n"
    "\n"
    "  -n, --null-input          run FILTER once, on null (inputs stay "
    "readable\n"
    "                            with input and inputs)\n"
    "  -R, --raw-input           each line of input is a string, not JSON\n"
    "  -s, --slurp               gather every input into one array (with -R:\n"
    "                            the whole text into one string)\n"
    "  -c, --compact-output      one line per result\n"
    "  -r, --raw-output          strings without quotes\n"
    "  -j, --join-output         as -r, with no newline after each result\n"
    "      --raw-output0         as -r, with a NUL byte after each result\n"
    "  -a, --ascii-output        escape every non-ASCII character\n"
    "  -S, --sort-keys           print object keys in sorted order\n"
    "  -C, --color-output        colour the output\n"
    "  -M, --monochrome-output   no colour (the default)\n"
    "      --tab                 indent with tabs\n"
    "      --indent N            indent with N spaces (0 to 7)\n"
    "      --seq                 write an RS byte before each result\n"
    "      --stream              read inputs as [path, leaf] events\n"
    "      --stream-errors       as --stream, with errors as events\n"
    "  -e, --exit-status         exit 1 when the last result is false or\n"
    "                            null, 4 when there is no result\n"
    "  -f, --from-file FILE      read FILTER from FILE\n"
    "  -L DIR                    refused: modules are not available\n"
    "      --arg NAME VALUE      bind $NAME to the string VALUE\n"
    "      --argjson NAME JSON   bind $NAME to the JSON value\n"
    "      --slurpfile NAME FILE bind $NAME to the array of values in FILE\n"
    "      --rawfile NAME FILE   bind $NAME to the text of FILE\n"
    "      --args                remaining operands are strings in\n"
    "                            $ARGS.positional\n"
    "      --jsonargs            remaining operands are JSON values in\n"
    "                            $ARGS.positional\n"
    "  -h, --help                show this help\n"
    "  -V, --version             show the version\n"
    "\n"
    "Exit status: 0 on success, 1 or 4 with -e, 2 for bad usage or input, 3\n"
    "for a program that does not compile, 5 for an error while running.\n";

typedef struct run {
  jqs *J;
  bi_ctx *c;
  writer out, err;
  int dflags;
  int raw, join, raw0, seq, exit_status;
  int slurp, rawin, nullin, stream;
  jv last;
  int nout;
  int status;
  /* inputs */
  char **files;
  int nfiles, fi;
  const char *cur_name;
  char *data;
  size_t len, pos;
  int have_data;
  int eof;
  int parse_failed;
  int nonl_seen;
  int lines;
  size_t lines_pos;
  buf line;
} run;

static int load_next_file(run *R) {
  bi_ctx *c = R->c;
  for (;;) {
    if (R->data) {
      mem_free(c->m, R->data);
      R->data = NULL;
    }
    if (R->fi >= (R->nfiles ? R->nfiles : 1))
      return 0;
    const char *name = R->nfiles ? R->files[R->fi] : "-";
    R->fi++;
    int err = 0;
    stream *s = bi_open_read(c, name, &err);
    if (!s) {
      wr_flush(&R->out);
      wr_printf(&R->err, "jq: error: Could not open %s: %s\n", name,
                bi_strerror(err));
      R->status = 2;
      continue;
    }
    buf b;
    buf_init(&b, c->m);
    char tmp[65536];
    long n;
    while ((n = wr_flush_read(&R->out, s, tmp, sizeof tmp)) > 0)
      if (buf_append(&b, tmp, (size_t)n))
        break;
    stream_unref(s);
    if (n < 0 || b.oom) {
      buf_free(&b);
      return -1;
    }
    R->len = b.len;
    R->data = buf_take(&b, &R->len);
    if (!R->data) {
      R->data = mem_alloc(c->m, 1);
      if (!R->data)
        return -1;
      R->len = 0;
    }
    R->pos = 0;
    R->lines = 0;
    R->lines_pos = 0;
    R->cur_name = strcmp(name, "-") ? name : "<stdin>";
    jv_free(R->J, R->J->cur_filename);
    R->J->cur_filename = strcmp(name, "-") ? jv_cstr(R->J, name) : jv_null();
    return 1;
  }
}

static int lines_before(const char *s, size_t pos) {
  int n = 0;
  for (size_t i = 0; i < pos; i++)
    if (s[i] == '\n')
      n++;
  return n;
}

/* next raw value from the files: 1, 0 at the end, -1 on error */
static int read_value(run *R, jv *out) {
  jqs *J = R->J;
  for (;;) {
    if (!R->data) {
      int r = load_next_file(R);
      if (r <= 0)
        return r;
    }
    if (R->rawin) {
      if (R->pos >= R->len) {
        mem_free(R->c->m, R->data);
        R->data = NULL;
        continue;
      }
      const char *p = R->data + R->pos;
      const char *nl = memchr(p, '\n', R->len - R->pos);
      size_t n = nl ? (size_t)(nl - p) : R->len - R->pos;
      *out = jv_str(J, p, n);
      R->pos += n + (nl ? 1 : 0);
      J->cur_line = ++R->lines;
      return jv_ok(*out) ? 1 : -1;
    }
    char msg[200];
    int line, col;
    int r = jp_parse(J, R->data, R->len, &R->pos, out, msg, sizeof msg, &line,
                     &col);
    if (r == 0) {
      mem_free(R->c->m, R->data);
      R->data = NULL;
      continue;
    }
    if (r < 0) {
      wr_flush(&R->out);
      wr_printf(&R->err, "jq: error (at %s:%d): %s\n", R->cur_name,
                lines_before(R->data, R->len), msg);
      J->cur_line = 0;
      R->status = 2;
      R->parse_failed = 1;
      mem_free(R->c->m, R->data);
      R->data = NULL;
      return -2;
    }
    /* the blanks after a value, through the end of its line, go with it
     * (jq's line numbers count them) */
    size_t q = R->pos;
    while (q < R->len &&
           (R->data[q] == ' ' || R->data[q] == '\t' || R->data[q] == '\r'))
      q++;
    if (q < R->len && R->data[q] == '\n')
      R->pos = q + 1;
    for (const char *s = R->data + R->lines_pos, *e = R->data + R->pos;
         (s = memchr(s, '\n', (size_t)(e - s))); s++)
      R->lines++;
    R->lines_pos = R->pos;
    J->cur_line = R->lines;
    return 1;
  }
}

static int next_input(jqs *J, jv *out) {
  run *R = J->input_ud;
  int r = read_value(R, out);
  if (r == -2) {
    jv_free(J, J->err);
    J->err = jv_cstr(J, "parse error");
    return -1;
  }
  if (r < 0) {
    jv_free(J, J->err);
    J->err = jv_invalid();
    budget_set_stop(J->bud, BUDGET_MEMORY, 0);
    return -1;
  }
  return r;
}

static int out_cb(jqs *J, jv v, jv p, void *ud) {
  run *R = ud;
  jv_free(J, p);
  R->nout++;
  jv_free(J, R->last);
  R->last = jv_copy(v);
  if (R->seq)
    wr_putc(&R->out, 0x1e);
  if (R->raw && v.k == JV_STRING) {
    wr_write(&R->out, v.u.s->p, v.u.s->len);
  } else {
    buf_clear(&J->tmp);
    if (jd_dump(J, &J->tmp, v, R->dflags)) {
      jv_free(J, v);
      if (!budget_poll(J->bud))
        budget_set_stop(J->bud, BUDGET_MEMORY, 0);
      return JR_HALT;
    }
    wr_write(&R->out, J->tmp.data, J->tmp.len);
  }
  jv_free(J, v);
  if (R->raw0)
    wr_putc(&R->out, 0);
  else if (!R->join)
    wr_putc(&R->out, '\n');
  if (R->out.err)
    return JR_HALT;
  return jq_poll(J);
}

static void report_error(run *R, jv e) {
  jqs *J = R->J;
  char where[300];
  if (R->data || R->cur_name)
    snprintf(where, sizeof where, "%s:%d", R->cur_name, R->lines);
  else if (R->cur_name)
    snprintf(where, sizeof where, "%s:%d", R->cur_name, 0);
  else
    snprintf(where, sizeof where, "<unknown>");
  wr_flush(&R->out);
  if (e.k == JV_STRING) {
    wr_printf(&R->err, "jq: error (at %s): ", where);
    wr_write(&R->err, e.u.s->p, e.u.s->len);
    wr_putc(&R->err, '\n');
  } else {
    buf b;
    buf_init(&b, J->m);
    jd_dump(J, &b, e, 0);
    wr_printf(&R->err, "jq: error (at %s) (not a string): %.*s\n", where,
              (int)b.len, b.data ? b.data : "");
    buf_free(&b);
  }
}

/* Runs the program on one input; returns 0, or 1 to stop everything. */
static int run_one(run *R, jnode *prog, jenv *env, jv in) {
  jqs *J = R->J;
  int rc = jq_eval(J, prog, env, in, jv_invalid(), out_cb, R);
  if (rc == JR_OK)
    return 0;
  if (rc == JR_BREAK) {
    report_error(R, jv_null());
    R->status = 5;
    return 0;
  }
  if (rc == JR_ERR) {
    if (J->halted) {
      if (J->halted == 2) {
        jv e = J->err;
        wr_flush(&R->out);
        if (e.k == JV_STRING)
          wr_write(&R->err, e.u.s->p, e.u.s->len);
        else {
          buf b;
          buf_init(&b, J->m);
          jd_dump(J, &b, e, 0);
          wr_write(&R->err, b.data ? b.data : "", b.len);
          wr_putc(&R->err, '\n');
          buf_free(&b);
        }
      }
      R->status = J->halt_status;
      return 1;
    }
    if (R->parse_failed)
      return 1;
    report_error(R, J->err);
    jv_free(J, J->err);
    J->err = jv_invalid();
    R->status = 5;
    return 0;
  }
  return 1; /* halt: a limit or a stopped output */
}

static jv read_file_text(run *R, const char *name, int *ok) {
  int err = 0;
  stream *s = bi_open_read(R->c, name, &err);
  *ok = 0;
  if (!s) {
    wr_printf(&R->err, "jq: error: Could not open %s: %s\n", name,
              bi_strerror(err));
    return jv_invalid();
  }
  buf b;
  buf_init(&b, R->c->m);
  char tmp[65536];
  long n;
  while ((n = stream_read(s, tmp, sizeof tmp)) > 0)
    if (buf_append(&b, tmp, (size_t)n))
      break;
  stream_unref(s);
  jv r =
      b.oom || n < 0 ? jv_invalid() : jv_str(R->J, b.data ? b.data : "", b.len);
  buf_free(&b);
  *ok = jv_ok(r);
  return r;
}

static jv env_object(jqs *J, bi_ctx *c) {
  jv o = jv_obj(J);
  char **e = c->environ ? c->environ(c) : NULL;
  for (; e && *e && jv_ok(o); e++) {
    const char *eq = strchr(*e, '=');
    if (!eq)
      continue;
    o = jv_oset(J, o, jv_str(J, *e, (size_t)(eq - *e)), jv_cstr(J, eq + 1));
  }
  return o;
}

static int usage_err(run *R, const char *fmt, const char *a) {
  wr_printf(&R->err, fmt, a);
  wr_puts(&R->err, "Use jq --help for help with command-line options,\n"
                   "or see the jq manpage, or online docs  at "
                   "https://jqlang.github.io/jq\n");
  return 2;
}

int bi_jq(bi_ctx *c) {
  jqs Js;
  jqs *J = &Js;
  memset(J, 0, sizeof *J);
  J->c = c;
  J->m = c->m;
  J->bud = c->bud;
  J->maxdepth = 10000;
  char base;
  J->stack_base = &base;
  J->err = jv_invalid();
  J->cur_filename = jv_null();
  arena_init(&J->ar, c->m);
  buf_init(&J->tmp, c->m);
  run R;
  memset(&R, 0, sizeof R);
  R.J = J;
  R.c = c;
  R.last = jv_invalid();
  wr_init(&R.out, c->out);
  wr_init(&R.err, c->err);
  J->errw = &R.err;
  J->input_ud = &R;
  J->next_input = next_input;
  R.dflags = JD_PRETTY | 2;
  int indent = 2, tab = 0, compact = 0, color = 0, sortk = 0, ascii = 0;
  const char *filter = NULL, *from_file = NULL;
  char **files = mem_calloc(c->m, (size_t)c->argc + 1, sizeof(char *));
  const char **vnames = mem_calloc(c->m, (size_t)c->argc + 4, sizeof(char *));
  jv *vvals = mem_calloc(c->m, (size_t)c->argc + 4, sizeof(jv));
  int nfiles = 0, nvars = 0;
  int args_mode = 0; /* 1 --args, 2 --jsonargs */
  jv positional = jv_arr(J, 0), named = jv_obj(J);
  int status = 0;
  jnode *prog = NULL;
  if (!files || !vnames || !vvals || !jv_ok(positional) || !jv_ok(named)) {
    status = 1;
    goto done;
  }
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (a[0] == '-' && a[1] && !(args_mode && filter && 0)) {
      if (!strcmp(a, "--")) {
        for (i++; i < c->argc; i++) {
          if (!filter && !from_file)
            filter = c->argv[i];
          else if (args_mode) {
            goto positional;
          } else
            files[nfiles++] = c->argv[i];
          continue;
        positional:
          if (args_mode == 1)
            positional = jv_apush(J, positional, jv_cstr(J, c->argv[i]));
          else {
            char m[200];
            jv v = jp_parse_one(J, c->argv[i], strlen(c->argv[i]), m, sizeof m);
            if (!jv_ok(v)) {
              wr_printf(&R.err, "jq: Invalid JSON text passed to --jsonargs\n");
              status = usage_err(&R, "%s", "");
              goto done;
            }
            positional = jv_apush(J, positional, v);
          }
        }
        break;
      }
      if (a[1] == '-') {
        const char *o = a + 2;
        if (!strcmp(o, "null-input"))
          R.nullin = 1;
        else if (!strcmp(o, "raw-input"))
          R.rawin = 1;
        else if (!strcmp(o, "slurp"))
          R.slurp = 1;
        else if (!strcmp(o, "compact-output"))
          compact = 1;
        else if (!strcmp(o, "raw-output"))
          R.raw = 1;
        else if (!strcmp(o, "join-output"))
          R.raw = R.join = 1;
        else if (!strcmp(o, "raw-output0"))
          R.raw = R.raw0 = 1;
        else if (!strcmp(o, "ascii-output"))
          ascii = 1;
        else if (!strcmp(o, "sort-keys"))
          sortk = 1;
        else if (!strcmp(o, "color-output"))
          color = 1;
        else if (!strcmp(o, "monochrome-output"))
          color = 0;
        else if (!strcmp(o, "tab"))
          tab = 1;
        else if (!strcmp(o, "seq"))
          R.seq = 1;
        else if (!strcmp(o, "stream") || !strcmp(o, "stream-errors"))
          R.stream = 1;
        else if (!strcmp(o, "exit-status"))
          R.exit_status = 1;
        else if (!strcmp(o, "unbuffered"))
          ;
        else if (!strcmp(o, "args"))
          args_mode = 1;
        else if (!strcmp(o, "jsonargs"))
          args_mode = 2;
        else if (!strcmp(o, "help")) {
          status = bi_print_help(c);
          goto done;
        } else if (!strcmp(o, "version")) {
          wr_puts(&R.out, "jq-1.7.1\n");
          goto done;
        } else if (!strcmp(o, "indent")) {
          if (i + 1 >= c->argc) {
            status = usage_err(&R, "%s", "jq: --indent takes one parameter\n");
            goto done;
          }
          indent = atoi(c->argv[++i]);
          if (indent < -1 || indent > 7) {
            status = usage_err(&R, "%s",
                               "jq: Cannot indent more than 7 characters\n");
            goto done;
          }
        } else if (!strcmp(o, "from-file")) {
          if (i + 1 >= c->argc) {
            status = usage_err(&R, "%s", "jq: -f takes a parameter\n");
            goto done;
          }
          from_file = c->argv[++i];
        } else if (!strcmp(o, "arg") || !strcmp(o, "argjson") ||
                   !strcmp(o, "slurpfile") || !strcmp(o, "rawfile")) {
          if (i + 2 >= c->argc) {
            wr_printf(&R.err,
                      "jq: --%s takes two parameters (e.g. --%s varname %s)\n",
                      o, o,
                      !strcmp(o, "arg")       ? "value"
                      : !strcmp(o, "argjson") ? "text"
                                              : "filename");
            status = usage_err(&R, "%s", "");
            goto done;
          }
          const char *name = c->argv[i + 1], *val = c->argv[i + 2];
          i += 2;
          jv v;
          if (!strcmp(o, "arg"))
            v = jv_cstr(J, val);
          else if (!strcmp(o, "argjson")) {
            char m[200];
            v = jp_parse_one(J, val, strlen(val), m, sizeof m);
            if (!jv_ok(v)) {
              wr_printf(&R.err, "jq: Invalid JSON text passed to --argjson\n");
              status = usage_err(&R, "%s", "");
              goto done;
            }
          } else {
            int ok;
            jv text = read_file_text(&R, val, &ok);
            if (!ok) {
              status = 2;
              goto done;
            }
            if (!strcmp(o, "rawfile"))
              v = text;
            else {
              v = jv_arr(J, 0);
              size_t pos = 0;
              for (;;) {
                jv x;
                char m[200];
                int r = jp_parse(J, text.u.s->p, text.u.s->len, &pos, &x, m,
                                 sizeof m, NULL, NULL);
                if (r == 0)
                  break;
                if (r < 0) {
                  wr_printf(&R.err, "jq: Bad JSON in --slurpfile %s %s: %s\n",
                            name, val, m);
                  jv_free(J, text);
                  jv_free(J, v);
                  status = 2;
                  goto done;
                }
                v = jv_apush(J, v, x);
              }
              jv_free(J, text);
            }
          }
          vnames[nvars] = name;
          vvals[nvars++] = v;
          named = jv_oset(J, named, jv_cstr(J, name), jv_copy(v));
        } else {
          status = usage_err(&R, "jq: Unknown option: %s\n", a);
          goto done;
        }
        continue;
      }
      /* short options, possibly several */
      for (const char *q = a + 1; *q; q++) {
        switch (*q) {
        case 'n':
          R.nullin = 1;
          break;
        case 'R':
          R.rawin = 1;
          break;
        case 's':
          R.slurp = 1;
          break;
        case 'c':
          compact = 1;
          break;
        case 'r':
          R.raw = 1;
          break;
        case 'j':
          R.raw = R.join = 1;
          break;
        case 'a':
          ascii = 1;
          break;
        case 'S':
          sortk = 1;
          break;
        case 'C':
          color = 1;
          break;
        case 'M':
          color = 0;
          break;
        case 'e':
          R.exit_status = 1;
          break;
        case 'h':
          status = bi_print_help(c);
          goto done;
        case 'V':
          wr_puts(&R.out, "jq-1.7.1\n");
          goto done;
        case 'f':
          if (i + 1 >= c->argc) {
            status = usage_err(&R, "%s", "jq: -f takes a parameter\n");
            goto done;
          }
          from_file = c->argv[++i];
          break;
        case 'L':
          wr_puts(&R.err,
                  "jq: error: modules are not available (-L refused)\n");
          status = 2;
          goto done;
        default:
          status = usage_err(&R, "jq: Unknown option: %s\n", a);
          goto done;
        }
      }
      continue;
    }
    if (!filter && !from_file) {
      filter = a;
      continue;
    }
    if (args_mode == 1)
      positional = jv_apush(J, positional, jv_cstr(J, a));
    else if (args_mode == 2) {
      char m[200];
      jv v = jp_parse_one(J, a, strlen(a), m, sizeof m);
      if (!jv_ok(v)) {
        wr_printf(&R.err, "jq: Invalid JSON text passed to --jsonargs\n");
        status = usage_err(&R, "%s", "");
        goto done;
      }
      positional = jv_apush(J, positional, v);
    } else
      files[nfiles++] = (char *)a;
  }
  jv prog_text = jv_invalid();
  if (from_file) {
    int ok;
    prog_text = read_file_text(&R, from_file, &ok);
    if (!ok) {
      status = 2;
      goto done;
    }
    if (filter) {
      /* with -f, the first operand is a file */
      memmove(files + 1, files, sizeof(char *) * (size_t)nfiles);
      files[0] = (char *)filter;
      nfiles++;
    }
    filter = prog_text.u.s->p;
  }
  if (!filter)
    filter = "."; /* as jq with no program and input not a terminal */
  if (!filter) {
    status = usage_err(&R, "%s", "Usage:\tjq [OPTIONS] FILTER [FILES...]\n");
    jv_free(J, prog_text);
    goto done;
  }
  if (tab)
    R.dflags = JD_PRETTY | JD_TAB | 1;
  else if (indent == 0 || compact)
    R.dflags = 0;
  else
    R.dflags = JD_PRETTY | (indent < 0 ? 2 : indent);
  if (compact)
    R.dflags = 0;
  if (sortk)
    R.dflags |= JD_SORT;
  if (ascii)
    R.dflags |= JD_ASCII;
  if (color) {
    R.dflags |= JD_COLOR;
    jd_colors(J, c->getenv ? c->getenv(c, "JQ_COLORS") : NULL);
  }
  /* $ARGS */
  {
    jv args = jv_obj(J);
    args = jv_oset(J, args, jv_cstr(J, "positional"), positional);
    args = jv_oset(J, args, jv_cstr(J, "named"), jv_copy(named));
    positional = jv_invalid();
    vnames[nvars] = "ARGS";
    vvals[nvars++] = args;
  }
  J->named = named;
  named = jv_invalid();
  J->env_obj = env_object(J, c);
  /* the prelude, then the program */
  if (!jq_compile(J, jq_prelude, strlen(jq_prelude), NULL, 0, 1)) {
    wr_printf(&R.err, "jq: error: internal prelude: %s\n",
              J->err.k == JV_STRING ? J->err.u.s->p : "?");
    status = 3;
    jv_free(J, prog_text);
    goto done;
  }
  if (R.stream && !R.nullin) {
    /* each input arrives as its [path, leaf] events */
    buf_clear(&J->tmp);
    buf_puts(&J->tmp, "tostream | (");
    buf_puts(&J->tmp, filter);
    buf_puts(&J->tmp, "\n)");
    if (J->tmp.oom) {
      status = 1;
      jv_free(J, prog_text);
      goto done;
    }
    prog = jq_compile(J, J->tmp.data, J->tmp.len, vnames, nvars, 0);
  } else
    prog = jq_compile(J, filter, strlen(filter), vnames, nvars, 0);
  if (!prog) {
    wr_printf(
        &R.err,
        "jq: error: %s at <top-level>, line 1:\n%s\njq: 1 compile error\n",
        J->err.k == JV_STRING ? J->err.u.s->p : "out of memory", filter);
    jv_free(J, prog_text);
    status = 3;
    goto done;
  }
  jv_free(J, prog_text);
  /* variable frames, in order */
  jenv *frames = mem_calloc(c->m, (size_t)nvars + 1, sizeof(jenv));
  if (!frames) {
    status = 1;
    goto done;
  }
  for (int i = 0; i < nvars; i++) {
    frames[i].up = i ? &frames[i - 1] : NULL;
    frames[i].kind = F_VAR;
    frames[i].val = vvals[i];
    vvals[i] = jv_invalid();
  }
  jenv *top = nvars ? &frames[nvars - 1] : NULL;
  R.files = files;
  R.nfiles = nfiles;
  int stop = 0;
  if (R.nullin) {
    stop = run_one(&R, prog, top, jv_null());
  } else if (R.slurp) {
    jv all;
    if (R.rawin) {
      all = jv_str(J, "", 0);
      while (jv_ok(all) && load_next_file(&R) > 0) {
        all = jv_strcat(J, all, R.data, R.len);
        mem_free(c->m, R.data);
        R.data = NULL;
      }
    } else {
      all = jv_arr(J, 0);
      jv v;
      int r;
      while ((r = read_value(&R, &v)) == 1) {
        all = jv_apush(J, all, v);
        if (!jv_ok(all))
          break;
      }
      if (r == -2) {
        jv_free(J, all);
        all = jv_invalid();
        stop = 1;
      }
    }
    if (jv_ok(all))
      stop = run_one(&R, prog, top, all);
  } else {
    jv v;
    int r;
    while (!stop && (r = read_value(&R, &v)) == 1)
      stop = run_one(&R, prog, top, v);
    (void)r;
  }
  for (int i = 0; i < nvars; i++)
    jv_free(J, frames[i].val);
  mem_free(c->m, frames);
  if (J->halted)
    status = R.status;
  else if (R.status)
    status = R.status;
  else if (R.exit_status)
    status = R.nout == 0 ? 4 : jv_truthy(R.last) ? 0 : 1;
  if (budget_poll(c->bud))
    status = budget_stop_status(c->bud->stop);
done:
  wr_flush(&R.out);
  wr_flush(&R.err);
  if (R.out.err == EPIPE)
    status = 141;
  jv_free(J, R.last);
  jv_free(J, positional);
  jv_free(J, named);
  jv_free(J, J->named);
  jv_free(J, J->env_obj);
  jv_free(J, J->err);
  jv_free(J, J->cur_filename);
  if (vvals)
    for (int i = 0; i < nvars; i++)
      jv_free(J, vvals[i]);
  mem_free(c->m, vvals);
  mem_free(c->m, (void *)vnames);
  mem_free(c->m, files);
  if (R.data)
    mem_free(c->m, R.data);
  extern void jq_rx_free(jqs * J);
  jq_rx_free(J);
  extern void jq_free_lits(jqs * J);
  jq_free_lits(J);
  jv_numlits_free(J);
  mem_free(c->m, J->globals);
  arena_destroy(&J->ar);
  buf_free(&J->tmp);
  return status;
}
