/*
 * split.c - GNU split (coreutils 9.1): cut a file into pieces.
 *
 * Pieces are named PREFIX (default "x") followed by a suffix (two letters
 * unless -a says otherwise; digits with -d, hex digits with -x) and the
 * --additional-suffix. When the suffix length was not fixed, the names
 * widen as GNU's do: after "yz" comes "zaaa" (after "89", "9000").
 *
 * -l, -b and -C read their input as a stream. -n needs the size of the
 * input, as GNU does: a file (or standard input redirected from one) is
 * taken whole, and a pipe is refused ("cannot determine file size"); -n
 * r/... reads a stream again. The chunk arithmetic follows GNU exactly
 * (sizes from the input size, raised to the number of chunks, the last
 * piece taking what does not divide; -n l/N moves each cut to the end of
 * its line).
 *
 * --filter runs `sh -c COMMAND` (FILE set to the name) once a piece is
 * complete, with the piece as its standard input: the pieces are held in
 * memory rather than piped, so with -n r/N the commands run at the end.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "builtins/textutil.h"
#include "core/utf8.h"

const char bi_usage_split[] = "Usage: split [OPTION]... [FILE [PREFIX]]";
const char bi_help_split[] =
    "Copy FILE into a series of files named PREFIXaa, PREFIXab, ... (PREFIX\n"
    "is 'x' unless given), 1000 lines to each unless told otherwise. With\n"
    "no FILE, or when FILE is -, standard input is read.\n"
    "\n"
    "  -a, --suffix-length=N   suffixes of N characters (default 2, growing\n"
    "                            as needed when not given)\n"
    "      --additional-suffix=SUFFIX  end every file name with SUFFIX\n"
    "  -b, --bytes=SIZE        SIZE bytes to each file\n"
    "  -C, --line-bytes=SIZE   at most SIZE bytes of whole lines to each file\n"
    "  -d                      suffixes of digits, from 0\n"
    "      --numeric-suffixes[=FROM]  suffixes of digits, from FROM\n"
    "  -x                      suffixes of hexadecimal digits, from 0\n"
    "      --hex-suffixes[=FROM]  suffixes of hexadecimal digits, from FROM\n"
    "  -e, --elide-empty-files  make no empty file with -n\n"
    "      --filter=COMMAND    give each piece to the shell command COMMAND\n"
    "                            on its standard input instead of writing\n"
    "                            it; $FILE holds the name it would have\n"
    "  -l, --lines=NUMBER      NUMBER lines (records) to each file\n"
    "  -n, --number=CHUNKS     CHUNKS files, cut as described below\n"
    "  -t, --separator=SEP     records end with the byte SEP, not a newline\n"
    "                            ('\\0' for a NUL byte)\n"
    "  -u, --unbuffered        accepted (writes are never held back here)\n"
    "      --verbose           say on standard output when each file is made\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n"
    "\n"
    "SIZE is a whole number, optionally followed by a unit: K, M, G, T, P, E,\n"
    "Z, Y (powers of 1024), KB, MB, ... (powers of 1000), or b (512).\n"
    "\n"
    "CHUNKS is one of:\n"
    "  N       N files of (nearly) equal size\n"
    "  K/N     only the Kth of those N parts, on standard output\n"
    "  l/N     N files, without cutting a line in two\n"
    "  l/K/N   only the Kth of those, on standard output\n"
    "  r/N     N files, lines dealt out in turn\n"
    "  r/K/N   only the lines the Kth file would get, on standard output\n";

enum { BY_LINES, BY_BYTES, BY_LINEBYTES, BY_CHUNKS, BY_CHUNK_LINES, BY_RR };

/* An output: a file, or with --filter the bytes held for the command. */
typedef struct outf {
  stream *s;
  buf *data; /* --filter: what s captured */
  char *name;
} outf;

typedef struct splitter {
  bi_ctx *c;
  const char *alphabet;
  size_t alen;
  size_t suflen;
  int suffix_auto;
  const char *numstart;
  const char *prefix, *addsuf;
  char *name; /* the current file name, NULL before the first */
  size_t namecap, base_len;
  size_t *idx;        /* alphabet index of each suffix character */
  outf cur;           /* the file being written */
  const char *filter; /* --filter: a command each piece is piped to */
  const char *infile;
  const char *inpath; /* absolute path of the input file, NULL for stdin */
  int elide, verbose;
  int eol;
  int failed; /* a message is out: status 1 */
} splitter;

/* GNU's quoteaf: the name quoted for a shell, whatever the locale. */
static const char *shell_quote(splitter *sp, const char *s) {
  bi_ctx *c = sp->c;
  int utf8 = tu_utf8_locale(c);
  size_t n = strlen(s);
  /* escape[i]: byte i is shown as a $'\ooo' escape */
  char *escape = arena_calloc(c->scratch, n + 1);
  if (!escape)
    return s;
  int ctl = 0, sq = 0, dq_special = 0;
  for (size_t i = 0; i < n;) {
    unsigned char u = (unsigned char)s[i];
    size_t l = 1;
    if (u >= 0x80) {
      int32_t cp = -1;
      if (utf8)
        l = u8_next(s + i, n - i, &cp);
      if (cp < 0) {
        escape[i] = 1;
        ctl = 1;
        l = 1;
      }
    } else if (u < 0x20 || u == 0x7f) {
      escape[i] = 1;
      ctl = 1;
    } else if (u == '\'') {
      sq = 1;
    } else if (strchr("$`\"\\!", u)) {
      dq_special = 1;
    }
    i += l;
  }
  buf b;
  buf_init(&b, c->m);
  if (!ctl && sq && !dq_special) {
    buf_putc(&b, '"');
    buf_puts(&b, s);
    buf_putc(&b, '"');
  } else {
    /* always inside '...': a quote becomes '\'', a run of escapes
     * '$'\ooo...'' */
    int dollar = 0;
    buf_putc(&b, '\'');
    for (size_t i = 0; i < n; i++) {
      unsigned char u = (unsigned char)s[i];
      if (escape[i]) {
        if (!dollar)
          buf_puts(&b, "'$'");
        dollar = 1;
        const char *e = tu_char_escape(u);
        if (e && u)
          buf_puts(&b, e);
        else
          buf_printf(&b, "\\%03o", u);
        continue;
      }
      if (dollar)
        buf_puts(&b, "''");
      dollar = 0;
      if (u == '\'')
        buf_puts(&b, "'\\''");
      else
        buf_putc(&b, (char)u);
    }
    buf_puts(&b, dollar ? "''" : "'");
  }
  char *r = b.oom ? NULL : arena_strndup(c->scratch, buf_cstr(&b), b.len);
  buf_free(&b);
  return r ? r : s;
}

static int nomem(splitter *sp) {
  bi_error(sp->c, "%s", bi_strerror(ENOMEM));
  sp->failed = 1;
  return -1;
}

/* The next output name, as GNU makes them: 0, or -1 (message printed). */
static int next_name(splitter *sp) {
  mem *m = sp->c->m;
  if (sp->name) {
    size_t i = sp->suflen;
    char *mid = sp->name + sp->base_len;
    while (i-- != 0) {
      sp->idx[i]++;
      if (sp->suffix_auto && i == 0 && sp->idx[0] + 1 == sp->alen)
        goto widen;
      if (sp->idx[i] < sp->alen) {
        mid[i] = sp->alphabet[sp->idx[i]];
        return 0;
      }
      sp->idx[i] = 0;
      mid[i] = sp->alphabet[0];
    }
    bi_error(sp->c, "output file suffixes exhausted");
    sp->failed = 1;
    return -1;
  }
  /* the first name */
  sp->base_len = strlen(sp->prefix);
  {
    size_t add = sp->addsuf ? strlen(sp->addsuf) : 0;
    size_t need = sp->base_len + sp->suflen + add + 1;
    if (sp->suflen > SIZE_MAX / 4 - sp->base_len - add)
      return nomem(sp);
    sp->name = mem_alloc(m, need);
    sp->idx = mem_calloc(m, sp->suflen ? sp->suflen : 1, sizeof *sp->idx);
    if (!sp->name || !sp->idx)
      return nomem(sp);
    sp->namecap = need;
    memcpy(sp->name, sp->prefix, sp->base_len);
    memset(sp->name + sp->base_len, sp->alphabet[0], sp->suflen);
    if (add)
      memcpy(sp->name + sp->base_len + sp->suflen, sp->addsuf, add);
    sp->name[need - 1] = 0;
    if (sp->numstart) {
      size_t n = strlen(sp->numstart);
      memcpy(sp->name + sp->base_len + sp->suflen - n, sp->numstart, n);
      for (size_t k = 0; k < n; k++) {
        const char *p = strchr(sp->alphabet, sp->numstart[k]);
        sp->idx[sp->suflen - n + k] = (size_t)(p - sp->alphabet);
      }
    }
  }
  return 0;
widen : {
  /* the last letter joins the prefix and the suffix grows by one */
  size_t add = sp->addsuf ? strlen(sp->addsuf) : 0;
  size_t need = sp->namecap + 2;
  char *n = mem_realloc(m, sp->name, need);
  if (!n)
    return nomem(sp);
  sp->name = n;
  sp->namecap = need;
  sp->name[sp->base_len] = sp->alphabet[sp->alen - 1];
  sp->base_len++;
  sp->suflen++;
  size_t *ix = mem_realloc(m, sp->idx, sp->suflen * sizeof *ix);
  if (!ix)
    return nomem(sp);
  sp->idx = ix;
  memset(ix, 0, sp->suflen * sizeof *ix);
  memset(sp->name + sp->base_len, sp->alphabet[0], sp->suflen);
  if (add)
    memcpy(sp->name + sp->base_len + sp->suflen, sp->addsuf, add);
  sp->name[sp->base_len + sp->suflen + add] = 0;
  return 0;
}
}

/* GNU's quotef: quoted for a shell only when it has to be. */
static const char *quote_if_needed(splitter *sp, const char *s) {
  if (!*s)
    return "''";
  for (const unsigned char *u = (const unsigned char *)s; *u; u++)
    if (!isalnum(*u) && !strchr("%+,-./:=@_^", *u))
      return shell_quote(sp, s);
  return s;
}

/* Run the filter over what o holds, with FILE set to its name: 0, or -1
 * after the message (the status becomes the command's). */
static int run_filter(splitter *sp, outf *o) {
  bi_ctx *c = sp->c;
  buf assign;
  buf_init(&assign, c->m);
  buf_printf(&assign, "FILE=%s", o->name);
  stream *in =
      assign.oom
          ? NULL
          : stream_mem_reader(c->m, c->bud, o->data->data ? o->data->data : "",
                              o->data->len, 1);
  if (!in) {
    buf_free(&assign);
    return nomem(sp);
  }
  char *cmd = (char *)sp->filter;
  char *sh[] = {"sh", "-c", cmd, NULL};
  char *viaenv[] = {"env", (char *)buf_cstr(&assign), "sh", "-c", cmd, NULL};
  int st = -1;
  char **env = NULL;
  if (c->run_argv_env && c->environ) {
    /* the exported variables, FILE replaced */
    char **cur = c->environ(c);
    size_t n = 0;
    while (cur && cur[n])
      n++;
    env = mem_calloc(c->m, n + 2, sizeof *env);
    if (env) {
      size_t k = 0;
      for (size_t i = 0; i < n; i++)
        if (strncmp(cur[i], "FILE=", 5) != 0)
          env[k++] = cur[i];
      env[k++] = (char *)buf_cstr(&assign);
      env[k] = NULL;
      st = c->run_argv_env(c, sh, env, NULL, in, NULL, NULL);
      mem_free(c->m, env);
    }
  }
  if (!env)
    st = c->run_argv(c, viaenv, in, NULL, NULL);
  stream_unref(in);
  buf_free(&assign);
  if (budget_poll(c->bud)) {
    sp->failed = 1;
    return -1;
  }
  if (st < 0) /* no sh to run it */
    st = 127;
  if (st != 0 && st != 141) { /* a filter that stops reading is fine */
    bi_error(c, "with FILE=%s, exit %d from command: %s",
             quote_if_needed(sp, o->name), st, sp->filter);
    sp->failed = st;
    return -1;
  }
  return 0;
}

/* Close an output (with --filter: run the command over it): 0, or -1. */
static int close_piece(splitter *sp, outf *o) {
  int rc = 0;
  if (o->data) {
    stream_capture_finish(o->s);
    if (!sp->failed)
      rc = run_filter(sp, o);
    buf_free(o->data);
    mem_free(sp->c->m, o->data);
  } else if (o->s) {
    stream_unref(o->s);
  }
  mem_free(sp->c->m, o->name);
  memset(o, 0, sizeof *o);
  return rc;
}

/* Open the next output file: 0, or -1 (message printed). */
static int open_next(splitter *sp, outf *o) {
  bi_ctx *c = sp->c;
  memset(o, 0, sizeof *o);
  if (budget_poll(c->bud)) {
    sp->failed = 1;
    return -1;
  }
  if (next_name(sp))
    return -1;
  if (sp->verbose &&
      stream_printf(c->out,
                    sp->filter ? "executing with FILE=%s\n"
                               : "creating file %s\n",
                    sp->filter ? quote_if_needed(sp, sp->name)
                               : shell_quote(sp, sp->name)) < 0) {
    sp->failed = c->out->err == EPIPE ? 141 : 1;
    return -1;
  }
  if (!(o->name = mem_strdup(c->m, sp->name)))
    return nomem(sp);
  if (sp->filter) {
    o->data = mem_alloc(c->m, sizeof *o->data);
    if (o->data) {
      buf_init(o->data, c->m);
      o->s = stream_capture(c->m, c->bud, o->data, NULL, NULL, 1, 0);
    }
    if (!o->s) {
      if (o->data)
        buf_free(o->data);
      mem_free(c->m, o->data);
      o->data = NULL;
      mem_free(c->m, o->name);
      o->name = NULL;
      return nomem(sp);
    }
    return 0;
  }
  int err = 0;
  if (sp->inpath && strcmp(sp->inpath, bi_path(c, sp->name)) == 0) {
    bi_error(c, "%s would overwrite input; aborting",
             shell_quote(sp, sp->name));
  } else if (!(o->s = tu_open_write(c, sp->name, 0, &err))) {
    if (err != ECANCELED)
      tu_file_error(c, sp->name, err);
  } else {
    return 0;
  }
  sp->failed = 1;
  mem_free(c->m, o->name);
  o->name = NULL;
  return -1;
}

/* Write p[0..n) to o: 0, or -1 (message printed). */
static int put(splitter *sp, outf *o, const char *p, size_t n) {
  if (n && stream_write(o->s, p, n) < 0) {
    if (o->s->err != ECANCELED)
      tu_file_error(sp->c, o->name, o->s->err);
    sp->failed = 1;
    return -1;
  }
  return 0;
}

/* GNU's cwrite: start a new file first when asked (no empty one with -e),
 * then write p[0..n). 0, or -1 (message printed). */
static int cwrite(splitter *sp, int new_file, const char *p, size_t n) {
  if (new_file) {
    if (!p && n == 0 && sp->elide)
      return 0;
    if (close_piece(sp, &sp->cur) || open_next(sp, &sp->cur))
      return -1;
  }
  return put(sp, &sp->cur, p, n);
}

/* ---- streaming modes ---------------------------------------------------- */

enum { CHUNK = 65536 };

/* A read of the input: >0 bytes, 0 at the end, -1 (message printed). */
static long in_read(splitter *sp, stream *in, char *b, size_t n) {
  long k = stream_read(in, b, n);
  if (k < 0) {
    if (in->err != ECANCELED)
      tu_file_error(sp->c, sp->infile, in->err);
    sp->failed = 1;
  }
  return k;
}

static int lines_split(splitter *sp, stream *in, char *b, uint64_t nlines) {
  int new_file = 1;
  uint64_t n = 0;
  long got;
  while ((got = in_read(sp, in, b, CHUNK)) > 0) {
    const char *p = b, *out = b, *end = b + got;
    for (;;) {
      const char *e = memchr(p, sp->eol, (size_t)(end - p));
      if (!e) {
        if (end != out) {
          if (cwrite(sp, new_file, out, (size_t)(end - out)))
            return -1;
          new_file = 0;
        }
        break;
      }
      p = e + 1;
      if (++n >= nlines) {
        if (cwrite(sp, new_file, out, (size_t)(p - out)))
          return -1;
        out = p;
        new_file = 1;
        n = 0;
      }
    }
  }
  return got < 0 ? -1 : 0;
}

/* -b N, and -n N over data already in memory (init, ilen; max_files N). */
static int bytes_split(splitter *sp, stream *in, char *b, uint64_t nbytes,
                       uint64_t rem, const char *init, size_t ilen,
                       uint64_t max_files) {
  int new_file = 1;
  uint64_t opened = 0;
  uint64_t to_write = nbytes + (rem > 0);
  int eof = !to_write, first = 1;
  while (!eof) {
    const char *p;
    uint64_t nread;
    if (init) {
      if (!first)
        break;
      p = init;
      nread = ilen;
      first = 0;
    } else {
      long got = in_read(sp, in, b, CHUNK);
      if (got < 0)
        return -1;
      p = b;
      nread = (uint64_t)got;
      eof = got == 0;
    }
    while (to_write > 0 && to_write <= nread) {
      if (budget_poll(sp->c->bud)) {
        sp->failed = 1;
        return -1;
      }
      if (cwrite(sp, new_file, p, (size_t)to_write))
        return -1;
      opened += (uint64_t)new_file;
      new_file = !max_files || opened < max_files;
      p += to_write;
      nread -= to_write;
      to_write = nbytes + (opened < rem);
    }
    if (nread > 0) {
      if (cwrite(sp, new_file, p, (size_t)nread))
        return -1;
      opened += (uint64_t)new_file;
      new_file = 0;
      to_write -= nread;
    }
  }
  /* the files no byte reached (none with -e) */
  while (!sp->elide && opened++ < max_files)
    if (cwrite(sp, 1, NULL, 0))
      return -1;
  return 0;
}

/* -C N: at most N bytes to a file, cut after the last whole line that fits
 * (a line longer than N is cut where the file is full). */
static int line_bytes_split(splitter *sp, stream *in, char *b,
                            uint64_t nbytes) {
  uint64_t n_out = 0;
  buf hold;
  buf_init(&hold, sp->c->m);
  int split_line = 0, rc = 0;
  long got;
  do {
    got = in_read(sp, in, b, CHUNK);
    if (got < 0) {
      rc = -1;
      break;
    }
    size_t left = (size_t)got;
    const char *sob = b;
    while (left && !rc) {
      uint64_t split_rest = 0;
      const char *eoc = NULL, *eol;
      if (nbytes - n_out - hold.len <= left) {
        split_rest = nbytes - n_out - hold.len;
        eoc = sob + split_rest - 1;
        eol = memrchr(sob, sp->eol, (size_t)split_rest);
      } else {
        eol = memrchr(sob, sp->eol, left);
      }
      if (hold.len && !(!eol && n_out)) {
        if (cwrite(sp, n_out == 0, hold.data, hold.len)) {
          rc = -1;
          break;
        }
        n_out += hold.len;
        buf_clear(&hold);
      }
      if (eol) {
        split_line = 1;
        size_t w = (size_t)(eol - sob) + 1;
        if (cwrite(sp, n_out == 0, sob, w)) {
          rc = -1;
          break;
        }
        n_out += w;
        left -= w;
        sob += w;
        if (eoc)
          split_rest -= w;
      }
      if (left && !split_line) {
        size_t w = eoc ? (size_t)split_rest : left;
        if (cwrite(sp, n_out == 0, sob, w)) {
          rc = -1;
          break;
        }
        n_out += w;
        left -= w;
        sob += w;
        if (eoc)
          split_rest -= w;
      }
      if ((eoc && split_rest) || (!eoc && left)) {
        size_t nb = eoc ? (size_t)split_rest : left;
        if (buf_append(&hold, sob, nb)) {
          rc = nomem(sp);
          break;
        }
        left -= nb;
        sob += nb;
      }
      if (eoc) {
        n_out = 0;
        split_line = 0;
      }
    }
  } while (got && !rc);
  if (!rc && hold.len)
    rc = cwrite(sp, n_out == 0, hold.data, hold.len);
  buf_free(&hold);
  return rc;
}

/* -n r/N and r/K/N: lines dealt to the files in turn. */
static int lines_rr(splitter *sp, stream *in, char *b, uint64_t k, uint64_t n) {
  bi_ctx *c = sp->c;
  mem *m = c->m;
  writer w;
  wr_init(&w, c->out);
  outf *outs = NULL;
  size_t nouts = 0; /* files opened so far, in order */
  uint64_t i_file = 0;
  int rc = 0;
  long got;
  while (!rc && (got = in_read(sp, in, b, CHUNK)) > 0) {
    const char *p = b, *end = b + got;
    while (p < end) {
      const char *e = memchr(p, sp->eol, (size_t)(end - p));
      const char *stop = e ? e + 1 : end;
      if (k) {
        if (i_file + 1 == k && wr_write(&w, p, (size_t)(stop - p))) {
          rc = -1;
          break;
        }
      } else {
        if (i_file >= nouts) {
          outf *o = mem_realloc(m, outs, (nouts + 1) * sizeof *o);
          if (!o) {
            rc = nomem(sp);
            break;
          }
          outs = o;
          if (open_next(sp, &outs[nouts])) {
            rc = -1;
            break;
          }
          nouts++;
        }
        if (put(sp, &outs[i_file], p, (size_t)(stop - p))) {
          rc = -1;
          break;
        }
      }
      p = stop;
      if (e && ++i_file == n) {
        i_file = 0;
        if (budget_poll(c->bud)) {
          sp->failed = 1;
          rc = -1;
          break;
        }
      }
    }
  }
  if (got < 0)
    rc = -1;
  /* every file exists in the end (but the empty ones with -e) */
  for (uint64_t f = nouts; !rc && !k && !sp->elide && f < n; f++) {
    outf o;
    if (open_next(sp, &o) || close_piece(sp, &o))
      rc = -1;
  }
  for (size_t f = 0; f < nouts; f++)
    if (close_piece(sp, &outs[f]))
      rc = -1;
  mem_free(m, outs);
  if (wr_flush(&w)) {
    if (w.err != ECANCELED)
      sp->failed = bi_stream_status(w.err);
    rc = -1;
  }
  return rc;
}

/* -n l/N and l/K/N over the whole input data[0..len); size is the input
 * size raised to n. Each cut moves to the end of the line it falls in; a
 * line long enough to cover whole chunks leaves empty files for them. */
static int lines_chunk_split(splitter *sp, const char *data, size_t len,
                             uint64_t k, uint64_t n, uint64_t size) {
  bi_ctx *c = sp->c;
  writer w;
  wr_init(&w, c->out);
  uint64_t chunk = size / n, chunk_no = 1, written = 0;
  int64_t chunk_end = (int64_t)chunk - 1;
  int new_file = 1, truncated = 0, rc = 0;
  const char *bp = data, *eob = data + len;
  if (k > 1) {
    /* from the byte before the Kth chunk */
    uint64_t start = (k - 1) * chunk - 1;
    bp = start < len ? data + start : eob;
    written = start;
    chunk_no = k - 1;
    chunk_end = (int64_t)(chunk_no * chunk) - 1;
  }
  if (written < size && bp != eob) {
    if ((uint64_t)(eob - bp) > size - written)
      eob = bp + (size - written);
    while (bp != eob) {
      if (budget_poll(c->bud)) {
        sp->failed = 1;
        rc = -1;
        break;
      }
      uint64_t nread = (uint64_t)(eob - bp);
      int64_t ahead = chunk_end - (int64_t)written;
      uint64_t skip = ahead > 0 ? (uint64_t)ahead : 0;
      if (skip > nread)
        skip = nread;
      const char *out = memchr(bp + skip, sp->eol, (size_t)(nread - skip));
      int next = 0;
      if (out) {
        out++;
        next = 1;
      } else {
        out = eob;
      }
      size_t to_write = (size_t)(out - bp);
      if (k == chunk_no) {
        if (wr_write(&w, bp, to_write)) {
          rc = -1;
          break;
        }
      } else if (!k) {
        if (cwrite(sp, new_file, bp, to_write)) {
          rc = -1;
          break;
        }
      }
      written += to_write;
      bp += to_write;
      new_file = next;
      while (next || chunk_end <= (int64_t)written - 1) {
        if (!next && bp == eob) {
          truncated = 1;
          break;
        }
        chunk_no++;
        if (k && chunk_no > k)
          goto done;
        if (chunk_no == n)
          chunk_end = (int64_t)size - 1;
        else
          chunk_end += (int64_t)chunk;
        if ((chunk_no & 65535) == 0 && budget_poll(c->bud)) {
          sp->failed = 1;
          rc = -1;
          goto done;
        }
        if (chunk_end <= (int64_t)written - 1) {
          if (!k && cwrite(sp, 1, NULL, 0)) {
            rc = -1;
            goto done;
          }
        } else {
          next = 0;
        }
      }
    }
  }
  if (!rc) {
    if (truncated)
      chunk_no++;
    if (!k && !sp->elide)
      while (chunk_no++ <= n)
        if (cwrite(sp, 1, NULL, 0)) {
          rc = -1;
          break;
        }
  }
done:
  if (wr_flush(&w)) {
    if (w.err != ECANCELED)
      sp->failed = bi_stream_status(w.err);
    rc = -1;
  }
  return rc;
}

/* ---- options ------------------------------------------------------------ */

enum { NUM_OK, NUM_INVALID, NUM_RANGE, NUM_OVERFLOW };

/* A count as GNU's xstrtoimax reads it, with its size units when units is
 * set. */
static int parse_num(const char *s, int units, uint64_t *v) {
  const char *p = s;
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '-')
    return NUM_INVALID;
  if (*p == '+')
    p++;
  uint64_t n = 0;
  int over = 0;
  if (!isdigit((unsigned char)*p)) {
    if (!(units && *p && strchr("bEGKkMmPTYZ", *p)))
      return NUM_INVALID;
    n = 1;
  }
  for (; isdigit((unsigned char)*p); p++) {
    unsigned d = (unsigned)(*p - '0');
    if (n > (UINT64_MAX - d) / 10)
      over = 1;
    else
      n = n * 10 + d;
  }
  if (*p) {
    /* R and Q are in GNU's list, but its 9.1 parser knows no multiplier
     * for them: such a count is invalid */
    if (!units || !strchr("bEGKkMmPTYZ", *p))
      return NUM_INVALID;
    static const char pows[] = "KMGTPEZY";
    unsigned base = 1024, pw = 0;
    char u = *p++;
    if (*p == 'i' && p[1] == 'B')
      p += 2;
    else if (*p == 'B' || *p == 'D') {
      base = 1000;
      p++;
    }
    if (*p)
      return NUM_INVALID;
    if (u == 'b') {
      pw = 0;
      if (n > UINT64_MAX / 512)
        over = 1;
      else
        n *= 512;
    } else {
      pw = (unsigned)(strchr(pows, toupper((unsigned char)u)) - pows) + 1;
      for (unsigned i = 0; i < pw; i++) {
        if (n > UINT64_MAX / base)
          over = 1;
        else
          n *= base;
      }
    }
  }
  if (over || n > (uint64_t)INT64_MAX)
    return NUM_OVERFLOW;
  *v = n;
  return NUM_OK;
}

/* "MSG: 'ARG'" with the reason GNU gives for the kind of failure. */
static int bad_num(bi_ctx *c, const char *msg, const char *arg, int why,
                   uint64_t v) {
  if (why == NUM_RANGE && v > INT_MAX / 2)
    why = NUM_OVERFLOW;
  if (why == NUM_INVALID)
    bi_error(c, "%s: %s", msg, tu_quote(c, arg));
  else
    bi_error(c, "%s: %s: %s", msg, tu_quote(c, arg),
             bi_strerror(why == NUM_RANGE ? ERANGE : EOVERFLOW));
  return 1;
}

/* A count from min to max: 0, or 1 after the complaint. */
static int count_arg(bi_ctx *c, const char *arg, int units, uint64_t min,
                     uint64_t max, const char *msg, uint64_t *v) {
  int r = parse_num(arg, units, v);
  if (r == NUM_OK && (*v < min || *v > max))
    r = NUM_RANGE;
  return r == NUM_OK ? 0 : bad_num(c, msg, arg, r, *v);
}

static int one_way(bi_ctx *c) {
  bi_error(c, "cannot split in more than one way");
  bi_try_help(c);
  return 1;
}

typedef struct split_opts {
  int type; /* -1: not chosen */
  uint64_t n, k;
  int suflen_set;
  int digits_elem; /* argv index of the -NUM option being read */
} split_opts;

static int parse_chunks(bi_ctx *c, split_opts *o, const char *arg) {
  while (isspace((unsigned char)*arg))
    arg++;
  if (strncmp(arg, "r/", 2) == 0) {
    o->type = BY_RR;
    arg += 2;
  } else if (strncmp(arg, "l/", 2) == 0) {
    o->type = BY_CHUNK_LINES;
    arg += 2;
  } else {
    o->type = BY_CHUNKS;
  }
  const char *slash = strchr(arg, '/');
  if (count_arg(c, slash ? slash + 1 : arg, 0, 1, INT64_MAX,
                "invalid number of chunks", &o->n))
    return 1;
  if (slash) {
    char *kstr = arena_strndup(c->scratch, arg, (size_t)(slash - arg));
    if (!kstr)
      return bad_num(c, "invalid chunk number", arg, NUM_INVALID, 0);
    if (count_arg(c, kstr, 0, 1, o->n, "invalid chunk number", &o->k))
      return 1;
  }
  return 0;
}

int bi_split(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'b', BI_ARG_REQUIRED},
                                {"line-bytes", 'C', BI_ARG_REQUIRED},
                                {"lines", 'l', BI_ARG_REQUIRED},
                                {"number", 'n', BI_ARG_REQUIRED},
                                {"additional-suffix", 0x100, BI_ARG_REQUIRED},
                                {"elide-empty-files", 'e', BI_ARG_NONE},
                                {"filter", 0x101, BI_ARG_REQUIRED},
                                {"numeric-suffixes", 0x102, BI_ARG_OPTIONAL},
                                {"hex-suffixes", 0x103, BI_ARG_OPTIONAL},
                                {"suffix-length", 'a', BI_ARG_REQUIRED},
                                {"separator", 't', BI_ARG_REQUIRED},
                                {"unbuffered", 'u', BI_ARG_NONE},
                                {"verbose", 0x104, BI_ARG_NONE},
                                BI_OPTS_END};
  splitter sp;
  memset(&sp, 0, sizeof sp);
  sp.c = c;
  sp.alphabet = "abcdefghijklmnopqrstuvwxyz";
  sp.suffix_auto = 1;
  sp.prefix = "x";
  sp.eol = -1;
  split_opts o = {-1, 0, 0, 0, -1};
  bi_getopt g;
  bi_getopt_init(&g, c, "0123456789C:a:b:del:n:t:ux", opts);
  int ch, elem = 0;
  for (;;) {
    /* the argv word the next short option comes from (for -NUM) */
    if (!g.next)
      elem = g.idx;
    ch = bi_getopt_each(&g, 1);
    if (ch <= 0)
      break;
    switch (ch) {
    case 'a': {
      uint64_t v;
      if (count_arg(c, g.arg, 0, 0, INT64_MAX, "invalid suffix length", &v))
        return 1;
      sp.suflen = (size_t)v;
      break;
    }
    case 0x100: {
      size_t l = strlen(g.arg);
      if (strchr(g.arg, '/') || (l && g.arg[l - 1] == '/')) {
        bi_error(c, "invalid suffix %s, contains directory separator",
                 tu_quote(c, g.arg));
        bi_try_help(c);
        return 1;
      }
      sp.addsuf = g.arg;
      break;
    }
    case 'b':
    case 'C':
    case 'l':
      if (o.type != -1)
        return one_way(c);
      o.type = ch == 'l' ? BY_LINES : ch == 'b' ? BY_BYTES : BY_LINEBYTES;
      if (count_arg(c, g.arg, ch != 'l', 1, INT64_MAX,
                    ch == 'l' ? "invalid number of lines"
                              : "invalid number of bytes",
                    &o.n))
        return 1;
      break;
    case 'n':
      if (o.type != -1)
        return one_way(c);
      if (parse_chunks(c, &o, g.arg))
        return 1;
      break;
    case 'u':
      break;
    case 't': {
      int e = (unsigned char)g.arg[0];
      if (!e) {
        bi_error(c, "empty record separator");
        return 1;
      }
      if (g.arg[1]) {
        if (strcmp(g.arg, "\\0") == 0) {
          e = 0;
        } else {
          bi_error(c, "multi-character separator %s", tu_quote(c, g.arg));
          return 1;
        }
      }
      if (sp.eol >= 0 && e != sp.eol) {
        bi_error(c, "multiple separator characters specified");
        return 1;
      }
      sp.eol = e;
      break;
    }
    case 'd':
    case 'x':
    case 0x102:
    case 0x103: {
      int hex = ch == 'x' || ch == 0x103;
      sp.alphabet = hex ? "0123456789abcdef" : "0123456789";
      if (g.arg) {
        if (strspn(g.arg, sp.alphabet) != strlen(g.arg)) {
          bi_error(c,
                   hex ? "%s: invalid start value for hexadecimal suffix"
                       : "%s: invalid start value for numerical suffix",
                   tu_quote(c, g.arg));
          bi_try_help(c);
          return 1;
        }
        const char *a = g.arg;
        while (*a == '0' && a[1])
          a++;
        sp.numstart = a;
      }
      break;
    }
    case 'e':
      sp.elide = 1;
      break;
    case 0x101:
      sp.filter = g.arg;
      break;
    case 0x104:
      sp.verbose = 1;
      break;
    default: /* a digit: the obsolete -NUM */
      if (o.type != -1 && o.type != 100)
        return one_way(c);
      if (o.digits_elem != elem)
        o.n = 0;
      o.digits_elem = elem;
      o.type = 100;
      if (o.n > ((uint64_t)INT64_MAX - 9) / 10)
        o.n = INT64_MAX;
      else
        o.n = o.n * 10 + (uint64_t)(ch - '0');
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (o.k && sp.filter) {
    bi_error(c, "--filter does not process a chunk extracted to stdout");
    bi_try_help(c);
    return 1;
  }
  if (o.type == 100)
    o.type = BY_LINES;
  if (o.type == -1) {
    o.type = BY_LINES;
    o.n = 1000;
  }
  if (o.n == 0) {
    bi_error(c, "invalid number of lines: %s", tu_quote(c, "0"));
    bi_try_help(c);
    return 1;
  }
  if (sp.eol < 0)
    sp.eol = '\n';
  sp.alen = strlen(sp.alphabet);
  /* the suffix length: computed for -n, else 2 and widening */
  {
    size_t needed = 0;
    if (sp.numstart)
      sp.suffix_auto = 0;
    if (o.type == BY_CHUNKS || o.type == BY_CHUNK_LINES || o.type == BY_RR) {
      uint64_t end = o.n - 1;
      if (sp.numstart) {
        uint64_t start;
        if (parse_num(sp.numstart, 0, &start) == NUM_OK && start < o.n)
          end = end > UINT64_MAX - start ? UINT64_MAX : end + start;
      }
      do
        needed++;
      while (end /= sp.alen);
      sp.suffix_auto = 0;
    }
    if (sp.suflen) {
      if (sp.suflen < needed) {
        bi_error(c, "the suffix length needs to be at least %zu", needed);
        return 1;
      }
      sp.suffix_auto = 0;
    } else {
      sp.suflen = needed > 2 ? needed : 2;
    }
  }
  if (g.noperands > 2) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[2]));
    bi_try_help(c);
    return 1;
  }
  sp.infile = g.noperands > 0 ? g.operands[0] : "-";
  if (g.noperands > 1)
    sp.prefix = g.operands[1];
  if (sp.numstart && strlen(sp.numstart) > sp.suflen) {
    bi_error(c, "numerical suffix start value is too large for the suffix "
                "length");
    bi_try_help(c);
    return 1;
  }
  int err = 0;
  stream *in = bi_open_read(c, sp.infile, &err);
  if (!in) {
    if (err == EISDIR) /* GNU opens it, then fails to read */
      tu_file_error(c, sp.infile, err);
    else if (err != ECANCELED)
      bi_error(c, "cannot open %s for reading: %s", shell_quote(&sp, sp.infile),
               bi_strerror(err));
    return 1;
  }
  if (strcmp(sp.infile, "-") != 0)
    sp.inpath = bi_path(c, sp.infile);
  char *b = NULL;
  int rc = 0;
  if (o.type == BY_CHUNKS || o.type == BY_CHUNK_LINES) {
    const char *data;
    size_t len;
    int null = stream_is_null(in); /* /dev/null: a file of no bytes */
    if (null) {
      data = "";
      len = 0;
    }
    if (!null && stream_take_all(in, &data, &len) < 0) {
      if (in->err != ECANCELED)
        bi_error(c, "%s: cannot determine file size",
                 quote_if_needed(&sp, sp.infile));
      rc = -1;
      sp.failed = 1;
    } else {
      uint64_t size = len > o.n ? len : o.n;
      if (o.type == BY_CHUNK_LINES) {
        rc = lines_chunk_split(&sp, data, len, o.k, o.n, size);
      } else if (!o.k) {
        rc = bytes_split(&sp, NULL, NULL, size / o.n, 0, data, len, o.n);
      } else {
        uint64_t k = o.k, n = o.n, q = size / n;
        uint64_t start = (k - 1) * q, end = k == n ? size : k * q;
        if (start > len)
          start = len;
        if (end > len)
          end = len;
        if (end > start &&
            stream_write(c->out, data + start, (size_t)(end - start)) < 0) {
          sp.failed = bi_stream_status(c->out->err);
          rc = -1;
        }
      }
    }
  } else {
    b = mem_alloc(c->m, CHUNK);
    if (!b) {
      rc = nomem(&sp);
    } else if (o.type == BY_LINES) {
      rc = lines_split(&sp, in, b, o.n);
    } else if (o.type == BY_BYTES) {
      rc = bytes_split(&sp, in, b, o.n, 0, NULL, 0, 0);
    } else if (o.type == BY_LINEBYTES) {
      rc = line_bytes_split(&sp, in, b, o.n);
    } else {
      rc = lines_rr(&sp, in, b, o.k, o.n);
    }
  }
  if (close_piece(&sp, &sp.cur))
    rc = -1;
  stream_unref(in);
  mem_free(c->m, b);
  mem_free(c->m, sp.name);
  mem_free(c->m, sp.idx);
  if (budget_poll(c->bud))
    return 1;
  if (rc)
    return sp.failed ? sp.failed : 1;
  return 0;
}
