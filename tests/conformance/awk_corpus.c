/*
 * awk_corpus.c - runs the one-true-awk test programs of the external awk
 * corpus (../shared/conformance/awk, found through $VSH_SHARED_DIR) through
 * vsh's awk and compares each result with GNU Awk's.
 *
 * The corpus has no expected outputs (its REGRESS script compares two awks
 * run side by side), so what gawk 5.2.1 printed for each program is kept in
 * awk-gawk-outputs.txt beside this file: exit status, length and FNV-1a 64
 * digest of stdout (the outputs themselves are 1.7 MB). As in the corpus's
 * Compare.t and Compare.p, a t.* program reads test.data and a p.* program
 * reads test.countries twice; the corpus directory is mounted read-only
 * (copy-on-write) at /c, the working directory. Case id: the program's name.
 *
 * Prints "N passed, M failed" and compares the failures with the
 * expectations file (argv[1], lines "CASE-ID<TAB>reason"): the run fails
 * when a case fails that is not listed, or a listed case passes. --list
 * prints the failing ids instead. Without the corpus it exits 77 (ctest:
 * skipped). See corpus.h.
 */
#include "corpus.h"

#include <inttypes.h>

#include "vsh.h"

static uint64_t fnv1a(const char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* The recorded file sits beside the expectations file (argv[1]). */
static char *recorded_path(const char *expect) {
  const char *slash = strrchr(expect, '/');
  size_t dl = slash ? (size_t)(slash - expect) + 1 : 0;
  static const char name[] = "awk-gawk-outputs.txt";
  char *p = malloc(dl + sizeof name);
  memcpy(p, expect, dl);
  memcpy(p + dl, name, sizeof name);
  return p;
}

int main(int argc, char **argv) {
  char dir[4096];
  if (corpus_dir("awk", "test.data", dir, sizeof dir))
    return 77;
  if (argc < 2) {
    fprintf(stderr, "usage: awk_corpus EXPECTED-FAILURES [--list]\n");
    return 2;
  }
  int list = argc > 2 && strcmp(argv[2], "--list") == 0;
  char *rp = recorded_path(argv[1]);
  char *rec = read_host(rp, NULL);
  if (!rec) {
    fprintf(stderr, "awk_corpus: cannot read %s\n", rp);
    free(rp);
    return 1;
  }
  free(rp);
  vsh_mount mnt = {dir, "/c"};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.mounts = &mnt;
  cfg.nmounts = 1;
  cfg.cwd = "/c";
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK) {
    fprintf(stderr, "cannot open a sandbox\n");
    free(rec);
    return 1;
  }
  /* Programs such as p.47 and t.redir1 write files in the working
     directory. The host copy may be read-only (mode 555), and a mount keeps
     the host's modes, so the copy-on-write view is made writable first;
     the host directory itself is never written. */
  vsh_result cr;
  memset(&cr, 0, sizeof cr);
  if (vsh_exec(sb, "chmod u+w /c", NULL, &cr) != VSH_OK || cr.status != 0) {
    fprintf(stderr, "awk_corpus: cannot make /c writable\n");
    vsh_result_free(&cr);
    vsh_close(sb);
    free(rec);
    return 1;
  }
  vsh_result_free(&cr);
  char *save = NULL;
  for (char *l = strtok_r(rec, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    if (l[0] == '#' || !l[0])
      continue;
    char id[256];
    int st;
    size_t len;
    uint64_t h;
    if (sscanf(l, "%255[^\t]\t%d\t%zu\t%" SCNx64, id, &st, &len, &h) != 4) {
      fprintf(stderr, "awk_corpus: bad line: %s\n", l);
      corpus.not_run++;
      continue;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "awk -f '%s' %s", id,
             id[0] == 'p' ? "test.countries test.countries" : "test.data");
    vsh_exec_opts o;
    memset(&o, 0, sizeof o);
    o.timeout_ms = 20000;
    vsh_result r;
    memset(&r, 0, sizeof r);
    vsh_exec(sb, cmd, &o, &r);
    size_t n = r.out ? r.out_len : 0;
    int ok = r.status == st && n == len && fnv1a(r.out ? r.out : "", n) == h;
    record(id, ok);
    vsh_result_free(&r);
  }
  free(rec);
  vsh_close(sb);
  char *fargv[3] = {argv[0], list ? "--list" : argv[1], NULL};
  return corpus_finish(2, fargv, 1);
}
