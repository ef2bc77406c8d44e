/*
 * runner.c - spec test runner: the project's own cases (tests/spec/ files
 * in the Oils spec format) and, when ../shared/conformance/oils exists, the
 * Oils corpus scored against bash 5.2's recorded output.
 *
 *   vsh-spec FILE.test.sh...           run own cases; exit 1 on any failure
 *   vsh-spec --corpus DIR --expected F run the corpus; compare the failures
 *                                      with the list in F
 *   options: --filter SUBSTR   only cases whose id or name contains it
 *            --write-expected  rewrite F from this run (keeps old reasons)
 *            -v                print each failure's difference
 *
 * Every case runs like `bash -c CODE` in a fresh sandbox seeded from one
 * template snapshot: cwd and HOME /tmp/spec-case, the corpus testdata
 * layered read-only at /tmp/spec-case/spec/testdata, the environment of
 * conformance/README.md, and the helper commands the cases call (argv.py,
 * printenv.py, stdout_stderr.py, read_from_fd.py) registered as host
 * commands of the sandbox.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vsh.h"

/* ---- small utilities ---------------------------------------------------- */

typedef struct str {
  char *p;
  size_t n, cap;
} str;

static void str_add(str *s, const char *p, size_t n) {
  if (s->n + n + 1 > s->cap) {
    size_t c = s->cap ? s->cap * 2 : 256;
    while (c < s->n + n + 1)
      c *= 2;
    s->p = realloc(s->p, c);
    if (!s->p)
      abort();
    s->cap = c;
  }
  memcpy(s->p + s->n, p, n);
  s->n += n;
  s->p[s->n] = 0;
}
static void str_addc(str *s, char c) { str_add(s, &c, 1); }
static void str_adds(str *s, const char *p) { str_add(s, p, strlen(p)); }

static char *read_host_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  str s = {0};
  char tmp[65536];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
    str_add(&s, tmp, k);
  fclose(f);
  if (!s.p)
    str_add(&s, "", 0);
  if (len)
    *len = s.n;
  return s.p;
}

/* ---- helper commands the cases call -------------------------------------- */

/* argv.py: the arguments as a Python 2 list of byte strings. */
static void py_repr(str *o, const char *a) {
  int has_sq = strchr(a, '\'') != NULL, has_dq = strchr(a, '"') != NULL;
  char q = has_sq && !has_dq ? '"' : '\'';
  str_addc(o, q);
  for (const unsigned char *p = (const unsigned char *)a; *p; p++) {
    char tmp[8];
    if (*p == '\\')
      str_adds(o, "\\\\");
    else if (*p == '\n')
      str_adds(o, "\\n");
    else if (*p == '\r')
      str_adds(o, "\\r");
    else if (*p == '\t')
      str_adds(o, "\\t");
    else if (*p == (unsigned char)q)
      str_add(o, q == '\'' ? "\\'" : "\\\"", 2);
    else if (*p < 0x20 || *p >= 0x7f) {
      snprintf(tmp, sizeof tmp, "\\x%02x", *p);
      str_adds(o, tmp);
    } else
      str_addc(o, (char)*p);
  }
  str_addc(o, q);
}

static int cmd_argv_py(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  str o = {0};
  str_addc(&o, '[');
  for (int i = 1; i < argc; i++) {
    if (i > 1)
      str_adds(&o, ", ");
    py_repr(&o, argv[i]);
  }
  str_adds(&o, "]\n");
  int r = vsh_cmd_write(c, 1, o.p, o.n);
  free(o.p);
  return r ? 141 : 0;
}

static int cmd_printenv_py(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  char **env = vsh_cmd_environ(c);
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    size_t nl = strlen(argv[i]);
    for (char **e = env; e && *e; e++)
      if (strncmp(*e, argv[i], nl) == 0 && (*e)[nl] == '=')
        v = *e + nl + 1;
    if (!v)
      v = "None";
    if (vsh_cmd_write(c, 1, v, strlen(v)) || vsh_cmd_write(c, 1, "\n", 1))
      return 141;
  }
  return 0;
}

static int cmd_stdout_stderr_py(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  const char *out = argc > 1 ? argv[1] : "STDOUT";
  const char *err = argc > 2 ? argv[2] : "STDERR";
  int status = argc > 3 ? atoi(argv[3]) : 0;
  vsh_cmd_write(c, 1, out, strlen(out));
  vsh_cmd_write(c, 1, "\n", 1);
  vsh_cmd_write(c, 2, err, strlen(err));
  vsh_cmd_write(c, 2, "\n", 1);
  return status;
}

static int cmd_read_from_fd_py(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  /* Host commands see only stdin; other descriptors read as closed. */
  for (int i = 1; i < argc; i++) {
    char head[64];
    int n = snprintf(head, sizeof head, "%s: ", argv[i]);
    vsh_cmd_write(c, 1, head, (size_t)n);
    if (strcmp(argv[i], "0") == 0) {
      char buf[1024];
      long k = vsh_cmd_read(c, buf, sizeof buf);
      if (k > 0)
        vsh_cmd_write(c, 1, buf, (size_t)k);
    }
    vsh_cmd_write(c, 1, "\n", 1);
  }
  return 0;
}

/* ---- running one case ----------------------------------------------------- */

typedef struct runner {
  vsh_snapshot *tmpl;
  const char *testdata; /* host dir or NULL */
  int verbose;
} runner;

static const char *const case_env[] = {
    "PATH=/tmp/spec-bin:/usr/bin:/bin",
    "HOME=/tmp/spec-case",
    "TMP=/tmp/spec-case",
    "SH=bash",
    "LANG=C.UTF-8",
    "TZ=UTC",
    "USER=user",
    NULL};

static vsh_sandbox *case_sandbox(runner *r) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = "/tmp/spec-case";
  cfg.limits.timeout_ms = 5000;
  cfg.limits.max_memory = (uint64_t)512 << 20;
  vsh_mount m = {r->testdata, "/tmp/spec-case/spec/testdata"};
  if (r->testdata) {
    cfg.mounts = &m;
    cfg.nmounts = 1;
  }
  vsh_sandbox *sb = NULL;
  vsh_status st = r->tmpl ? vsh_open_from(r->tmpl, &cfg, &sb)
                          : vsh_open(&cfg, &sb);
  if (st != VSH_OK || !sb)
    return NULL;
  vsh_register_command(sb, "argv.py", cmd_argv_py, NULL);
  vsh_register_command(sb, "printenv.py", cmd_printenv_py, NULL);
  vsh_register_command(sb, "stdout_stderr.py", cmd_stdout_stderr_py, NULL);
  vsh_register_command(sb, "read_from_fd.py", cmd_read_from_fd_py, NULL);
  return sb;
}

static int run_case(runner *r, const char *code, str *out, int *status) {
  vsh_sandbox *sb = case_sandbox(r);
  if (!sb)
    return -1;
  vsh_exec_opts o = {0};
  o.cwd = "/tmp/spec-case";
  o.env = case_env;
  o.flags = VSH_EXEC_REPLACE_ENV;
  o.timeout_ms = 5000;
  vsh_result res = {0};
  vsh_status st = vsh_exec(sb, code, &o, &res);
  out->n = 0;
  str_add(out, res.out ? res.out : "", res.out_len);
  *status = res.status;
  vsh_result_free(&res);
  vsh_close(sb);
  return st == VSH_OK || st == VSH_ABORT ? 0 : -1;
}

/* ---- Oils .test.sh format ------------------------------------------------- */

typedef struct spec_case {
  char *name;
  str code;
  str stdout_;
  int has_stdout;
  int status;
  int line;
} spec_case;

/* Does "## OK bash/dash STDOUT:" name bash? p points after "## OK ". */
static int names_bash(const char *p, const char **rest) {
  const char *sp = strchr(p, ' ');
  if (!sp)
    return 0;
  *rest = sp + 1;
  size_t n = (size_t)(sp - p);
  const char *q = p;
  while (q < p + n) {
    const char *sl = memchr(q, '/', (size_t)(p + n - q));
    size_t k = sl ? (size_t)(sl - q) : (size_t)(p + n - q);
    if (k == 4 && memcmp(q, "bash", 4) == 0)
      return 1;
    q += k + 1;
  }
  return 0;
}

/* Parse a JSON string literal (stdout-json) into o. */
static const char *json_string(const char *p, str *o);

/* Apply one "## key: value" or "## KEY:" block line; blocks continue until
 * "## END" or the next "## " line. Returns 1 when a block starts. */
static int apply_meta(spec_case *c, const char *key, const char *val,
                      int *in_block) {
  if (strcmp(key, "stdout") == 0) {
    c->stdout_.n = 0;
    str_adds(&c->stdout_, val);
    str_addc(&c->stdout_, '\n');
    c->has_stdout = 1;
  } else if (strcmp(key, "STDOUT") == 0) {
    c->stdout_.n = 0;
    str_add(&c->stdout_, "", 0);
    c->has_stdout = 1;
    *in_block = 1;
    return 1;
  } else if (strcmp(key, "stdout-json") == 0) {
    c->stdout_.n = 0;
    str_add(&c->stdout_, "", 0);
    json_string(val, &c->stdout_);
    c->has_stdout = 1;
  } else if (strcmp(key, "status") == 0) {
    c->status = atoi(val);
  }
  return 0;
}

static int parse_spec_file(const char *path, spec_case **out, size_t *n) {
  size_t len;
  char *text = read_host_file(path, &len);
  if (!text)
    return -1;
  spec_case *cases = NULL;
  size_t nc = 0;
  spec_case *cur = NULL;
  int in_block = 0, block_is_ours = 1;
  int lineno = 0;
  char *next = text;
  while (*next) {
    char *line = next;
    char *nl = strchr(line, '\n');
    if (nl) {
      *nl = 0;
      next = nl + 1;
    } else {
      next = line + strlen(line);
    }
    lineno++;
    if (strncmp(line, "#### ", 5) == 0) {
      cases = realloc(cases, (nc + 1) * sizeof *cases);
      cur = &cases[nc++];
      memset(cur, 0, sizeof *cur);
      cur->name = strdup(line + 5);
      cur->line = lineno;
      in_block = 0;
      continue;
    }
    if (!cur)
      continue;
    if (strncmp(line, "## ", 3) == 0) {
      in_block = 0;
      const char *p = line + 3;
      if (strcmp(p, "END") == 0)
        continue;
      int variant = 0;
      const char *rest = p;
      if (strncmp(p, "OK ", 3) == 0 || strncmp(p, "BUG ", 4) == 0 ||
          strncmp(p, "N-I ", 4) == 0) {
        variant = 1;
        p = strchr(p, ' ') + 1;
        if (!names_bash(p, &rest)) {
          block_is_ours = 0;
          /* A block of another shell still swallows its lines. */
          const char *colon = strchr(p, ':');
          if (colon && colon[1] == 0)
            in_block = 1;
          continue;
        }
      }
      (void)variant;
      char key[64];
      const char *colon = strchr(rest, ':');
      if (!colon)
        continue;
      size_t kl = (size_t)(colon - rest);
      if (kl >= sizeof key)
        continue;
      memcpy(key, rest, kl);
      key[kl] = 0;
      const char *val = colon[1] == ' ' ? colon + 2 : colon + 1;
      block_is_ours = 1;
      apply_meta(cur, key, val, &in_block);
      continue;
    }
    if (in_block) {
      if (block_is_ours) {
        str_adds(&cur->stdout_, line);
        str_addc(&cur->stdout_, '\n');
      }
      continue;
    }
    str_adds(&cur->code, line);
    str_addc(&cur->code, '\n');
  }
  free(text);
  *out = cases;
  *n = nc;
  return 0;
}

static void show_diff(const char *id, const char *want, size_t wn,
                      int wstatus, const str *got, int gstatus) {
  printf("--- %s\n", id);
  if (gstatus != wstatus)
    printf("    status: want %d, got %d\n", wstatus, gstatus);
  if (got->n != wn || memcmp(got->p, want, wn) != 0) {
    printf("    want stdout: ");
    fwrite(want, 1, wn > 400 ? 400 : wn, stdout);
    printf("\n    got stdout:  ");
    fwrite(got->p, 1, got->n > 400 ? 400 : got->n, stdout);
    printf("\n");
  }
}

static int run_spec_files(runner *r, int argc, char **files,
                          const char *filter) {
  int pass = 0, fail = 0;
  str out = {0};
  for (int i = 0; i < argc; i++) {
    spec_case *cases;
    size_t n;
    if (parse_spec_file(files[i], &cases, &n)) {
      fprintf(stderr, "vsh-spec: cannot read %s\n", files[i]);
      return 2;
    }
    const char *base = strrchr(files[i], '/');
    base = base ? base + 1 : files[i];
    for (size_t k = 0; k < n; k++) {
      spec_case *c = &cases[k];
      char id[512];
      snprintf(id, sizeof id, "%s#%zu %s", base, k, c->name);
      if (!filter || strstr(id, filter)) {
        int status;
        str_add(&c->code, "", 0);
        str_add(&c->stdout_, "", 0);
        int rc = run_case(r, c->code.p, &out, &status);
        int ok = rc == 0 && status == c->status &&
                 (!c->has_stdout ||
                  (out.n == c->stdout_.n &&
                   memcmp(out.p, c->stdout_.p, out.n) == 0));
        if (ok) {
          pass++;
        } else {
          fail++;
          show_diff(id, c->stdout_.p, c->stdout_.n, c->status, &out, status);
        }
      }
      free(c->name);
      free(c->code.p);
      free(c->stdout_.p);
    }
    free(cases);
  }
  free(out.p);
  printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}

/* ---- the Oils corpus (JSON lines) ----------------------------------------- */

static void put_utf8(str *o, unsigned cp) {
  char b[4];
  if (cp < 0x80) {
    str_addc(o, (char)cp);
  } else if (cp < 0x800) {
    b[0] = (char)(0xc0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3f));
    str_add(o, b, 2);
  } else if (cp < 0x10000) {
    b[0] = (char)(0xe0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    b[2] = (char)(0x80 | (cp & 0x3f));
    str_add(o, b, 3);
  } else {
    b[0] = (char)(0xf0 | (cp >> 18));
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    b[3] = (char)(0x80 | (cp & 0x3f));
    str_add(o, b, 4);
  }
}

static const char *json_string(const char *p, str *o) {
  while (*p && *p != '"')
    p++;
  if (*p != '"')
    return p;
  p++;
  while (*p && *p != '"') {
    if (*p != '\\') {
      str_addc(o, *p++);
      continue;
    }
    p++;
    switch (*p) {
    case 'n':
      str_addc(o, '\n');
      break;
    case 't':
      str_addc(o, '\t');
      break;
    case 'r':
      str_addc(o, '\r');
      break;
    case 'b':
      str_addc(o, '\b');
      break;
    case 'f':
      str_addc(o, '\f');
      break;
    case 'u': {
      unsigned cp = (unsigned)strtoul((char[]){p[1], p[2], p[3], p[4], 0},
                                      NULL, 16);
      p += 4;
      if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' && p[2] == 'u') {
        unsigned lo = (unsigned)strtoul(
            (char[]){p[3], p[4], p[5], p[6], 0}, NULL, 16);
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          p += 6;
        }
      }
      put_utf8(o, cp);
      break;
    }
    default:
      str_addc(o, *p);
    }
    if (*p)
      p++;
  }
  return *p ? p + 1 : p;
}

/* Find "key": in a JSON object line and return a pointer to the value. */
static const char *json_field(const char *line, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = line;
  /* Keys come before values that may contain the pattern text; scan
   * strings properly. */
  while ((p = strstr(p, pat))) {
    /* Check that this occurrence is at the object level: the character
     * before must be '{' or ' ' after a ','. */
    if (p > line && (p[-1] == '{' || (p[-1] == ' ' && p[-2] == ',')))
      return p + strlen(pat);
    p++;
  }
  return NULL;
}

typedef struct expect {
  char *id;
  char *reason;
  int seen;
} expect;

static expect *load_expected(const char *path, size_t *n) {
  *n = 0;
  size_t len;
  char *text = read_host_file(path, &len);
  if (!text)
    return NULL;
  expect *e = NULL;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || !line[0])
      continue;
    char *tab = strchr(line, '\t');
    e = realloc(e, (*n + 1) * sizeof *e);
    e[*n].id = strndup(line, tab ? (size_t)(tab - line) : strlen(line));
    e[*n].reason = strdup(tab ? tab + 1 : "");
    e[*n].seen = 0;
    (*n)++;
  }
  free(text);
  return e;
}

static expect *find_expect(expect *e, size_t n, const char *id) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(e[i].id, id) == 0)
      return &e[i];
  return NULL;
}

static int run_corpus(runner *r, const char *dir, const char *expected_path,
                      const char *filter, int write_expected) {
  char path[4096];
  snprintf(path, sizeof path, "%s/bash-5.2-expected.jsonl", dir);
  size_t len;
  char *text = read_host_file(path, &len);
  if (!text) {
    printf("vsh-spec: %s not found; corpus skipped\n", path);
    return 0;
  }
  size_t nexp;
  expect *exp = load_expected(expected_path, &nexp);
  int pass = 0, fail = 0, unexpected_fail = 0, unexpected_pass = 0;
  str out = {0}, fails = {0};
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    const char *v = json_field(line, "nondeterministic");
    if (v && strncmp(v, "true", 4) == 0)
      continue;
    str id = {0}, code = {0}, want = {0};
    json_string(json_field(line, "id"), &id);
    json_string(json_field(line, "code"), &code);
    json_string(json_field(line, "stdout"), &want);
    str_add(&code, "", 0);
    str_add(&want, "", 0);
    const char *sv = json_field(line, "status");
    int wstatus = sv ? atoi(sv) : 0;
    if (filter && !strstr(id.p, filter)) {
      free(id.p);
      free(code.p);
      free(want.p);
      continue;
    }
    int status = -1;
    int rc = run_case(r, code.p, &out, &status);
    int ok = rc == 0 && status == wstatus && out.n == want.n &&
             memcmp(out.p ? out.p : "", want.p, want.n) == 0;
    expect *e = find_expect(exp, nexp, id.p);
    if (e)
      e->seen = 1;
    if (ok) {
      pass++;
      if (e && !write_expected) {
        unexpected_pass++;
        printf("UNEXPECTED PASS %s (listed: %s)\n", id.p, e->reason);
      }
    } else {
      fail++;
      str_adds(&fails, id.p);
      str_addc(&fails, '\t');
      if (e && e->reason[0])
        str_adds(&fails, e->reason);
      else if (rc)
        str_adds(&fails, "sandbox error");
      else if (status != wstatus)
        str_adds(&fails, status == wstatus ? "" : "wrong exit status");
      else
        str_adds(&fails, "wrong stdout");
      str_addc(&fails, '\n');
      if (!e && !write_expected) {
        unexpected_fail++;
        printf("UNEXPECTED FAIL %s\n", id.p);
        if (r->verbose)
          show_diff(id.p, want.p, want.n, wstatus, &out, status);
      }
    }
    free(id.p);
    free(code.p);
    free(want.p);
  }
  free(text);
  free(out.p);
  printf("oils corpus: %d passed, %d failed (%d unexpected failures, %d "
         "unexpected passes)\n",
         pass, fail, unexpected_fail, unexpected_pass);
  if (write_expected) {
    FILE *f = fopen(expected_path, "w");
    if (!f) {
      perror(expected_path);
      return 2;
    }
    fprintf(f, "# Oils corpus cases vsh does not pass yet, one per line:\n"
               "# ID<TAB>reason. The spec runner fails when a case not "
               "listed here fails,\n# or when a listed case passes (then "
               "remove its line).\n");
    if (fails.p)
      fputs(fails.p, f);
    fclose(f);
  }
  free(fails.p);
  for (size_t i = 0; i < nexp; i++) {
    free(exp[i].id);
    free(exp[i].reason);
  }
  free(exp);
  printf("%d passed, %d failed\n", pass, fail);
  return unexpected_fail || unexpected_pass ? 1 : 0;
}

int main(int argc, char **argv) {
  runner r = {0};
  const char *corpus = NULL, *expected = NULL, *filter = NULL;
  int write_expected = 0;
  char **files = calloc((size_t)argc, sizeof *files);
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
      corpus = argv[++i];
    else if (strcmp(argv[i], "--expected") == 0 && i + 1 < argc)
      expected = argv[++i];
    else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
      filter = argv[++i];
    else if (strcmp(argv[i], "--write-expected") == 0)
      write_expected = 1;
    else if (strcmp(argv[i], "-v") == 0)
      r.verbose = 1;
    else
      files[nfiles++] = argv[i];
  }
  int rc = 0;
  if (corpus) {
    struct stat st;
    if (stat(corpus, &st) != 0) {
      printf("vsh-spec: %s is absent; the Oils corpus is skipped\n", corpus);
      free(files);
      return 0;
    }
    char td[4096];
    snprintf(td, sizeof td, "%s/testdata", corpus);
    if (stat(td, &st) == 0)
      r.testdata = td;
    rc = run_corpus(&r, corpus, expected ? expected : "/dev/null", filter,
                    write_expected);
  } else {
    rc = run_spec_files(&r, nfiles, files, filter);
  }
  free(files);
  return rc;
}
