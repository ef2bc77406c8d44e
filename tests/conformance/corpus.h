/*
 * corpus.h - what the conformance corpus runners (grep_corpus.c,
 * sed_corpus.c) share: reading host files, a list of strings, the tally of
 * case results, and the end of a run: the summary line, then --list or the
 * comparison of the failures with the expectations file.
 *
 * A runner calls corpus_dir() to find its corpus (exit 77 when it is
 * absent), record() once per case, and returns corpus_finish(). A file of
 * the corpus that cannot be read is counted as not run (corpus_read).
 *
 * Expectations file: lines "CASE-ID<TAB>reason"; empty lines and lines
 * starting with '#' are ignored.
 */
#ifndef VSH_TESTS_CORPUS_H
#define VSH_TESTS_CORPUS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host files ---------------------------------------------------------- */

/* The whole file as a malloc'ed, NUL-terminated string; NULL if it cannot be
 * opened. */
static inline char *read_host(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0, k;
  char *d = malloc(cap);
  while ((k = fread(d + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (cap - n < 2)
      d = realloc(d, cap *= 2);
  }
  fclose(f);
  d[n] = 0;
  if (len)
    *len = n;
  return d;
}

/* ---- a list of strings --------------------------------------------------- */

typedef struct strv {
  char **v; /* NULL-terminated once anything was pushed */
  size_t n, cap;
} strv;

/* Append x, a malloc'ed string the list now owns. */
static inline void sv_push(strv *s, char *x) {
  if (s->n + 1 >= s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = x;
  s->v[s->n] = NULL;
}

static inline int sv_has(const strv *s, const char *x) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->v[i], x) == 0)
      return 1;
  return 0;
}

static inline void sv_free(strv *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* ---- results ------------------------------------------------------------- */

static struct {
  char name[64]; /* "grep_corpus": the program, prefix of messages */
  strv passed, failed;
  int not_run;
} corpus;

static inline void record(const char *id, int ok) {
  sv_push(ok ? &corpus.passed : &corpus.failed, strdup(id));
}

/* Reads DIR/FILE; when it cannot, says so and counts one "not run". */
static inline char *corpus_read(const char *dir, const char *file,
                                size_t *len) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *text = read_host(path, len);
  if (!text) {
    fprintf(stderr, "%s: cannot read %s\n", corpus.name, path);
    corpus.not_run++;
  }
  return text;
}

/* Fills dir with $VSH_SHARED_DIR/conformance/NAME (default ../shared/...).
 * Returns 0 when the file probe is there, else prints why and returns 77:
 * the status that ctest reports as skipped. */
static inline int corpus_dir(const char *name, const char *probe, char *dir,
                             size_t size) {
  snprintf(corpus.name, sizeof corpus.name, "%s_corpus", name);
  const char *shared = getenv("VSH_SHARED_DIR");
  snprintf(dir, size, "%s/conformance/%s", shared ? shared : "../shared", name);
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, probe);
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("%s: skipped: no corpus at %s (set VSH_SHARED_DIR)\n", corpus.name,
           dir);
    return 77;
  }
  fclose(f);
  return 0;
}

/* The end of a run of the program's arguments (argc, argv): prints
 * "N passed, M failed[, K not run]"; with "--list" the failing ids, exit 0;
 * otherwise compares the failures with the expectations file argv[1] (none:
 * no case may fail) and returns 1 when a case fails that is not listed, or
 * when a listed case did not fail: it passed or, with listed_must_run, did
 * not run at all. */
static inline int corpus_finish(int argc, char **argv, int listed_must_run) {
  strv *failed = &corpus.failed, *passed = &corpus.passed;
  printf("%zu passed, %zu failed", passed->n, failed->n);
  if (corpus.not_run)
    printf(", %d not run", corpus.not_run);
  printf("\n");
  int rc = 0;
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < failed->n; i++)
      printf("%s\n", failed->v[i]);
  } else {
    strv listed = {0};
    if (argc > 1) {
      char *t = read_host(argv[1], NULL);
      if (!t) {
        fprintf(stderr, "%s: cannot read %s\n", corpus.name, argv[1]);
        rc = 1;
      }
      char *save = NULL;
      for (char *l = t ? strtok_r(t, "\n", &save) : NULL; l;
           l = strtok_r(NULL, "\n", &save)) {
        if (l[0] == '#')
          continue;
        char *tab = strchr(l, '\t');
        sv_push(&listed, strndup(l, tab ? (size_t)(tab - l) : strlen(l)));
      }
      free(t);
    }
    for (size_t i = 0; i < failed->n; i++)
      if (!sv_has(&listed, failed->v[i])) {
        printf("unexpected failure: %s\n", failed->v[i]);
        rc = 1;
      }
    for (size_t i = 0; i < listed.n; i++)
      if (!sv_has(failed, listed.v[i]) &&
          (listed_must_run || sv_has(passed, listed.v[i]))) {
        printf("listed failure did not fail (remove it from the "
               "expectations): %s\n",
               listed.v[i]);
        rc = 1;
      }
    sv_free(&listed);
  }
  sv_free(failed);
  sv_free(passed);
  return rc;
}

#endif
