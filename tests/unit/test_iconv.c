// layers: core vfs builtins
/* Unit tests of iconv. The table in iconv_cases.inc was recorded from
 * glibc 2.36's iconv on Debian 12 by record_iconv.py (stdin a pipe). */
#include <stdio.h>

#include "bi_harness.h"

typedef struct ic_case {
  const char *locale;
  const char *in;
  size_t inlen;
  int status;
  const char *out;
  size_t outlen;
  const char *err;
  const char *outfile; /* -o FILE, whose content must be `file` */
  const char *file;
  size_t filelen;
  const char *argv[BH_CASE_ARGS + 1];
} ic_case;

#include "iconv_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bh *fixture(void) {
  bh *h = bh_new();
  for (size_t i = 0; i < N(iconv_files); i++)
    bh_writen(h, iconv_files[i].name, iconv_files[i].data, iconv_files[i].len);
  h->stdin_chunk = 7;
  return h;
}

static void dump(const char *what, const char *p, size_t n) {
  print_error("%s [", what);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch >= 32 && ch < 127)
      print_error("%c", ch);
    else
      print_error("\\x%02x", ch);
  }
  print_error("]\n");
}

static void t_recorded(void **st) {
  (void)st;
  bh *h = fixture();
  int bad = 0;
  for (size_t k = 0; k < N(iconv_cases); k++) {
    const ic_case *t = &iconv_cases[k];
    bh_setenv(h, "LC_ALL", t->locale);
    int argc = 0;
    while (t->argv[argc])
      argc++;
    int s = bh_runa(h, t->in, t->inlen, argc, (char **)t->argv);
    int ok = s == t->status && h->out.len == t->outlen &&
             memcmp(h->out.data, t->out, t->outlen) == 0 &&
             strcmp(bh_err(h), t->err) == 0;
    char *f = NULL;
    size_t flen = 0;
    if (t->outfile) {
      f = bh_read(h, t->outfile, &flen);
      if (!t->file)
        ok = ok && !f;
      else
        ok = ok && f && flen == t->filelen && memcmp(f, t->file, flen) == 0;
    }
    if (!ok) {
      bad++;
      print_error("case %zu (LC_ALL=%s):", k, t->locale);
      for (int i = 0; i < argc; i++)
        print_error(" '%s'", t->argv[i]);
      print_error("\nstatus %d (want %d)\n", s, t->status);
      dump("stdout", h->out.data, h->out.len);
      dump("  want", t->out, t->outlen);
      dump("stderr", h->err.data, h->err.len);
      dump("  want", t->err, strlen(t->err));
    }
    free(f);
    if (t->outfile)
      vfs_unlink(h->vfs, h->cwd, t->outfile);
  }
  assert_int_equal(bad, 0);
  bh_free(h);
}

/* -l lists the sets known here, one a line, as glibc does on a pipe. */
static void t_list(void **st) {
  (void)st;
  bh *h = fixture();
  assert_int_equal(bh_run(h, NULL, "iconv", "-l", NULL), 0);
  assert_non_null(strstr(bh_out(h), "\nUTF-8//\n"));
  assert_non_null(strstr(bh_out(h), "\nISO-10646/UTF-8/\n"));
  assert_non_null(strstr(bh_out(h), "\nWINDOWS-1252//\n"));
  assert_int_equal(bh_run(h, NULL, "iconv", "--help", NULL), 0);
  assert_non_null(strstr(bh_out(h), "Usage: iconv"));
  bh_free(h);
}

/* A large input goes through, and a deadline stops the loop. */
static void t_large(void **st) {
  (void)st;
  bh *h = fixture();
  size_t n = 1 << 20;
  char *big = malloc(n);
  for (size_t i = 0; i < n; i += 2) {
    big[i] = (char)0xC3;
    big[i + 1] = (char)0xA9;
  }
  bh_writen(h, "big", big, n);
  assert_int_equal(
      bh_run(h, NULL, "iconv", "-f", "UTF-8", "-t", "UTF-16LE", "big", NULL),
      0);
  assert_int_equal(h->out.len, n);
  assert_int_equal(bh_run(h, NULL, "iconv", "-f", "UTF-8", "-t",
                          "ASCII//TRANSLIT", "big", NULL),
                   0);
  assert_int_equal(h->out.len, n / 2);
  free(big);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_list),
      cmocka_unit_test(t_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
