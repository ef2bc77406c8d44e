/*
 * grep_corpus.c - runs the external grep conformance corpus
 * (../shared/conformance/grep, found through $VSH_SHARED_DIR) against the
 * grep builtin, through the unit-test harness.
 *
 *   gnu-bre.tests, gnu-ere.tests, gnu-spencer{1,2}.tests
 *       lines "STATUS@PATTERN@INPUT[@NOTE]": `echo INPUT | grep [-E] -e
 *       PATTERN` must exit STATUS (bre: basic, the others: extended, as GNU's
 *       own test drivers run them). Case id: FILE:LINE.
 *   busybox-grep.tests
 *       `testing "NAME" "COMMAND" "EXPECTED" "INPUT-FILE" "STDIN"`: the
 *       command is interpreted here (grep/egrep with quoting, `; echo $?`,
 *       `2>/dev/null`, `| head -n1`, `$(printf ...)`); the few setup lines
 *       of the file are reproduced by name. Case id: busybox:NAME.
 *
 * Prints "N passed, M failed" and compares the failures with the
 * expectations file (argv[1]): the run fails when a case fails that is not
 * listed, or a listed case does not fail (passes or is not run). --list
 * prints the failing ids instead. Without the corpus it prints why and exits
 * 77 (ctest: skipped). See corpus.h.
 */
#include "../unit/bi_harness.h"

#include <stdio.h>

#include "corpus.h"

/* ---- small utilities ------------------------------------------------------
 */

/* echo -e style escapes of the busybox "testing" strings. */
static char *unescape_echo(const char *s, size_t *len) {
  size_t n = strlen(s), k = 0;
  char *o = malloc(n + 1);
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      o[k++] = s[i];
      continue;
    }
    char d = s[++i];
    switch (d) {
    case 'n':
      o[k++] = '\n';
      break;
    case 't':
      o[k++] = '\t';
      break;
    case 'a':
      o[k++] = '\a';
      break;
    case '\\':
      o[k++] = '\\';
      break;
    case '0': {
      int v = 0, m = 0;
      while (m < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
        v = v * 8 + (s[++i] - '0');
        m++;
      }
      o[k++] = (char)v;
      break;
    }
    default:
      o[k++] = '\\';
      o[k++] = d;
    }
  }
  o[k] = 0;
  *len = k;
  return o;
}

/* ---- GNU tables ------------------------------------------------------------
 */

static void run_table(bh *h, const char *dir, const char *file, int ere) {
  char *text = corpus_read(dir, file, NULL);
  if (!text)
    return;
  int lineno = 0;
  for (char *line = text, *next; line && *line; line = next) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = 0;
    next = nl ? nl + 1 : NULL;
    lineno++;
    if (line[0] == '#' || !line[0])
      continue;
    char *f[4] = {0};
    int nf = 0;
    char *p = line;
    while (nf < 4) {
      f[nf++] = p;
      char *at = strchr(p, '@');
      if (!at)
        break;
      *at = 0;
      p = at + 1;
    }
    if (nf < 3)
      continue;
    int want = atoi(f[0]);
    size_t il = strlen(f[2]);
    char *in = malloc(il + 2);
    memcpy(in, f[2], il);
    in[il] = '\n';
    in[il + 1] = 0;
    char *argv[6];
    int ac = 0;
    argv[ac++] = "grep";
    if (ere)
      argv[ac++] = "-E";
    argv[ac++] = "-e";
    argv[ac++] = f[1];
    argv[ac] = NULL;
    int got = bh_runa(h, in, il + 1, ac, argv);
    free(in);
    char id[256];
    snprintf(id, sizeof id, "%s:%d", file, lineno);
    record(id, got == want);
  }
  free(text);
}

/* ---- busybox ---------------------------------------------------------------
 */

/* Shell-like words of the testing line: double and single quotes, adjacent
 * strings concatenated, backslash-newline continuation. */
static void bb_words(const char *s, strv *out) {
  size_t i = 0, n = strlen(s);
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                     (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')))
      i += s[i] == '\\' ? 2 : 1;
    if (i >= n)
      break;
    size_t cap = 64, k = 0;
    char *w = malloc(cap);
    while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') {
      if (k + 4 >= cap)
        w = realloc(w, cap *= 2);
      if (s[i] == '"') {
        i++;
        while (i < n && s[i] != '"') {
          if (k + 4 >= cap)
            w = realloc(w, cap *= 2);
          if (s[i] == '\\' && i + 1 < n &&
              (s[i + 1] == '"' || s[i + 1] == '$' || s[i + 1] == '\\' ||
               s[i + 1] == '`')) {
            w[k++] = s[i + 1];
            i += 2;
          } else if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
            i += 2;
          } else if (s[i] == '$' && i + 1 < n && s[i + 1] == '0') {
            /* the test script's own name, expanded by the outer quotes */
            while (k + 24 >= cap)
              w = realloc(w, cap *= 2);
            memcpy(w + k, "busybox-grep.tests", 18);
            k += 18;
            i += 2;
          } else {
            w[k++] = s[i++];
          }
        }
        i++;
      } else if (s[i] == '\'') {
        i++;
        while (i < n && s[i] != '\'') {
          if (k + 4 >= cap)
            w = realloc(w, cap *= 2);
          w[k++] = s[i++];
        }
        i++;
      } else {
        w[k++] = s[i++];
      }
    }
    w[k] = 0;
    sv_push(out, w);
  }
}

/* Split a command into words (quotes, $(printf "..."), $0), keeping the
 * operators ; | && > as words of their own. Returns -1 if it uses shell
 * features this runner does not interpret. */
static int cmd_words(const char *s, strv *out) {
  size_t i = 0, n = strlen(s);
  while (i < n) {
    while (i < n && s[i] == ' ')
      i++;
    if (i >= n)
      break;
    if (s[i] == ';' || s[i] == '|') {
      sv_push(out, strndup(s + i, 1));
      i++;
      continue;
    }
    if (s[i] == '&' && i + 1 < n && s[i + 1] == '&') {
      sv_push(out, strdup("&&"));
      i += 2;
      continue;
    }
    size_t cap = 64, k = 0;
    char *w = malloc(cap);
    while (i < n && s[i] != ' ' && s[i] != ';' && s[i] != '|') {
      if (k + 8 >= cap)
        w = realloc(w, cap *= 2);
      if (s[i] == '\'') {
        i++;
        while (i < n && s[i] != '\'') {
          if (k + 8 >= cap)
            w = realloc(w, cap *= 2);
          w[k++] = s[i++];
        }
        i++;
      } else if (s[i] == '"') {
        i++;
        while (i < n && s[i] != '"') {
          if (k + 8 >= cap)
            w = realloc(w, cap *= 2);
          if (strncmp(s + i, "$(printf \"", 10) == 0) {
            /* $(printf "X"): X with \n decoded, trailing newlines cut */
            i += 10;
            size_t st = k;
            while (i < n && s[i] != '"') {
              if (k + 8 >= cap)
                w = realloc(w, cap *= 2);
              if (s[i] == '\\' && s[i + 1] == 'n') {
                w[k++] = '\n';
                i += 2;
              } else {
                w[k++] = s[i++];
              }
            }
            i += 2; /* closing quote and ')' */
            while (k > st && w[k - 1] == '\n')
              k--;
            continue;
          }
          if (s[i] == '\\' && i + 1 < n &&
              (s[i + 1] == '"' || s[i + 1] == '$' || s[i + 1] == '\\'))
            i++;
          w[k++] = s[i++];
        }
        i++;
      } else if (s[i] == '$' && i + 1 < n && s[i + 1] == '0') {
        memcpy(w + k, "busybox-grep.tests", 18);
        k += 18;
        i += 2;
      } else if (s[i] == '$' && i + 1 < n && s[i + 1] == '(') {
        free(w);
        return -1;
      } else {
        w[k++] = s[i++];
      }
    }
    w[k] = 0;
    sv_push(out, w);
  }
  return 0;
}

static void put(buf *b, const char *s) {
  buf_puts(b, s);
}

/* Interpret the command; the result (stdout) is appended to res. */
static int bb_exec(bh *h, strv *w, const char *in, size_t inlen, buf *res) {
  int last = 0;
  size_t i = 0;
  int skip_next = 0;
  while (i < w->n) {
    size_t j = i;
    while (j < w->n && strcmp(w->v[j], ";") && strcmp(w->v[j], "|") &&
           strcmp(w->v[j], "&&"))
      j++;
    /* simple command w[i..j) */
    char *argv[64];
    int ac = 0, drop_out = 0;
    for (size_t k = i; k < j && ac < 63; k++) {
      const char *a = w->v[k];
      if (!strcmp(a, "2>/dev/null") || !strcmp(a, "2>&1"))
        continue;
      if (!strcmp(a, "2>") || !strcmp(a, ">")) {
        drop_out |= a[0] == '>';
        k++;
        continue;
      }
      if (!strcmp(a, ">/dev/null")) {
        drop_out = 1;
        continue;
      }
      argv[ac++] = (char *)a;
    }
    argv[ac] = NULL;
    const char *op = j < w->n ? w->v[j] : "";
    if (skip_next) {
      skip_next = 0;
    } else if (ac == 0) {
    } else if (!strcmp(argv[0], "grep") || !strcmp(argv[0], "egrep")) {
      last = bh_runa(h, in, inlen, ac, argv);
      if (!strcmp(op, "|")) {
        /* only "| head -n1" is used */
        const char *o = bh_out(h);
        const char *nl = strchr(o, '\n');
        if (j + 1 < w->n && !strcmp(w->v[j + 1], "head")) {
          buf_append(res, o, nl ? (size_t)(nl - o) + 1 : strlen(o));
          while (j < w->n && strcmp(w->v[j], ";"))
            j++;
        } else {
          return -1;
        }
      } else if (!drop_out) {
        buf_append(res, h->out.data ? h->out.data : "", h->out.len);
      }
    } else if (!strcmp(argv[0], "echo") && ac == 2 && !strcmp(argv[1], "$?")) {
      buf_printf(res, "%d\n", last);
    } else if (!strcmp(argv[0], "[") && ac == 5 && !strcmp(argv[1], "$?") &&
               !strcmp(argv[2], "-ne")) {
      last = last != atoi(argv[3]) ? 0 : 1;
      if (!strcmp(op, "&&") && last)
        skip_next = 1;
    } else if (!strcmp(argv[0], "echo") && ac == 2) {
      put(res, argv[1]);
      put(res, "\n");
      last = 0;
    } else {
      return -1;
    }
    i = j + 1;
  }
  return 0;
}

static void run_busybox(bh *h, const char *dir) {
  size_t slen;
  char *text = corpus_read(dir, "busybox-grep.tests", &slen);
  if (!text)
    return;
  /* $0 is the test script: grep finds "grep" in it */
  bh_writen(h, "busybox-grep.tests", text, slen);
  vfs_mkdir_p(h->vfs, h->cwd, "grep.testdir/foo", 0755);
  bh_write(h, "grep.testdir/foo/file", "bar\n");
  vfs_symlink(h->vfs, h->cwd, "foo", "grep.testdir/symfoo");
  char *p = text;
  while ((p = strstr(p, "\ntesting ")) != NULL) {
    p += 9;
    /* the call runs to the first line not ending in a backslash */
    char *e = p;
    for (;;) {
      char *nl = strchr(e, '\n');
      if (!nl) {
        e = p + strlen(p);
        break;
      }
      /* a newline inside quotes continues too (multi-line strings) */
      int q = 0;
      for (char *t = p; t < nl; t++) {
        if (*t == '\\' && t + 1 < nl) {
          t++;
          continue;
        }
        if (*t == '"')
          q = !q;
      }
      if (!q && (nl == p || nl[-1] != '\\')) {
        e = nl;
        break;
      }
      e = nl + 1;
    }
    char *call = strndup(p, (size_t)(e - p));
    strv a = {0};
    bb_words(call, &a);
    if (a.n >= 5) {
      size_t el, il, sl;
      char *exp = unescape_echo(a.v[2], &el);
      char *inp = unescape_echo(a.v[3], &il);
      char *sin = unescape_echo(a.v[4], &sl);
      bh_writen(h, "input", inp, il);
      if (strstr(a.v[0], "two files"))
        bh_write(h, "empty", "");
      strv w = {0};
      buf res;
      buf_init(&res, h->m);
      char id[300];
      snprintf(id, sizeof id, "busybox:%s", a.v[0]);
      if (cmd_words(a.v[1], &w) < 0 || bb_exec(h, &w, sin, sl, &res) < 0) {
        fprintf(stderr, "grep_corpus: %s: command not interpreted: %s\n", id,
                a.v[1]);
        corpus.not_run++;
      } else {
        record(id,
               res.len == el && memcmp(res.data ? res.data : "", exp, el) == 0);
      }
      buf_free(&res);
      sv_free(&w);
      free(exp);
      free(inp);
      free(sin);
    }
    sv_free(&a);
    free(call);
    p = e;
  }
  free(text);
}

/* ---- main -------------------------------------------------------------------
 */

int main(int argc, char **argv) {
  char dir[4096];
  if (corpus_dir("grep", "gnu-bre.tests", dir, sizeof dir))
    return 77;
  bh *h = bh_new();
  run_table(h, dir, "gnu-bre.tests", 0);
  run_table(h, dir, "gnu-ere.tests", 1);
  run_table(h, dir, "gnu-spencer1.tests", 1);
  run_table(h, dir, "gnu-spencer2.tests", 1);
  run_busybox(h, dir);
  bh_free(h);
  return corpus_finish(argc, argv, 1);
}
