/*
 * patch.c - GNU patch: apply a diff to the files it names.
 *
 * Each hunk is looked for where the header says, then at growing
 * distances after and before (the offset carried from one hunk to the
 * next); failing that, again with 1, then 2 (-F) context lines ignored at
 * each end. A first hunk that only fits the other way round is reported
 * as a reversed (or already applied) patch. Messages, .rej files and exit
 * statuses follow GNU patch 2.7: 0 all applied, 1 some hunks failed,
 * 2 trouble.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/text/patch/patch.h"
#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_patch[] = "Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]";
const char bi_help_patch[] =
    "Apply a diff (unified, context or normal) to the files it names, or to\n"
    "ORIGFILE. The diff is read from PATCHFILE, -i FILE or standard input.\n"
    "\n"
    "  -p, --strip=NUM        drop NUM leading directories from file names\n"
    "                           (without -p only the last component is "
    "kept)\n"
    "  -R, --reverse          undo the diff: swap its old and new sides\n"
    "  -i, --input=FILE       read the diff from FILE\n"
    "  -o, --output=FILE      write the result to FILE\n"
    "  -N, --forward          skip diffs that look reversed or applied\n"
    "  -F, --fuzz=NUM         ignore up to NUM context lines at each end "
    "(2)\n"
    "  -b, --backup           keep the original as FILE.orig\n"
    "  -s, --quiet, --silent  say only what fails\n"
    "      --dry-run          report what would happen, change nothing\n"
    "  -E, --remove-empty-files  remove files left empty\n"
    "  -t, --batch            take a patch that looks reversed as reversed\n"
    "  -f, --force            apply a patch even if it looks reversed\n"
    "  -u, -c, -n             accepted: the format is read from the diff\n"
    "      --no-backup-if-mismatch  no FILE.orig when hunks needed an offset,\n"
    "                           fuzz or failed (kept by default)\n"
    "  -r, --reject-file=FILE write rejected hunks to FILE\n"
    "  -d, --directory=DIR    change to DIR first\n"
    "      --help             print this summary and quit\n"
    "  -v, --version          print the version line and quit\n";

enum { O_DRY = 0x100, O_NOBACKUP };

typedef struct fline {
  const char *p;
  size_t n;
  int nonl;
} fline;

typedef struct px {
  bi_ctx *c;
  writer w; /* stdout */
  long strip;
  int reverse, forward, silent, dry, backup, remove_empty;
  int no_backup_mismatch; /* --no-backup-if-mismatch */
  int batch, force;       /* -t: assume reversed patches are; -f: never */
  long maxfuzz;
  const char *outfile, *rejfile, *origfile;
  const char *cwd;
  int status;
} px;

static void say(px *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(px *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf b;
  buf_init(&b, x->c->m);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  if (!b.oom)
    wr_write(&x->w, buf_cstr(&b), b.len);
  buf_free(&b);
}

static void fatal(px *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fatal(px *x, const char *fmt, ...) {
  wr_flush(&x->w);
  va_list ap;
  va_start(ap, fmt);
  buf b;
  buf_init(&b, x->c->m);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  stream_printf(x->c->err, "%s: **** %s\n", x->c->argv[0], buf_cstr(&b));
  buf_free(&b);
}

/* ---- names -------------------------------------------------------------- */

static const char *strip_name(px *x, const char *name) {
  if (!name)
    return NULL;
  if (x->strip < 0)
    return fu_basename(x->c, name);
  const char *p = name;
  for (long k = 0; k < x->strip; k++) {
    const char *s = strchr(p, '/');
    if (!s)
      return NULL;
    while (*s == '/')
      s++;
    p = s;
  }
  return *p ? p : NULL;
}

static int exists(px *x, const char *name, fu_stat *st) {
  return x->c->vfs && vfs_stat(x->c->vfs, x->cwd, name, st) == 0;
}

static int components(const char *s) {
  int n = 1;
  for (; *s; s++)
    n += *s == '/' && s[1] && s[1] != '/';
  return n;
}

/* GNU's choice among the candidate names: the existing one with the
 * fewest components, then the shortest base name, then the shortest. */
static const char *best_name(px *x, const char *cand[3], int want_exist) {
  const char *best = NULL;
  for (int i = 0; i < 3; i++) {
    fu_stat st;
    if (!cand[i] || (want_exist && !exists(x, cand[i], &st)))
      continue;
    if (!best) {
      best = cand[i];
      continue;
    }
    int cb = components(best), ci = components(cand[i]);
    size_t bb = strlen(fu_basename(x->c, best)),
           bi = strlen(fu_basename(x->c, cand[i]));
    if (ci < cb ||
        (ci == cb && (bi < bb || (bi == bb && strlen(cand[i]) < strlen(best)))))
      best = cand[i];
  }
  return best;
}

/* ---- matching ----------------------------------------------------------- */

typedef struct hk {
  const pt_hunk *h;
  int swapped;
  long pat_n;    /* old-side lines */
  long pre, suf; /* context lines before the first and after the last change */
} hk;

static char side_old(const hk *k, char t) {
  if (k->swapped)
    return t == '+' ? '-' : t == '-' ? '+' : t;
  return t;
}

static void hk_init(hk *k, const pt_hunk *h, int swapped) {
  k->h = h;
  k->swapped = swapped;
  k->pat_n = 0;
  for (size_t i = 0; i < h->nl; i++)
    k->pat_n += side_old(k, h->l[i].t) != '+';
  size_t i = 0;
  k->pre = 0;
  while (i < h->nl && h->l[i].t == ' ')
    k->pre++, i++;
  k->suf = 0;
  size_t j = h->nl;
  while (j > i && h->l[j - 1].t == ' ')
    k->suf++, j--;
  if (i == h->nl) /* all context */
    k->suf = 0;
}

/* Where the old side says it starts (1-based line of its first line). */
static long hk_first(const hk *k) {
  long f = k->swapped ? k->h->new_first : k->h->old_first;
  long n = k->swapped ? k->h->new_n : k->h->old_n;
  return n == 0 ? f + 1 : f;
}

/* Do the old lines of the hunk, less `pf` at the top and `sf` at the
 * bottom, equal the file's lines from `at` (1-based)? */
static int match_at(const hk *k, const fline *fl, long nlines, long at, long pf,
                    long sf) {
  long idx = 0;
  for (size_t i = 0; i < k->h->nl; i++) {
    const pt_line *l = &k->h->l[i];
    if (side_old(k, l->t) == '+')
      continue;
    if (idx >= pf && idx < k->pat_n - sf) {
      long li = at - 1 + idx;
      if (li < 0 || li >= nlines)
        return 0;
      if (fl[li].n != l->n || memcmp(fl[li].p, l->p, l->n))
        return 0;
    }
    idx++;
  }
  return 1;
}

/* GNU's search: 0 when not found, else the 1-based line. */
static long locate(px *x, const hk *k, const fline *fl, long nlines,
                   long first_guess, long frozen, long fuzz) {
  long ctx = k->pre > k->suf ? k->pre : k->suf;
  long pf = fuzz + k->pre - ctx, sf = fuzz + k->suf - ctx;
  long pat = k->pat_n;
  long max_where = nlines - (pat - sf) + 1;
  long min_where = frozen + 1;
  long max_pos = max_where - first_guess, max_neg = first_guess - min_where;
  long max_off = max_pos < max_neg ? max_neg : max_pos;
  if (!pat)
    return first_guess;
  if (first_guess <= max_neg)
    max_neg = first_guess - 1;
  if (pf < 0 && hk_first(k) <= 1) {
    if (sf < 0 && (pat != nlines || frozen > 0))
      return 0;
    long off = 1 - first_guess;
    if (frozen == 0 && off <= max_pos &&
        match_at(k, fl, nlines, first_guess + off, 0, sf < 0 ? 0 : sf))
      return first_guess + off;
    return 0;
  }
  if (pf < 0)
    pf = 0;
  if (sf < 0) {
    long off = first_guess - (nlines - pat + 1);
    if (off <= max_neg && match_at(k, fl, nlines, first_guess - off, pf, 0))
      return first_guess - off;
    return 0;
  }
  /* Offsets where neither direction can fit are skipped at once (a hunk
   * header can name any line, however far past the end). */
  long start = 0;
  if (first_guess > max_where)
    start = first_guess - max_where;
  else if (first_guess < min_where)
    start = min_where - first_guess;
  for (long off = start; off <= max_off; off++) {
    if ((off & 1023) == 0 && budget_poll(x->c->bud))
      return 0;
    if (off <= max_pos && match_at(k, fl, nlines, first_guess + off, pf, sf))
      return first_guess + off;
    if (off > 0 && off <= max_neg &&
        match_at(k, fl, nlines, first_guess - off, pf, sf))
      return first_guess - off;
  }
  return 0;
}

/* ---- one file ----------------------------------------------------------- */

static fline *split_lines(bi_ctx *c, const char *d, size_t len, long *n) {
  long cnt = 0;
  for (size_t i = 0; i < len; i++)
    cnt += d[i] == '\n';
  if (len && d[len - 1] != '\n')
    cnt++;
  fline *v = arena_alloc(c->scratch, ((size_t)cnt + 1) * sizeof *v);
  if (!v)
    return NULL;
  long k = 0;
  size_t off = 0;
  while (off < len) {
    const char *nl = memchr(d + off, '\n', len - off);
    size_t e = nl ? (size_t)(nl - d) : len;
    v[k++] = (fline){d + off, e - off, !nl};
    off = nl ? e + 1 : len;
  }
  *n = k;
  return v;
}

static void put_fline(buf *o, const char *p, size_t n, int nonl) {
  buf_append(o, p, n);
  if (!nonl)
    buf_putc(o, '\n');
}

static void no_file(px *x, const pt_file *f) {
  say(x, "can't find file to patch at input line %ld\n", f->first_hunk_line);
  say(x, "Perhaps you %s -p or --strip option?\n",
      x->strip >= 0 ? "used the wrong" : "should have used the");
  if (f->hdr_len) {
    say(x, "The text leading up to this was:\n--------------------------\n");
    const char *p = f->hdr, *e = f->hdr + f->hdr_len;
    while (p < e) {
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
      wr_putc(&x->w, '|');
      wr_write(&x->w, p, n);
      wr_putc(&x->w, '\n');
      p += n + 1;
    }
    say(x, "--------------------------\n");
  }
  say(x, "File to patch: \nSkip this patch? [y] \nSkipping patch.\n");
  say(x, "%zu out of %zu hunk%s ignored\n", f->nh, f->nh,
      f->nh == 1 ? "" : "s");
  x->status = x->status > 1 ? x->status : 1;
}

/* A rejected hunk as GNU writes it: unified hunks in unified form, the
 * others in context form (old-style for normal diffs), with the line
 * numbers moved by the offset in force. */
static void rej_hunk(buf *o, const pt_file *f, const pt_hunk *hunk, long off,
                     int rev) {
  pt_hunk rh;
  const pt_hunk *h = hunk;
  if (rev) {
    /* the hunk as it was applied: old and new swapped */
    rh = *hunk;
    rh.old_first = hunk->new_first;
    rh.old_n = hunk->new_n;
    rh.new_first = hunk->old_first;
    rh.new_n = hunk->old_n;
    h = &rh;
  }
#define RT(t) (rev && (t) != ' ' ? ((t) == '+' ? '-' : '+') : (t))
  if (f->kind == PT_UNIFIED) {
    long ofirst = (h->old_n ? h->old_first : h->old_first + 1) + off;
    long nfirst = (h->new_n ? h->new_first : h->new_first + 1) + off;
    long r[2][2] = {{ofirst, h->old_n}, {nfirst, h->new_n}};
    buf_puts(o, "@@ -");
    for (int k = 0; k < 2; k++) {
      if (k)
        buf_puts(o, " +");
      if (r[k][1] == 0)
        buf_printf(o, "%ld,0", r[k][0] - 1);
      else if (r[k][1] == 1)
        buf_printf(o, "%ld", r[k][0]);
      else
        buf_printf(o, "%ld,%ld", r[k][0], r[k][1]);
    }
    buf_puts(o, " @@");
    /* what followed the header (a function name) stays */
    const char *t = h->text, *e = memchr(t, '\n', h->text_len);
    size_t tl = e ? (size_t)(e - t) : h->text_len;
    const char *at = tl > 4 ? memmem(t + 2, tl - 2, "@@", 2) : NULL;
    if (at)
      buf_append(o, at + 2, tl - (size_t)(at + 2 - t));
    buf_putc(o, '\n');
    for (size_t i = 0; i < h->nl;) {
      size_t j = i + 1;
      if (h->l[i].t != ' ')
        while (j < h->nl && h->l[j].t != ' ')
          j++;
      /* a block of changes: its removals first, then its additions */
      for (int pass = 0; pass < 2; pass++)
        for (size_t k = i; k < j; k++) {
          char t = RT(h->l[k].t);
          if (t != ' ' && (t == '-') != (pass == 0))
            continue;
          if (t == ' ' && pass)
            continue;
          buf_putc(o, t);
          buf_append(o, h->l[k].p, h->l[k].n);
          buf_putc(o, '\n');
          if (h->l[k].nonl)
            buf_puts(o, "\\ No newline at end of file\n");
        }
      i = j;
    }
    return;
  }
  int old_style = f->kind == PT_NORMAL;
  const char *stars = old_style ? "" : " ****";
  const char *minuses = old_style ? " -----" : " ----";
  long ofirst = (h->old_n ? h->old_first : h->old_first + 1) + off;
  long nfirst = (h->new_n ? h->new_first : h->new_first + 1) + off;
  buf_puts(o, "***************\n");
  for (int side = 0; side < 2; side++) {
    long first = side ? nfirst : ofirst, n = side ? h->new_n : h->old_n;
    buf_puts(o, side ? "--- " : "*** ");
    if (n == 0)
      buf_puts(o, "0");
    else if (n == 1)
      buf_printf(o, "%ld", first);
    else
      buf_printf(o, "%ld,%ld", first, first + n - 1);
    buf_puts(o, side ? minuses : stars);
    buf_putc(o, '\n');
    if (n == 0)
      continue;
    char mine = side ? '+' : '-', other = side ? '-' : '+';
    for (size_t i = 0; i < h->nl;) {
      if (h->l[i].t == ' ') {
        buf_puts(o, "  ");
        buf_append(o, h->l[i].p, h->l[i].n);
        buf_putc(o, '\n');
        i++;
        continue;
      }
      /* a block of changes: '!' when it both removes and adds */
      size_t j = i;
      int has_other = 0;
      for (; j < h->nl && h->l[j].t != ' '; j++)
        has_other |= RT(h->l[j].t) == other;
      for (; i < j; i++) {
        if (RT(h->l[i].t) != mine)
          continue;
        buf_putc(o, has_other && !old_style ? '!' : mine);
        buf_putc(o, ' ');
        buf_append(o, h->l[i].p, h->l[i].n);
        buf_putc(o, '\n');
        if (h->l[i].nonl)
          buf_puts(o, "\\ No newline at end of file\n");
      }
    }
  }
#undef RT
}

static int write_out(px *x, const char *path, const char *d, size_t n,
                     unsigned mode) {
  if (!strcmp(path, "-") || !strncmp(path, "/dev/", 5)) {
    /* -o - (and /dev/stdout, /dev/fd/N): a stream, not a file */
    int err = 0;
    stream *s = !strcmp(path, "-") ? stream_ref(x->c->out)
                                   : tu_open_write(x->c, path, 0, &err);
    if (!s) {
      fatal(x, "Can't create file %s : %s", path, bi_strerror(err));
      return -1;
    }
    wr_flush(&x->w);
    int r = stream_write(s, d, n);
    int werr = s->err;
    stream_unref(s);
    if (r) {
      if (werr != ECANCELED && werr != EPIPE)
        fatal(x, "write error : %s", bi_strerror(werr));
      return -1;
    }
    return 0;
  }
  int r = vfs_write_file(x->c->vfs, x->cwd, path, d, n, mode);
  if (r < 0) {
    fatal(x, "Can't create file %s : %s", path, bi_strerror(-r));
    return -1;
  }
  return 0;
}

static int patch_file(px *x, const pt_file *f) {
  bi_ctx *c = x->c;
  int rev = x->reverse;
  const char *cand[3] = {NULL, NULL, NULL};
  int is_null[2] = {f->is_null[0], f->is_null[1]};
  /* GNU patch 2.7 does not look at Index: lines (outside POSIX mode) */
  for (int i = 0; i < 2; i++)
    if (!is_null[i])
      cand[i] = strip_name(x, f->name[i]);
  if (f->rename_from && f->rename_to) {
    cand[0] = strip_name(x, f->name[0]);
    cand[1] = NULL;
  }
  if (rev) {
    int t = is_null[0];
    is_null[0] = is_null[1];
    is_null[1] = t;
  }
  const char *name = x->origfile;
  if (!name)
    name = best_name(x, cand, 1);
  if (!name && is_null[0])
    name = rev ? cand[0] : cand[1];
  if (!name && is_null[0] == 0 && f->git_new == 0) {
    const char *any = best_name(x, cand, 0);
    if (any && f->nh && is_null[1] == 0) {
      no_file(x, f);
      return 0;
    }
    name = any;
  }
  if (!name) {
    no_file(x, f);
    return 0;
  }
  const char *outname = x->outfile ? x->outfile : name;
  const char *newname = NULL; /* a git rename's target */
  if (f->rename_from && f->rename_to && !x->outfile) {
    const char *to = strip_name(x, f->name[1]);
    if (to && strcmp(to, name)) {
      newname = to;
      outname = to;
    }
  }
  fu_stat st;
  int have = exists(x, name, &st);
  if (have && st.type == VFS_DIR) {
    fatal(x, "File %s is not a regular file -- can't patch", name);
    x->status = 2;
    return 0;
  }
  char *data = NULL;
  size_t len = 0;
  if (have) {
    int r = vfs_read_file(c->vfs, x->cwd, name, &data, &len);
    if (r < 0) {
      fatal(x, "Can't open file %s : %s", name, bi_strerror(-r));
      x->status = 2;
      return 0;
    }
  }
  int skip = 0;
  if (f->nh && is_null[0] && have && len) {
    say(x,
        "The next patch would create the file %s,\nwhich already exists!"
        "  %s\n",
        name,
        x->forward ? "Skipping patch."
                   : "Assume -R? [n] \nApply anyway? [n] \nSkipping patch.");
    skip = 2;
  } else if (f->nh && is_null[1] && !is_null[0] && !have) {
    say(x,
        "The next patch would delete the file %s,\nwhich does not exist!"
        "  %s\n",
        name,
        x->forward ? "Skipping patch."
                   : "Assume -R? [n] \nApply anyway? [n] \nSkipping patch.");
    skip = 2;
  }
  if (skip) {
    say(x, "%zu out of %zu hunk%s ignored\n", f->nh, f->nh,
        f->nh == 1 ? "" : "s");
    x->status = x->status > 1 ? x->status : 1;
    if (data)
      vfs_release(c->vfs, data);
    return 0;
  }
  if (!x->silent) {
    if (x->outfile)
      say(x, "%s file %s (read from %s)\n", x->dry ? "checking" : "patching",
          outname, name);
    else if (newname)
      say(x, "%s file %s (renamed from %s)\n", x->dry ? "checking" : "patching",
          outname, name);
    else
      say(x, "%s file %s\n", x->dry ? "checking" : "patching", outname);
  }
  long nlines = 0;
  fline *fl = split_lines(c, data ? data : "", len, &nlines);
  buf o, rej;
  buf_init(&o, c->m);
  buf_init(&rej, c->m);
  int failed = 0, ret = 0, mismatch = 0, flipped = 0;
  long frozen = 0, in_off = 0, out_delta = 0;
  if (!fl) {
    ret = -1;
    goto done;
  }
  for (size_t hi = 0; hi < f->nh && !skip; hi++) {
    hk k;
    hk_init(&k, &f->h[hi], rev);
    long first = hk_first(&k);
    long ctx = k.pre > k.suf ? k.pre : k.suf;
    long maxfuzz = x->maxfuzz < ctx ? x->maxfuzz : ctx;
    long where = 0, fuzz = 0;
    for (;;) {
      where = locate(x, &k, fl, nlines, first + in_off, frozen, fuzz);
      if (!where && hi == 0 && !is_null[0] && !is_null[1] && !x->force &&
          !flipped) {
        hk sw;
        hk_init(&sw, &f->h[hi], !rev);
        if (locate(x, &sw, fl, nlines, hk_first(&sw), frozen, fuzz)) {
          if (x->batch && !x->forward) {
            /* -t: take the patch the other way round */
            say(x, "%s patch detected!  %s.\n",
                rev ? "Unreversed" : "Reversed (or previously applied)",
                rev ? "Ignoring -R" : "Assuming -R");
            rev = !rev;
            flipped = 1;
            mismatch = 1; /* GNU keeps the original then too */
            int t = is_null[0];
            is_null[0] = is_null[1];
            is_null[1] = t;
            hk_init(&k, &f->h[hi], rev);
            first = hk_first(&k);
            ctx = k.pre > k.suf ? k.pre : k.suf;
            maxfuzz = x->maxfuzz < ctx ? x->maxfuzz : ctx;
            continue;
          }
          if (x->forward)
            say(x, "%s patch detected!  Skipping patch.\n",
                rev ? "Unreversed" : "Reversed (or previously applied)");
          else
            say(x,
                "%s patch detected!  %s [n] \nApply anyway? [n] \n"
                "Skipping patch.\n",
                rev ? "Unreversed" : "Reversed (or previously applied)",
                rev ? "Ignore -R?" : "Assume -R?");
          skip = 1;
          break;
        }
      }
      if (where || ++fuzz > maxfuzz)
        break;
      if (budget_poll(c->bud))
        break;
    }
    if (skip)
      break;
    if (budget_poll(c->bud)) {
      ret = -2;
      goto done;
    }
    if (!where) {
      failed++;
      if (!x->silent)
        say(x, "Hunk #%zu FAILED at %ld.\n", hi + 1, first + out_delta);
      rej_hunk(&rej, f, &f->h[hi], out_delta, rev);
      continue;
    }
    /* copy the file up to the hunk, then the hunk */
    for (; frozen < where - 1 && frozen < nlines; frozen++)
      put_fline(&o, fl[frozen].p, fl[frozen].n, fl[frozen].nonl);
    for (size_t i = 0; i < k.h->nl; i++) {
      const pt_line *l = &k.h->l[i];
      char t = side_old(&k, l->t);
      if (t == '+') {
        put_fline(&o, l->p, l->n, l->nonl);
      } else {
        if (t == ' ' && frozen < nlines)
          put_fline(&o, fl[frozen].p, fl[frozen].n, fl[frozen].nonl);
        frozen++;
      }
    }
    in_off = where - first;
    mismatch |= fuzz || in_off;
    if (!x->silent && (fuzz || in_off)) {
      say(x, "Hunk #%zu succeeded at %ld", hi + 1, where + out_delta);
      if (fuzz)
        say(x, " with fuzz %ld", fuzz);
      if (in_off)
        say(x, " (offset %ld line%s)", in_off, in_off == 1 ? "" : "s");
      say(x, ".\n");
    }
    long newn = k.swapped ? k.h->old_n : k.h->new_n;
    out_delta += newn - k.pat_n;
  }
  if (skip) {
    for (size_t hi = 0; hi < f->nh; hi++)
      rej_hunk(&rej, f, &f->h[hi], 0, rev);
    failed = (int)f->nh;
  } else {
    for (; frozen < nlines; frozen++)
      put_fline(&o, fl[frozen].p, fl[frozen].n, fl[frozen].nonl);
  }
  if (o.oom || rej.oom) {
    ret = -1;
    goto done;
  }
  if (!skip && !x->dry) {
    /* like GNU, keep the original when the patch did not fit exactly */
    if ((x->backup || ((mismatch || failed) && !x->no_backup_mismatch)) &&
        have) {
      size_t nl = strlen(name);
      char *bk = arena_alloc(c->scratch, nl + 6);
      if (bk) {
        memcpy(bk, name, nl);
        memcpy(bk + nl, ".orig", 6);
      }
      if (!bk || write_out(x, bk, data, len, st.mode))
        goto trouble;
    }
    int del =
        !x->outfile && o.len == 0 && (is_null[1] || x->remove_empty) && !failed;
    if (del) {
      if (have)
        vfs_unlink(c->vfs, x->cwd, name);
    } else {
      if (!x->outfile && strchr(outname, '/')) {
        const char *dir = fu_dirname(c, outname);
        vfs_mkdir_p(c->vfs, x->cwd, dir, 0777);
      }
      if (write_out(x, outname, o.data ? o.data : "", o.len,
                    have ? st.mode : 0))
        goto trouble;
      if (newname && have)
        vfs_unlink(c->vfs, x->cwd, name);
    }
  }
  if (failed) {
    const char *rname = x->rejfile ? x->rejfile : NULL;
    buf rn;
    buf_init(&rn, c->m);
    if (!rname) {
      buf_puts(&rn, outname);
      buf_puts(&rn, ".rej");
      rname = buf_cstr(&rn);
    }
    if (skip)
      say(x, "%d out of %zu hunk%s ignored -- saving rejects to file %s\n",
          failed, f->nh, f->nh == 1 ? "" : "s", rname);
    else
      say(x, "%d out of %zu hunk%s FAILED -- saving rejects to file %s\n",
          failed, f->nh, f->nh == 1 ? "" : "s", rname);
    if (!x->dry) {
      buf r2;
      buf_init(&r2, c->m);
      if (f->rej_hdr && rev) {
        /* the two names swap places, the markers stay */
        const char *l2 = memchr(f->rej_hdr, '\n', f->rej_hdr_len);
        size_t n1 = l2 ? (size_t)(l2 - f->rej_hdr) + 1 : f->rej_hdr_len;
        const char *e = f->rej_hdr + f->rej_hdr_len;
        if (l2 && n1 >= 4 && (size_t)(e - (l2 + 1)) >= 4) {
          buf_append(&r2, f->rej_hdr, 4);
          buf_append(&r2, l2 + 5, (size_t)(e - (l2 + 5)));
          buf_append(&r2, l2 + 1, 4);
          buf_append(&r2, f->rej_hdr + 4, n1 - 4);
        } else {
          buf_append(&r2, f->rej_hdr, f->rej_hdr_len);
        }
      } else if (f->rej_hdr)
        buf_append(&r2, f->rej_hdr, f->rej_hdr_len);
      else
        buf_puts(&r2, "*** /dev/null\n--- /dev/null\n");
      buf_append(&r2, rej.data ? rej.data : "", rej.len);
      if (!r2.oom)
        vfs_write_file(c->vfs, x->cwd, rname, r2.data ? r2.data : "", r2.len,
                       0);
      buf_free(&r2);
    }
    buf_free(&rn);
    if (x->status < 1)
      x->status = 1;
  }
  goto done;
trouble:
  x->status = 2;
done:
  buf_free(&o);
  buf_free(&rej);
  if (data)
    vfs_release(c->vfs, data);
  return ret;
}

static int only_space(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strchr(" \t\r\n", p[i]))
      return 0;
  return 1;
}

/* ---- the command -------------------------------------------------------- */

static int parse_long(const char *s, long *v) {
  char *e;
  errno = 0;
  long n = strtol(s, &e, 10);
  if (!*s || *e || n < 0 || errno)
    return -1;
  *v = n;
  return 0;
}

int bi_patch(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"strip", 'p', BI_ARG_REQUIRED},
      {"reverse", 'R', BI_ARG_NONE},
      {"input", 'i', BI_ARG_REQUIRED},
      {"output", 'o', BI_ARG_REQUIRED},
      {"forward", 'N', BI_ARG_NONE},
      {"fuzz", 'F', BI_ARG_REQUIRED},
      {"backup", 'b', BI_ARG_NONE},
      {"quiet", 's', BI_ARG_NONE},
      {"silent", 's', BI_ARG_NONE},
      {"dry-run", O_DRY, BI_ARG_NONE},
      {"remove-empty-files", 'E', BI_ARG_NONE},
      {"batch", 't', BI_ARG_NONE},
      {"force", 'f', BI_ARG_NONE},
      {"no-backup-if-mismatch", O_NOBACKUP, BI_ARG_NONE},
      {"reject-file", 'r', BI_ARG_REQUIRED},
      {"directory", 'd', BI_ARG_REQUIRED},
      {"unified", 'u', BI_ARG_NONE},
      {"context", 'c', BI_ARG_NONE},
      {"normal", 'n', BI_ARG_NONE},
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", 'v', BI_ARG_NONE},
      {NULL, 0, 0}};
  px x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.strip = -1;
  x.maxfuzz = 2;
  x.cwd = c->cwd;
  const char *input = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "p:Ri:o:NF:bsEtfr:d:ucnv", opts);
  g.try_prefix = 1;
  int ch;
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'p':
      if (parse_long(g.arg, &x.strip)) {
        stream_printf(c->err, "%s: **** strip count %s is not a number\n",
                      c->argv[0], g.arg);
        return 2;
      }
      break;
    case 'R':
      x.reverse = 1;
      break;
    case 'i':
      input = g.arg;
      break;
    case 'o':
      x.outfile = g.arg;
      break;
    case 'N':
      x.forward = 1;
      break;
    case 'F':
      if (parse_long(g.arg, &x.maxfuzz)) {
        stream_printf(c->err, "%s: **** fuzz factor %s is not a number\n",
                      c->argv[0], g.arg);
        return 2;
      }
      break;
    case 'b':
      x.backup = 1;
      break;
    case 's':
      x.silent = 1;
      break;
    case O_DRY:
      x.dry = 1;
      break;
    case 'E':
      x.remove_empty = 1;
      break;
    case O_NOBACKUP:
      x.no_backup_mismatch = 1;
      break;
    case 't':
      x.batch = 1;
      break;
    case 'f':
      x.force = 1;
      break;
    case 'u':
    case 'c':
    case 'n':
      break;
    case 'r':
      x.rejfile = g.arg;
      break;
    case 'd':
      x.cwd = bi_path(c, g.arg);
      break;
    case 'v':
      /* "GNU" stays in the line: scripts look for it to pick GNU syntax */
      if (stream_printf(c->out, "%s (GNU patch compatible; vsh) 2.7.6\n",
                        c->argv[0]) < 0)
        return bi_stream_status(c->out->err);
      return 0;
    case BI_OPT_HELP:
      return bi_print_help(c);
    default:
      return 2;
    }
  }
  if (g.noperands > 2) {
    stream_printf(c->err,
                  "%s: **** Only one file can be patched at a "
                  "time\n",
                  c->argv[0]);
    return 2;
  }
  if (g.noperands >= 1)
    x.origfile = g.operands[0];
  if (g.noperands == 2)
    input = g.operands[1];
  int err = 0;
  stream *in = bi_open_read(c, input ? input : "-", &err);
  if (!in) {
    stream_printf(c->err, "%s: **** Can't open patch file %s : %s\n",
                  c->argv[0], input, bi_strerror(err));
    return 2;
  }
  buf copy;
  buf_init(&copy, c->m);
  const char *text;
  size_t len;
  if (tu_slurp(c, in, &text, &len, &copy, &err)) {
    stream_unref(in);
    buf_free(&copy);
    if (err != ECANCELED)
      stream_printf(c->err, "%s: **** read error : %s\n", c->argv[0],
                    bi_strerror(err));
    return 2;
  }
  wr_init(&x.w, c->out);
  pt_file *files = NULL;
  size_t nfiles = 0;
  long bad = 0;
  int r = pt_parse(c, text, len, x.origfile != NULL, &files, &nfiles, &bad);
  if (r == -1) {
    fatal(&x, "out of memory");
    x.status = 2;
  } else if (r == -2) {
    x.status = 2;
  } else {
    for (size_t i = 0; i < nfiles && !x.w.err; i++) {
      if (files[i].kind == PT_GIT_ONLY) {
        /* a rename or mode change without content changes */
        if (files[i].rename_from && files[i].rename_to && !x.dry) {
          const char *from = strip_name(&x, files[i].name[0]);
          const char *to = strip_name(&x, files[i].name[1]);
          if (x.reverse) {
            const char *t = from;
            from = to;
            to = t;
          }
          if (from && to) {
            if (!x.silent)
              say(&x, "patching file %s (renamed from %s)\n", to, from);
            if (vfs_rename(c->vfs, x.cwd, from, to) < 0) {
              fatal(&x, "Can't rename file %s to %s", from, to);
              x.status = 2;
            }
          }
        }
        continue;
      }
      if (patch_file(&x, &files[i]) < 0) {
        fatal(&x, "out of memory");
        x.status = 2;
        break;
      }
      if (budget_poll(c->bud)) {
        x.status = 2;
        break;
      }
    }
    if (r == -3) {
      const char *p = text, *e = text + len;
      for (long k = 1; k < bad && p < e; k++) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        p = nl ? nl + 1 : e;
      }
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);
      wr_flush(&x.w);
      stream_printf(c->err,
                    "%s: **** malformed patch at line %ld: ", c->argv[0], bad);
      stream_write(c->err, p, n);
      if (!n || p[n - 1] != '\n')
        stream_puts(c->err, "\n");
      x.status = 2;
    } else if (nfiles == 0 && r == 0 && !only_space(text, len)) {
      fatal(&x, "Only garbage was found in the patch input.");
      x.status = 2;
    }
  }
  stream_unref(in);
  buf_free(&copy);
  if (wr_flush(&x.w))
    return bi_stream_status(x.w.err);
  return x.status;
}
