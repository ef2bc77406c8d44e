/*
 * sed_corpus.c - runs the external sed conformance corpus
 * (../shared/conformance/sed, found through $VSH_SHARED_DIR) against vsh's
 * sed, through the public API (a whole sandbox: the BusyBox file is shell).
 *
 *   busybox-sed.tests
 *       the file is run as a script inside the sandbox, with `testing`
 *       defined as BusyBox's testing.sh does (expected output, "input" file,
 *       stdin, `eval` of the command) printing PASS/FAIL per case; the other
 *       lines of the file (setup of extra files) run as they are.
 *       Case id: busybox:NAME.
 *   pythonsed-unit.suite, pythonsed-chang.suite
 *       blocks "---" TITLE "---" SCRIPT "---" INPUT "---" OUTPUT "---"; an
 *       empty input or output repeats the previous case's; a first script
 *       line "#r" asks for extended regexes (-E), "#n" for -n, "#nr" both;
 * output "???" means the script must be refused (non-zero status). Case id:
 * FILE:LINE (line of the title).
 *
 * Prints "N passed, M failed" and compares the failures with the
 * expectations file (argv[1], lines "CASE-ID<TAB>reason"): the run fails
 * when a case fails that is not listed, or a listed case passes. --list
 * prints the failing ids instead. Without the corpus it exits 77 (ctest:
 * skipped). See corpus.h.
 */
#include "corpus.h"

#include "vsh.h"

/* ---- BusyBox ---------------------------------------------------------------
 */

static const char bb_preamble[] =
    "ECHO=echo\n"
    "SKIP_KNOWN_BUGS=\n"
    "FAILCOUNT=0\n"
    "optional() { :; }\n"
    "testing() {\n"
    "  printf '%b' \"$3\" > expected\n"
    "  printf '%b' \"$4\" > input\n"
    "  printf '%b' \"$5\" | eval \"$2\" > actual 2>/dev/null\n"
    "  if [ \"$(cat actual; echo x)\" = \"$(cat expected; echo x)\" ]; then\n"
    "    printf 'PASS: %s\\n' \"$1\"\n"
    "  else\n"
    "    printf 'FAIL: %s\\n' \"$1\"\n"
    "  fi\n"
    "  rm -f expected actual input\n"
    "}\n"
    "mkdir -p /tmp/bb && cd /tmp/bb\n";

static void run_busybox(vsh_sandbox *sb, const char *dir) {
  size_t n;
  char *text = corpus_read(dir, "busybox-sed.tests", &n);
  if (!text)
    return;
  /* the file sources ./testing.sh: our preamble takes its place */
  size_t cap = n + sizeof bb_preamble + 16;
  char *script = malloc(cap);
  script[0] = 0;
  char *p = text;
  while (*p) {
    char *e = strchr(p, '\n');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == 14 && strncmp(p, ". ./testing.sh", 14) == 0)
      strcat(script, bb_preamble);
    else if (l >= 4 && strncmp(p, "exit", 4) == 0)
      ;
    else
      strncat(script, p, l + (e ? 1 : 0));
    p += l + (e ? 1 : 0);
  }
  vsh_result r;
  memset(&r, 0, sizeof r);
  vsh_exec(sb, script, NULL, &r);
  for (char *q = r.out; q && *q;) {
    char *e = strchr(q, '\n');
    size_t l = e ? (size_t)(e - q) : strlen(q);
    int ok = l > 6 && strncmp(q, "PASS: ", 6) == 0;
    int bad = l > 6 && strncmp(q, "FAIL: ", 6) == 0;
    if (ok || bad) {
      char id[1024];
      snprintf(id, sizeof id, "busybox:%.*s", (int)(l - 6), q + 6);
      record(id, ok);
    }
    q += l + (e ? 1 : 0);
  }
  vsh_result_free(&r);
  free(script);
  free(text);
}

/* ---- PythonSed ------------------------------------------------------------
 */

/* The lines of s up to the next "---" line, from *pos; NULL at the end. */
static char *section(char **pos, int *lineno) {
  char *p = *pos;
  if (!p || !*p)
    return NULL;
  char *start = p;
  for (;;) {
    char *e = strchr(p, '\n');
    if (!e)
      e = p + strlen(p);
    if (e - p == 3 && strncmp(p, "---", 3) == 0) {
      char *r = strndup(start, (size_t)(p - start));
      *pos = *e ? e + 1 : e;
      (*lineno)++;
      return r;
    }
    if (!*e) {
      *pos = e;
      return NULL;
    }
    p = e + 1;
    (*lineno)++;
  }
}

static void run_pysed(vsh_sandbox *sb, const char *dir, const char *name) {
  char *text = corpus_read(dir, name, NULL);
  if (!text)
    return;
  char *pos = text;
  int lineno = 1;
  char *lastin = strdup(""), *lastout = strdup("");
  /* skip to the first "---" */
  char *pre = section(&pos, &lineno);
  free(pre);
  for (;;) {
    int title_line = lineno;
    char *title = section(&pos, &lineno);
    if (!title)
      break;
    char *script = section(&pos, &lineno);
    char *input = script ? section(&pos, &lineno) : NULL;
    char *output = input ? section(&pos, &lineno) : NULL;
    char *gap = output ? section(&pos, &lineno) : NULL; /* blank + "---" */
    free(gap);
    if (!output) {
      free(title);
      free(script);
      free(input);
      break;
    }
    if (*input) {
      free(lastin);
      lastin = strdup(input);
    }
    if (*output) {
      free(lastout);
      lastout = strdup(output);
    }
    /* "#r", "#nr", "#rn": PythonSed's flags line (GNU reads only "#n") */
    int ere = 0, quiet = 0;
    if (script[0] == '#' && strspn(script + 1, "nr") > 0 &&
        script[1 + strspn(script + 1, "nr")] == '\n') {
      size_t k = strspn(script + 1, "nr");
      ere = memchr(script + 1, 'r', k) != NULL;
      quiet = memchr(script + 1, 'n', k) != NULL;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd,
             "printf '%%s' \"$1\" > /tmp/s.sed; sed %s%s-f /tmp/s.sed",
             ere ? "-E " : "", quiet ? "-n " : "");
    const char *args[] = {script};
    vsh_exec_opts o;
    memset(&o, 0, sizeof o);
    o.stdin_data = lastin;
    o.stdin_len = strlen(lastin);
    o.args = args;
    o.nargs = 1;
    vsh_result r;
    memset(&r, 0, sizeof r);
    vsh_exec(sb, cmd, &o, &r);
    int ok;
    if (strcmp(lastout, "???\n") == 0)
      ok = r.status != 0;
    else
      ok = r.status == 0 && r.out && strcmp(r.out, lastout) == 0;
    char id[512];
    snprintf(id, sizeof id, "%s:%d", name, title_line);
    record(id, ok);
    vsh_result_free(&r);
    free(title);
    free(script);
    free(input);
    free(output);
  }
  free(lastin);
  free(lastout);
  free(text);
}

int main(int argc, char **argv) {
  char dir[4096];
  if (corpus_dir("sed", "busybox-sed.tests", dir, sizeof dir))
    return 77;
  vsh_config cfg;
  vsh_config_init(&cfg);
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK) {
    fprintf(stderr, "cannot open a sandbox\n");
    return 1;
  }
  run_busybox(sb, dir);
  run_pysed(sb, dir, "pythonsed-unit.suite");
  run_pysed(sb, dir, "pythonsed-chang.suite");
  vsh_close(sb);
  return corpus_finish(argc, argv, 0);
}
