// layers: core vfs builtins
/* Unit tests of file. The table in file_cases.inc was recorded from file
 * 5.44 on Debian 12 by record_file.py, over fixtures it makes (LC_ALL=C,
 * TZ=UTC). */
#include <stdio.h>

#include "bi_harness.h"

#include "file_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bh *fixture(void) {
  bh *h = bh_new();
  for (size_t i = 0; i < N(file_files); i++)
    bh_writen(h, file_files[i].name, file_files[i].data, file_files[i].len);
  for (size_t i = 0; file_dirs[i]; i++)
    assert_int_equal(vfs_mkdir(h->vfs, h->cwd, file_dirs[i], 0755), 0);
  for (size_t i = 0; i < N(file_links); i++)
    assert_int_equal(
        vfs_symlink(h->vfs, h->cwd, file_links[i][1], file_links[i][0]), 0);
  return h;
}

static void t_recorded(void **st) {
  (void)st;
  bh *h = fixture();
  int bad = 0;
  for (size_t k = 0; k < N(file_cases); k++) {
    const bh_case *t = &file_cases[k];
    int argc = 0;
    while (t->argv[argc])
      argc++;
    int s =
        bh_runa(h, t->in, t->in ? strlen(t->in) : 0, argc, (char **)t->argv);
    if (s != t->status || strcmp(bh_out(h), t->out) != 0 ||
        strcmp(bh_err(h), t->err) != 0) {
      bad++;
      print_error("run:");
      for (int i = 0; i < argc; i++)
        print_error(" '%s'", t->argv[i]);
      print_error("\nstatus %d (want %d)\nstdout [%s]\n  want [%s]\n"
                  "stderr [%s]\n  want [%s]\n",
                  s, t->status, bh_out(h), t->out, bh_err(h), t->err);
    }
  }
  assert_int_equal(bad, 0);
  bh_free(h);
}

/* Hostile ELF headers: offsets and counts past the end are not followed. */
static void t_elf_bounds(void **st) {
  (void)st;
  bh *h = fixture();
  unsigned char e[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  e[16] = 3;                              /* ET_DYN */
  e[18] = 62;                             /* x86-64 */
  e[20] = 1;                              /* version */
  memset(e + 32, 0xff, 16);               /* phoff, shoff far away */
  e[54] = 56, e[56] = 0xff;               /* 255 program headers */
  e[58] = 64, e[60] = 0xff, e[61] = 0xff; /* 65535 sections */
  bh_writen(h, "bad.elf", e, sizeof e);
  assert_int_equal(bh_run(h, NULL, "file", "-b", "bad.elf", NULL), 0);
  /* file 5.44 stops where the program headers cannot be read */
  assert_string_equal(bh_out(h), "ELF 64-bit LSB shared object, x86-64, "
                                 "version 1 (SYSV)\n");
  /* deep JSON nesting is bounded; lines are counted over the first 64 KiB
   * (file 5.44 says the same of this file) */
  size_t n = 100000;
  char *deep = malloc(n);
  memset(deep, '[', n);
  bh_writen(h, "deep", deep, n);
  free(deep);
  assert_int_equal(bh_run(h, NULL, "file", "-b", "deep", NULL), 0);
  assert_string_equal(bh_out(h), "ASCII text, with very long lines (65536), "
                                 "with no line terminators\n");
  bh_free(h);
}

/* In a UTF-8 locale the printable characters of a name stay as they are
 * (file 5.44 under LANG=C.UTF-8); the rest is in octal as in C. */
static void t_names_utf8(void **st) {
  (void)st;
  bh *h = fixture();
  bh_setenv(h, "LANG", "C.UTF-8");
  assert_int_equal(bh_run(h, NULL, "file", "n\xc3\xa9me", "t\tab", "one", NULL),
                   0);
  assert_string_equal(bh_out(h), "n\xc3\xa9me:    ASCII text\n"
                                 "t\\011ab: ASCII text\n"
                                 "one:     very short file (no magic)\n");
  bh_free(h);
}

/* The sandbox's devices, with the numbers Linux gives them (file 5.44
 * prints the same for the host's /dev/null and /dev/zero). */
static void t_devices(void **st) {
  (void)st;
  bh *h = fixture();
  assert_int_equal(bh_run(h, NULL, "file", "/dev/null", "/dev/zero", NULL), 0);
  assert_string_equal(bh_out(h), "/dev/null: character special (1/3)\n"
                                 "/dev/zero: character special (1/5)\n");
  assert_int_equal(bh_run(h, NULL, "file", "-i", "/dev/null", NULL), 0);
  assert_string_equal(bh_out(h),
                      "/dev/null: inode/chardevice; charset=binary\n");
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_elf_bounds),
      cmocka_unit_test(t_names_utf8),
      cmocka_unit_test(t_devices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
