// layers: core vfs builtins
/* Unit tests of the archive family: gzip/gunzip/zcat, bzip2/bunzip2/bzcat,
 * xz/unxz/xzcat, tar, zip and unzip. Expected texts and bytes were
 * recorded from GNU gzip 1.12, bzip2 1.0.8, XZ Utils 5.4.1, GNU tar 1.34
 * and Info-ZIP zip 3.0 / unzip 6.00 on the development machine; the
 * hostile archives come from record_archive.py (archive_fixtures.inc). */
#include "bi_harness.h"

#include <stdio.h>
#include <zlib.h>

#include "archive_fixtures.inc"
#include "builtins/fileutil.h"

#define RUN(...) bh_run(h, NULL, __VA_ARGS__, NULL)
#define OUT_IS(s) assert_string_equal(bh_out(h), s)
#define ERR_IS(s) assert_string_equal(bh_err(h), s)

static const int64_t T0 = INT64_C(1704164645) * 1000000000; /* 2024-01-02 */

static void set_mtime(bh *h, const char *p, int64_t ns) {
  assert_int_equal(vfs_utimes(h->vfs, h->cwd, p, VFS_UTIME_OMIT, ns, 0), 0);
}

static int exists(bh *h, const char *p) {
  fu_stat st;
  return vfs_lstat(h->vfs, h->cwd, p, &st) == 0;
}

static fu_stat st_of(bh *h, const char *p) {
  fu_stat st;
  memset(&st, 0, sizeof st);
  assert_int_equal(vfs_lstat(h->vfs, h->cwd, p, &st), 0);
  return st;
}

static void assert_file(bh *h, const char *p, const void *want, size_t n) {
  size_t len = 0;
  char *d = bh_read(h, p, &len);
  assert_non_null(d);
  assert_int_equal(len, n);
  assert_memory_equal(d, want, n);
  free(d);
}

/* 64 KiB + 3 of every byte value, then a run of zeros. */
static char *binary(size_t *n) {
  *n = 65536 + 3 + 5000;
  char *b = malloc(*n);
  for (size_t i = 0; i < 65539; i++)
    b[i] = (char)(i * 7 + (i >> 8));
  memset(b + 65539, 0, 5000);
  return b;
}

/* ---- gzip ---------------------------------------------------------------- */

/* `gzip -k f` of "hello\n" with mtime 2024-01-02 03:04:05 UTC. */
static const unsigned char gnu_hello_gz[] = {
    0x1f, 0x8b, 0x08, 0x08, 0x25, 0x7d, 0x93, 0x65, 0x00, 0x03,
    0x66, 0x00, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7, 0x02, 0x00,
    0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00};

static void test_gzip_bytes_and_list(void **state) {
  (void)state;
  bh *h = bh_new();
  bh_write(h, "f", "hello\n");
  set_mtime(h, "f", T0);
  assert_int_equal(RUN("gzip", "-k", "f"), 0);
  ERR_IS("");
  assert_file(h, "f.gz", gnu_hello_gz, sizeof gnu_hello_gz);
  assert_true(exists(h, "f"));
  assert_int_equal(st_of(h, "f.gz").mtime_ns, T0);
  assert_int_equal(RUN("gzip", "-l", "f.gz"), 0);
  OUT_IS("         compressed        uncompressed  ratio uncompressed_name\n"
         "                 28                   6 -33.3% f\n");
  assert_int_equal(RUN("gzip", "-lv", "f.gz"), 0);
  OUT_IS("method  crc     date  time           compressed        uncompressed "
         " ratio uncompressed_name\n"
         "defla 363a3020 Jan  2 03:04                  28                   "
         "6 -33.3% f\n");
  /* from stdin: no name, no time */
  assert_int_equal(bh_run(h, "hello\n", "gzip", NULL), 0);
  assert_int_equal(h->out.len, 26);
  assert_memory_equal(h->out.data, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
                      10);
  assert_int_equal(bh_run(h, "hello\n", "gzip", "-9", NULL), 0);
  assert_int_equal((unsigned char)h->out.data[8], 2);
  assert_int_equal(bh_run(h, "hello\n", "gzip", "-1", NULL), 0);
  assert_int_equal((unsigned char)h->out.data[8], 4);
  assert_int_equal(RUN("gzip", "-n", "-c", "f"), 0);
  assert_memory_equal(h->out.data, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
                      10);
  assert_int_equal(RUN("gzip", "-t", "f.gz"), 0);
  OUT_IS("");
  ERR_IS("");
  /* -N restores the stored name and time */
  bh_writen(h, "other.gz", gnu_hello_gz, sizeof gnu_hello_gz);
  assert_int_equal(RUN("gunzip", "-N", "other.gz"), 2);
  ERR_IS("gzip: f already exists;\tnot overwritten\n");
  assert_int_equal(vfs_unlink(h->vfs, h->cwd, "f"), 0);
  assert_int_equal(RUN("gunzip", "-N", "other.gz"), 0);
  assert_file(h, "f", "hello\n", 6);
  assert_int_equal(st_of(h, "f").mtime_ns, T0);
  assert_false(exists(h, "other.gz"));
  bh_free(h);
}

static void test_gzip_round_trip(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  char *b = binary(&n);
  bh_writen(h, "bin", b, n);
  bh_write(h, "empty", "");
  assert_int_equal(vfs_chmod(h->vfs, h->cwd, "bin", 0751), 0);
  set_mtime(h, "bin", T0);
  assert_int_equal(RUN("gzip", "bin", "empty"), 0);
  ERR_IS("");
  assert_false(exists(h, "bin"));
  assert_true(exists(h, "bin.gz") && exists(h, "empty.gz"));
  assert_int_equal(st_of(h, "bin.gz").mode, 0751);
  assert_int_equal(RUN("zcat", "bin.gz"), 0);
  assert_int_equal(h->out.len, n);
  assert_memory_equal(h->out.data, b, n);
  assert_int_equal(RUN("gunzip", "bin.gz", "empty"), 0);
  ERR_IS("");
  assert_file(h, "bin", b, n);
  assert_file(h, "empty", "", 0);
  assert_int_equal(st_of(h, "bin").mode, 0751);
  assert_int_equal(st_of(h, "bin").mtime_ns, T0);
  /* concatenated members, and a pipe-like stdin */
  assert_int_equal(RUN("gzip", "-k", "bin"), 0);
  char *gz = bh_read(h, "bin.gz", &n);
  char *two = malloc(2 * n);
  memcpy(two, gz, n);
  memcpy(two + n, gz, n);
  h->stdin_chunk = 1000;
  assert_int_equal(bh_runb(h, two, 2 * n, "gzip", "-d", NULL), 0);
  assert_int_equal(h->out.len, 2 * (65539 + 5000));
  assert_memory_equal(h->out.data + 65539 + 5000, b, 65539 + 5000);
  h->stdin_chunk = 0;
  /* -r walks directories */
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "d", 0755), 0);
  bh_write(h, "d/x", "x\n");
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, ".", "d/self"), 0);
  assert_int_equal(RUN("gzip", "-r", "d"), 1);
  ERR_IS("gzip: d/self: Too many levels of symbolic links\n");
  assert_true(exists(h, "d/x.gz") && !exists(h, "d/x"));
  free(two);
  free(gz);
  free(b);
  bh_free(h);
}

static void test_gzip_messages(void **state) {
  (void)state;
  bh *h = bh_new();
  bh_write(h, "f", "hello\n");
  bh_writen(h, "f.gz", gnu_hello_gz, sizeof gnu_hello_gz);
  bh_write(h, "j.gz", "junk");
  bh_writen(h, "t.gz", gnu_hello_gz, 15);
  bh_write(h, "nox", "x");
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "d", 0755), 0);
  char fj[sizeof gnu_hello_gz + 4];
  memcpy(fj, gnu_hello_gz, sizeof gnu_hello_gz);
  memcpy(fj + sizeof gnu_hello_gz, "junk", 4);
  bh_writen(h, "fj.gz", fj, sizeof fj);
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "", "gzip: nosuch: No such file or directory\n", "gzip",
              "nosuch"),
      BH_CASE(NULL, 0, "", "gzip: f.gz already has .gz suffix -- unchanged\n",
              "gzip", "f.gz"),
      BH_CASE(NULL, 2, "", "gzip: f.gz already exists;\tnot overwritten\n",
              "gzip", "-k", "f"),
      BH_CASE(NULL, 1, "", "\ngzip: j.gz: not in gzip format\n", "gzip", "-d",
              "j.gz"),
      BH_CASE(NULL, 1, "", "\ngzip: j.gz: not in gzip format\n", "gzip", "-t",
              "j.gz"),
      BH_CASE(NULL, 1, "he", "\ngzip: t.gz: unexpected end of file\n", "gzip",
              "-dc", "t.gz"),
      BH_CASE(NULL, 1, "", "\ngzip: t.gz: unexpected end of file\n", "gzip",
              "-t", "t.gz"),
      BH_CASE(NULL, 1, "", "gzip: nosuch.gz: No such file or directory\n",
              "gzip", "-d", "nosuch"),
      BH_CASE(NULL, 2, "", "gzip: nox: unknown suffix -- ignored\n", "gzip",
              "-d", "nox"),
      BH_CASE(NULL, 2, "", "gzip: d is a directory -- ignored\n", "gzip", "d"),
      BH_CASE(NULL, 1, "",
              "gzip: invalid option -- 'x'\nTry `gzip --help' for more "
              "information.\n",
              "gzip", "-x"),
      BH_CASE(NULL, 1, "",
              "gzip: unrecognized option '--bogus'\nTry `gzip --help' for "
              "more information.\n",
              "gzip", "--bogus"),
      BH_CASE(NULL, 1, "hello\n", "\ngzip: j.gz: not in gzip format\n", "gzip",
              "-dc", "j.gz", "f.gz"),
      BH_CASE(NULL, 2, "hello\n",
              "\ngzip: fj.gz: decompression OK, trailing garbage ignored\n",
              "zcat", "fj.gz"),
      BH_CASE(NULL, 1, "", "gzip: nosuch.gz: No such file or directory\n",
              "zcat", "nosuch"),
      BH_CASE(NULL, 1, "", "gzip: invalid suffix ''\n", "gzip", "-S", "", "f"),
      BH_CASE("junk", 1, "", "\ngzip: stdin: not in gzip format\n", "gzip",
              "-d"),
      BH_CASE("", 1, "", "\ngzip: stdin: unexpected end of file\n", "gzip",
              "-d"),
  };
  bh_check_all(h, cases);
  /* a failed decompression leaves no partial output behind */
  assert_false(exists(h, "t"));
  assert_false(exists(h, "j"));
  bh_free(h);
}

/* ---- bzip2 and xz -------------------------------------------------------- */

static void test_bzip2(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  char *b = binary(&n);
  bh_writen(h, "bin", b, n);
  bh_write(h, "f", "hello\n");
  assert_int_equal(RUN("bzip2", "-k", "bin", "f"), 0);
  ERR_IS("");
  assert_true(exists(h, "bin") && exists(h, "bin.bz2"));
  assert_int_equal(RUN("bzcat", "bin.bz2"), 0);
  assert_int_equal(h->out.len, n);
  assert_memory_equal(h->out.data, b, n);
  assert_int_equal(RUN("bunzip2", "-f", "bin.bz2"), 0);
  assert_file(h, "bin", b, n);
  assert_false(exists(h, "bin.bz2"));
  bh_write(h, "j.bz2", "junk");
  char *bz = bh_read(h, "f.bz2", &n);
  bh_writen(h, "t.bz2", bz, 20);
  char *two = malloc(2 * n + 4);
  memcpy(two, bz, n);
  memcpy(two + n, bz, n);
  bh_writen(h, "ff.bz2", two, 2 * n);
  memcpy(two + n, "junk", 4);
  bh_writen(h, "fj.bz2", two, n + 4);
  static const char recover[] =
      "\nYou can use the `bzip2recover' program to attempt to recover\n"
      "data from undamaged sections of corrupted files.\n\n";
  char t_msg[256], tt_msg[1024], bad_t[256];
  snprintf(t_msg, sizeof t_msg, "bzip2: t.bz2: file ends unexpectedly\n%s",
           recover);
  snprintf(bad_t, sizeof bad_t,
           "bzip2: j.bz2: bad magic number (file not created by bzip2)\n%s",
           recover);
  snprintf(tt_msg, sizeof tt_msg,
           "\nbzip2: Compressed file ends unexpectedly;\n\tperhaps it is "
           "corrupted?  *Possible* reason follows.\nbzip2: Success\n\tInput "
           "file = t.bz2, output file = (stdout)\n\nIt is possible that the "
           "compressed file(s) have become corrupted.\nYou can use the -tvv "
           "option to test integrity of such files.\n%s",
           recover);
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "", "bzip2: Output file f.bz2 already exists.\n",
              "bzip2", "-k", "f"),
      BH_CASE(NULL, 1, "", "bzip2: Input file f.bz2 already has .bz2 suffix.\n",
              "bzip2", "f.bz2"),
      BH_CASE(NULL, 1, "",
              "bunzip2: Can't open input file nosuch: No such file or "
              "directory.\n",
              "bunzip2", "nosuch"),
      BH_CASE(NULL, 2, "", "bunzip2: j.bz2 is not a bzip2 file.\n", "bunzip2",
              "j.bz2"),
      BH_CASE(NULL, 2, "", "bzcat: j.bz2 is not a bzip2 file.\n", "bzcat",
              "j.bz2"),
      BH_CASE(NULL, 2, "", bad_t, "bzip2", "-t", "j.bz2"),
      BH_CASE(NULL, 2, "", t_msg, "bzip2", "-t", "t.bz2"),
      BH_CASE(NULL, 2, "", tt_msg, "bzip2", "-dc", "t.bz2"),
      BH_CASE("junk", 2, "", "bzip2: (stdin) is not a bzip2 file.\n", "bzip2",
              "-d"),
      BH_CASE(NULL, 0, "hello\nhello\n", "", "bzcat", "ff.bz2"),
      BH_CASE(NULL, 0, "hello\n",
              "bzcat: fj.bz2: trailing garbage after EOF ignored\n", "bzcat",
              "fj.bz2"),
  };
  bh_check_all(h, cases);
  assert_int_equal(RUN("bzip2", "-x"), 1);
  assert_true(strncmp(bh_err(h), "bzip2: Bad flag `-x'\n", 21) == 0);
  free(two);
  free(bz);
  free(b);
  bh_free(h);
}

static void test_xz(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  char *b = binary(&n);
  bh_writen(h, "bin", b, n);
  bh_write(h, "f", "hello\n");
  assert_int_equal(RUN("xz", "-k", "-1", "bin"), 0);
  assert_int_equal(RUN("xz", "-k", "f"), 0);
  ERR_IS("");
  assert_int_equal(RUN("xzcat", "bin.xz"), 0);
  assert_int_equal(h->out.len, n);
  assert_memory_equal(h->out.data, b, n);
  assert_int_equal(RUN("unxz", "-f", "bin.xz"), 0);
  assert_file(h, "bin", b, n);
  /* `xz -k f` of "hello\n", as XZ Utils writes it */
  static const unsigned char gnu_xz[] = {
      0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46,
      0x02, 0x00, 0x21, 0x01, 0x16, 0x00, 0x00, 0x00, 0x74, 0x2f, 0xe5, 0xa3,
      0x01, 0x00, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a, 0x00, 0x00, 0x00,
      0xa5, 0x60, 0x97, 0xf1, 0x94, 0xf6, 0xfd, 0xe0, 0x00, 0x01, 0x1e, 0x06};
  char *xz = bh_read(h, "f.xz", &n);
  assert_true(n >= sizeof gnu_xz);
  assert_memory_equal(xz, gnu_xz, sizeof gnu_xz);
  bh_write(h, "j.xz", "junk");
  bh_writen(h, "t.xz", xz, 20);
  char *two = malloc(2 * n);
  memcpy(two, xz, n);
  memcpy(two + n, xz, n);
  bh_writen(h, "ff.xz", two, 2 * n);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "d", 0755), 0);
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "", "xz: f.xz: File exists\n", "xz", "-k", "f"),
      BH_CASE(NULL, 2, "",
              "xz: f.xz: File already has `.xz' suffix, "
              "skipping\n",
              "xz", "f.xz"),
      BH_CASE(NULL, 1, "", "xz: f: File format not recognized\n", "xz", "-d",
              "f"),
      BH_CASE(NULL, 1, "", "unxz: nosuch: No such file or directory\n", "unxz",
              "nosuch"),
      BH_CASE(NULL, 1, "", "unxz: j.xz: File format not recognized\n", "unxz",
              "j.xz"),
      BH_CASE(NULL, 1, "", "xzcat: j.xz: File format not recognized\n", "xzcat",
              "j.xz"),
      BH_CASE(NULL, 1, "", "xz: t.xz: Unexpected end of input\n", "xz", "-dc",
              "t.xz"),
      BH_CASE(NULL, 1, "", "xz: t.xz: Unexpected end of input\n", "xz", "-t",
              "t.xz"),
      BH_CASE("junk", 1, "", "xz: (stdin): File format not recognized\n", "xz",
              "-d"),
      BH_CASE(NULL, 1, "",
              "xz: unrecognized option '--bogus'\nxz: Try `xz --help' for "
              "more information.\n",
              "xz", "--bogus"),
      BH_CASE(NULL, 1, "",
              "xz: invalid option -- 'x'\nxz: Try `xz --help' for more "
              "information.\n",
              "xz", "-x"),
      BH_CASE(NULL, 2, "", "xz: d: Is a directory, skipping\n", "xz", "d"),
      BH_CASE(NULL, 0, "hello\nhello\n", "", "xzcat", "ff.xz"),
  };
  bh_check_all(h, cases);
  free(two);
  free(xz);
  free(b);
  bh_free(h);
}

/* ---- the bomb ------------------------------------------------------------ */

/* gzip of `mb` MiB of zeros, built with zlib (about 1 KiB per MiB). */
static unsigned char *zero_bomb(size_t mb, size_t *n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY),
                   Z_OK);
  size_t cap = mb * 2048 + 4096;
  unsigned char *out = malloc(cap);
  static unsigned char zeros[1 << 20];
  z.next_out = out;
  z.avail_out = (uInt)cap;
  for (size_t i = 0; i < mb; i++) {
    z.next_in = zeros;
    z.avail_in = sizeof zeros;
    assert_int_equal(deflate(&z, i + 1 == mb ? Z_FINISH : Z_NO_FLUSH),
                     i + 1 == mb ? Z_STREAM_END : Z_OK);
  }
  *n = cap - z.avail_out;
  deflateEnd(&z);
  return out;
}

/* A ustar header for a regular file "z" of size bytes. */
static void tar_header(unsigned char h[512], uint64_t size) {
  memset(h, 0, 512);
  strcpy((char *)h, "z");
  strcpy((char *)h + 100, "0000644");
  strcpy((char *)h + 108, "0001750");
  strcpy((char *)h + 116, "0001750");
  snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)size);
  strcpy((char *)h + 136, "14544676445");
  h[156] = '0';
  memcpy(h + 257,
         "ustar\0"
         "00",
         8);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += h[i];
  snprintf((char *)h + 148, 8, "%06o", sum);
}

/* A gzip'ed tar holding "z", mb MiB of zeros. */
static unsigned char *tar_bomb(size_t mb, size_t *n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY),
                   Z_OK);
  size_t cap = mb * 2048 + 8192;
  unsigned char *out = malloc(cap);
  static unsigned char zeros[1 << 20];
  unsigned char h[512];
  tar_header(h, (uint64_t)mb << 20);
  z.next_out = out;
  z.avail_out = (uInt)cap;
  z.next_in = h;
  z.avail_in = 512;
  assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
  for (size_t i = 0; i <= mb; i++) { /* the data, then the end blocks */
    z.next_in = zeros;
    z.avail_in = i < mb ? sizeof zeros : 10240 - 512;
    assert_int_equal(deflate(&z, i == mb ? Z_FINISH : Z_NO_FLUSH),
                     i == mb ? Z_STREAM_END : Z_OK);
  }
  *n = cap - z.avail_out;
  deflateEnd(&z);
  return out;
}

static void test_bomb(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  unsigned char *bomb = zero_bomb(100, &n);
  assert_true(n < 200 * 1024);
  bh_writen(h, "bomb.gz", bomb, n);
  /* to stdout: the output limit ends it */
  h->bud.lim.max_output_bytes = 1 << 20;
  int st = RUN("zcat", "bomb.gz");
  assert_int_not_equal(st, 0);
  assert_int_equal(h->bud.stop, BUDGET_OUTPUT);
  assert_true(h->out.len <= (2 << 20));
  /* to a file: the vfs quota refuses it, and the partial file goes */
  h->bud.lim.max_output_bytes = 64 << 20;
  vfs_set_quota(h->vfs, 8 << 20, 0);
  st = RUN("gunzip", "-k", "bomb.gz");
  assert_int_equal(st, 1);
  ERR_IS("gzip: bomb: No space left on device\n");
  assert_false(exists(h, "bomb"));
  free(bomb);
  /* a tar bomb: extracting meets the quota, -O the output limit */
  bomb = tar_bomb(100, &n);
  bh_writen(h, "bomb.tgz", bomb, n);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "x", 0755), 0);
  st = RUN("tar", "xzf", "bomb.tgz", "-C", "x");
  assert_int_equal(st, 2);
  ERR_IS("tar: z: Cannot write: No space left on device\n"
         "tar: Exiting with failure status due to previous errors\n");
  h->bud.lim.max_output_bytes = 1 << 20;
  st = RUN("tar", "xzOf", "bomb.tgz");
  assert_int_not_equal(st, 0);
  assert_int_equal(h->bud.stop, BUDGET_OUTPUT);
  h->bud.lim.max_output_bytes = 64 << 20;
  assert_int_equal(RUN("tar", "tzvf", "bomb.tgz"), 0);
  OUT_IS("-rw-r--r-- 1000/1000 104857600 2024-01-02 03:04 z\n");
  free(bomb);
  bh_free(h);
}

/* ---- tar ----------------------------------------------------------------- */

static void make_tree(bh *h, const char *bin, size_t n) {
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "d", 0755), 0);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "d/sub", 0750), 0);
  bh_write(h, "d/a", "a\n");
  bh_write(h, "d/empty", "");
  bh_writen(h, "d/sub/bin", bin, n);
  assert_int_equal(vfs_chmod(h->vfs, h->cwd, "d/sub/bin", 0700), 0);
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, "../a", "d/sub/l"), 0);
  set_mtime(h, "d/a", T0);
  set_mtime(h, "d/empty", T0);
  set_mtime(h, "d/sub/bin", T0);
  set_mtime(h, "d/sub", T0);
  set_mtime(h, "d", T0);
}

static void check_tree(bh *h, const char *root, const char *bin, size_t n) {
  char p[256];
  snprintf(p, sizeof p, "%s/a", root);
  assert_file(h, p, "a\n", 2);
  assert_int_equal(st_of(h, p).mtime_ns, T0);
  snprintf(p, sizeof p, "%s/empty", root);
  assert_file(h, p, "", 0);
  snprintf(p, sizeof p, "%s/sub/bin", root);
  assert_file(h, p, bin, n);
  assert_int_equal(st_of(h, p).mode, 0700);
  snprintf(p, sizeof p, "%s/sub", root);
  assert_int_equal(st_of(h, p).mode, 0750);
  assert_int_equal(st_of(h, p).mtime_ns, T0);
  snprintf(p, sizeof p, "%s/sub/l", root);
  assert_int_equal(st_of(h, p).type, VFS_LNK);
  char *t = NULL;
  size_t tl;
  assert_int_equal(vfs_readlink(h->vfs, h->cwd, p, &t, &tl), 0);
  assert_string_equal(t, "../a");
  vfs_release(h->vfs, t);
}

static void test_tar_round_trip(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  char *b = binary(&n);
  make_tree(h, b, n);
  static const char *const flags[] = {
      "cf", "czf", "cjf", "cJf", "--zstd", "--format=ustar", "--format=pax"};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
    if (flags[i][0] == '-')
      assert_int_equal(RUN("tar", "-c", flags[i], "-f", "x.tar", "d"), 0);
    else
      assert_int_equal(RUN("tar", flags[i], "x.tar", "d"), 0);
    ERR_IS("");
    vfs_rm_rf(h->vfs, h->cwd, "out");
    assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "out", 0755), 0);
    assert_int_equal(RUN("tar", "-xf", "x.tar", "-C", "out"), 0);
    ERR_IS("");
    check_tree(h, "out/d", b, n);
  }
  /* listing, GNU's tv line, --numeric-owner, --exclude, -O */
  assert_int_equal(RUN("tar", "cf", "x.tar", "d"), 0);
  assert_int_equal(RUN("tar", "tf", "x.tar"), 0);
  OUT_IS("d/\nd/a\nd/empty\nd/sub/\nd/sub/bin\nd/sub/l\n");
  assert_int_equal(RUN("tar", "-tvf", "x.tar", "d/a", "d/sub/bin"), 0);
  OUT_IS("-rw-r--r-- user/user         2 2024-01-02 03:04 d/a\n"
         "-rwx------ user/user     70539 2024-01-02 03:04 d/sub/bin\n");
  assert_int_equal(RUN("tar", "-tvf", "x.tar", "--numeric-owner", "d/a"), 0);
  OUT_IS("-rw-r--r-- 1000/1000         2 2024-01-02 03:04 d/a\n");
  assert_int_equal(RUN("tar", "-tf", "x.tar", "--exclude=sub"), 0);
  OUT_IS("d/\nd/a\nd/empty\n");
  assert_int_equal(RUN("tar", "-xOf", "x.tar", "d/a"), 0);
  OUT_IS("a\n");
  /* --strip-components, -k */
  vfs_rm_rf(h->vfs, h->cwd, "out");
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "out", 0755), 0);
  assert_int_equal(
      RUN("tar", "-xvf", "x.tar", "-C", "out", "--strip-components=1"), 0);
  OUT_IS("d/a\nd/empty\nd/sub/\nd/sub/bin\nd/sub/l\n");
  check_tree(h, "out", b, n);
  bh_write(h, "out/a", "mine\n");
  assert_int_equal(
      RUN("tar", "-xkf", "x.tar", "-C", "out", "--strip-components=1", "d/a"),
      2);
  ERR_IS("tar: a: Cannot open: File exists\n"
         "tar: Exiting with failure status due to previous errors\n");
  assert_file(h, "out/a", "mine\n", 5);
  /* the quotes follow the locale, as GNU's do */
  assert_int_equal(RUN("tar", "-xkf", "x.tar", "-C", "out",
                       "--strip-components=1", "d/sub/l"),
                   2);
  ERR_IS("tar: sub/l: Cannot create symlink to '../a': File exists\n"
         "tar: Exiting with failure status due to previous errors\n");
  bh_setenv(h, "LANG", "C.UTF-8");
  assert_int_equal(RUN("tar", "-xkf", "x.tar", "-C", "out",
                       "--strip-components=1", "d/sub/l"),
                   2);
  ERR_IS("tar: sub/l: Cannot create symlink to \xe2\x80\x98../a\xe2\x80\x99: "
         "File exists\n"
         "tar: Exiting with failure status due to previous errors\n");
  /* -r appends, -u only what is newer */
  bh_write(h, "new", "n\n");
  assert_int_equal(RUN("tar", "rf", "x.tar", "new"), 0);
  assert_int_equal(RUN("tar", "tf", "x.tar"), 0);
  OUT_IS("d/\nd/a\nd/empty\nd/sub/\nd/sub/bin\nd/sub/l\nnew\n");
  assert_int_equal(RUN("tar", "uf", "x.tar", "new"), 0);
  assert_int_equal(RUN("tar", "tf", "x.tar"), 0);
  OUT_IS("d/\nd/a\nd/empty\nd/sub/\nd/sub/bin\nd/sub/l\nnew\n");
  /* hard links are written once, then as links (GNU's "link to") */
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "hl", 0755), 0);
  bh_write(h, "hl/f", "x\n");
  assert_int_equal(vfs_link(h->vfs, h->cwd, "hl/f", "hl/g"), 0);
  set_mtime(h, "hl/f", T0);
  set_mtime(h, "hl", T0);
  assert_int_equal(RUN("tar", "cf", "h.tar", "hl"), 0);
  assert_int_equal(RUN("tar", "tvf", "h.tar"), 0);
  OUT_IS("drwxr-xr-x user/user         0 2024-01-02 03:04 hl/\n"
         "-rw-r--r-- user/user         2 2024-01-02 03:04 hl/f\n"
         "hrw-r--r-- user/user         0 2024-01-02 03:04 hl/g link to hl/f\n");
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "ho", 0755), 0);
  assert_int_equal(
      RUN("tar", "xf", "h.tar", "-C", "ho", "--strip-components=1"), 0);
  ERR_IS("");
  assert_int_equal(st_of(h, "ho/f").ino, st_of(h, "ho/g").ino);
  /* leading ../ is removed on creation too */
  assert_int_equal(RUN("tar", "cf", "u.tar", "../user/hl/f"), 0);
  ERR_IS("tar: Removing leading `../' from member names\n");
  assert_int_equal(RUN("tar", "tf", "u.tar"), 0);
  OUT_IS("user/hl/f\n");
  /* -f - both ways */
  assert_int_equal(RUN("tar", "-cf", "-", "d/a"), 0);
  size_t tl = h->out.len;
  char *tb = malloc(tl);
  memcpy(tb, h->out.data, tl);
  assert_int_equal(tl % 10240, 0);
  assert_int_equal(bh_runb(h, tb, tl, "tar", "-tvf", "-", NULL), 0);
  OUT_IS("-rw-r--r-- user/user         2 2024-01-02 03:04 d/a\n");
  free(tb);
  free(b);
  bh_free(h);
}

static void test_tar_messages(void **state) {
  (void)state;
  bh *h = bh_new();
  bh_write(h, "j.tar", "junk");
  bh_write(h, "f", "x");
  assert_int_equal(RUN("tar", "cf", "x.tar", "f"), 0);
  const bh_case cases[] = {
      BH_CASE(NULL, 2, "",
              "tar: nosuch.tar: Cannot open: No such file or directory\n"
              "tar: Error is not recoverable: exiting now\n",
              "tar", "xf", "nosuch.tar"),
      BH_CASE(NULL, 2, "",
              "tar: This does not look like a tar archive\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "xf", "j.tar"),
      BH_CASE(NULL, 2, "",
              "tar: This does not look like a tar archive\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "tf", "j.tar"),
      BH_CASE(NULL, 2, "",
              "tar: nosuch: Cannot stat: No such file or directory\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "cf", "y.tar", "nosuch", "f"),
      BH_CASE(NULL, 2, "",
              "tar: You must specify one of the '-Acdtrux', '--delete' or "
              "'--test-label' options\nTry 'tar --help' or 'tar --usage' for "
              "more information.\n",
              "tar"),
      BH_CASE(NULL, 64, "",
              "tar: invalid option -- 'q'\nTry 'tar --help' or 'tar --usage' "
              "for more information.\n",
              "tar", "-q"),
      BH_CASE(NULL, 2, "",
              "tar: Old option 'f' requires an argument.\nTry 'tar --help' or "
              "'tar --usage' for more information.\n",
              "tar", "cf"),
      BH_CASE(NULL, 2, "",
              "tar: nosuch: Not found in archive\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "xf", "x.tar", "nosuch"),
      BH_CASE(NULL, 0, "", "tar: Removing leading `/' from member names\n",
              "tar", "czf", "z.tgz", "/home/user/f"),
      BH_CASE(NULL, 0, "home/user/f\n", "", "tar", "tzf", "z.tgz"),
      BH_CASE(NULL, 2, "",
              "tar: Cannot update compressed archives\n"
              "tar: Error is not recoverable: exiting now\n",
              "tar", "-rzf", "z.tgz", "f"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* The hostile archives: what GNU tar 1.34 prints, and nothing written
 * outside the target. */
static void put_fixture(bh *h, const char *name, const unsigned char *gz,
                        size_t n) {
  bh_writen(h, name, gz, n);
}

static void test_tar_refusals(void **state) {
  (void)state;
  bh *h = bh_new();
  put_fixture(h, "abs.tgz", fx_abs_tar_gz, sizeof fx_abs_tar_gz);
  put_fixture(h, "dot.tgz", fx_dot_tar_gz, sizeof fx_dot_tar_gz);
  put_fixture(h, "sym.tgz", fx_sym_tar_gz, sizeof fx_sym_tar_gz);
  put_fixture(h, "sym2.tgz", fx_sym2_tar_gz, sizeof fx_sym2_tar_gz);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "t/a", 0755), 0);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "t/b", 0755), 0);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "t/c", 0755), 0);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "t/d", 0755), 0);
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "/etc/evil\n",
              "tar: Removing leading `/' from member names\n", "tar", "-xvf",
              "abs.tgz", "-C", "t/a"),
      BH_CASE(NULL, 0,
              "-rw-r--r-- user/user         2 2024-01-02 03:04 "
              "/etc/evil\n",
              "tar: Removing leading `/' from member names\n", "tar", "-tvf",
              "abs.tgz"),
      BH_CASE(NULL, 2, "ok\n",
              "tar: Removing leading `../' from member names\n"
              "tar: ../evil: Member name contains '..'\n"
              "tar: Removing leading `a/../../' from member names\n"
              "tar: a/../../evil2: Member name contains '..'\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "-xvf", "dot.tgz", "-C", "t/b"),
      BH_CASE(NULL, 0,
              "-rw-r--r-- user/user         2 2024-01-02 03:04 ../evil\n"
              "-rw-r--r-- user/user         2 2024-01-02 03:04 a/../../evil2\n"
              "-rw-r--r-- user/user         2 2024-01-02 03:04 ok\n",
              "tar: Removing leading `../' from member names\n"
              "tar: Removing leading `a/../../' from member names\n",
              "tar", "-tvf", "dot.tgz"),
      BH_CASE(NULL, 2, "l\nl/evil\n",
              "tar: l/evil: Cannot open: Not a directory\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "-xvf", "sym.tgz", "-C", "t/c"),
      BH_CASE(NULL, 0,
              "lrw-r--r-- user/user         0 2024-01-02 03:04 l -> /tmp\n"
              "-rw-r--r-- user/user         2 2024-01-02 03:04 l/evil\n",
              "", "tar", "-tvf", "sym.tgz"),
      BH_CASE(NULL, 2, "l\nl/evil\n",
              "tar: l/evil: Cannot open: Not a directory\n"
              "tar: Exiting with failure status due to previous errors\n",
              "tar", "-xvf", "sym2.tgz", "-C", "t/d"),
  };
  bh_check_all(h, cases);
  assert_true(exists(h, "t/a/etc/evil"));
  assert_false(exists(h, "/etc/evil"));
  assert_true(exists(h, "t/b/ok"));
  assert_false(exists(h, "t/evil") || exists(h, "evil") || exists(h, "evil2") ||
               exists(h, "t/evil2"));
  assert_int_equal(st_of(h, "t/c/l").type, VFS_LNK);
  assert_false(exists(h, "/tmp/evil"));
  assert_int_equal(st_of(h, "t/d/l").type, VFS_LNK);
  assert_false(exists(h, "t/evil"));
  bh_free(h);
}

/* ---- zip and unzip ------------------------------------------------------- */

static void test_zip(void **state) {
  (void)state;
  bh *h = bh_new();
  size_t n;
  char *b = binary(&n);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "d/sub", 0755), 0);
  bh_write(h, "d/a", "a\n");
  bh_write(h, "d/sub/b", "bb\n");
  bh_writen(h, "d/bin", b, n);
  bh_write(h, "d/empty", "");
  char seq[4000];
  size_t sl = 0;
  for (int i = 1; i <= 1000; i++)
    sl += (size_t)snprintf(seq + sl, sizeof seq - sl, "%d\n", i);
  bh_writen(h, "d/big", seq, sl);
  const char *names[] = {"d/a",   "d/sub/b", "d/sub", "d",
                         "d/bin", "d/empty", "d/big"};
  for (int i = 0; i < 7; i++)
    set_mtime(h, names[i], T0);
  assert_int_equal(RUN("zip", "-r", "x.zip", "d"), 0);
  OUT_IS("  adding: d/ (stored 0%)\n"
         "  adding: d/a (stored 0%)\n"
         "  adding: d/big (deflated 53%)\n"
         "  adding: d/bin (deflated 98%)\n"
         "  adding: d/empty (stored 0%)\n"
         "  adding: d/sub/ (stored 0%)\n"
         "  adding: d/sub/b (stored 0%)\n");
  assert_int_equal(RUN("unzip", "-l", "x.zip"), 0);
  OUT_IS("Archive:  x.zip\n"
         "  Length      Date    Time    Name\n"
         "---------  ---------- -----   ----\n"
         "        0  2024-01-02 03:04   d/\n"
         "        2  2024-01-02 03:04   d/a\n"
         "     3893  2024-01-02 03:04   d/big\n"
         "    70539  2024-01-02 03:04   d/bin\n"
         "        0  2024-01-02 03:04   d/empty\n"
         "        0  2024-01-02 03:04   d/sub/\n"
         "        3  2024-01-02 03:04   d/sub/b\n"
         "---------                     -------\n"
         "    74437                     7 files\n");
  assert_int_equal(RUN("unzip", "-p", "x.zip", "d/a"), 0);
  OUT_IS("a\n");
  assert_int_equal(RUN("unzip", "x.zip", "-d", "o2"), 0);
  OUT_IS("Archive:  x.zip\n"
         "   creating: o2/d/\n"
         " extracting: o2/d/a                  \n"
         "  inflating: o2/d/big                \n"
         "  inflating: o2/d/bin                \n"
         " extracting: o2/d/empty              \n"
         "   creating: o2/d/sub/\n"
         " extracting: o2/d/sub/b              \n");
  assert_file(h, "o2/d/bin", b, n);
  assert_file(h, "o2/d/big", seq, sl);
  assert_file(h, "o2/d/empty", "", 0);
  assert_int_equal(st_of(h, "o2/d/a").mtime_ns, T0);
  assert_int_equal(RUN("unzip", "x.zip", "-d", "o2"), 1);
  OUT_IS("Archive:  x.zip\n");
  ERR_IS("replace o2/d/a? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n"
         "(EOF or read error, treating as \"[N]one\" ...)\n");
  assert_int_equal(RUN("unzip", "-qo", "x.zip", "-d", "o2"), 0);
  OUT_IS("");
  bh_write(h, "j.zip", "junk");
  const bh_case cases[] = {
      BH_CASE(NULL, 9, "",
              "unzip:  cannot find or open nosuch.zip, nosuch.zip.zip or "
              "nosuch.zip.ZIP.\n",
              "unzip", "nosuch.zip"),
      BH_CASE(NULL, 9, "Archive:  j.zip\n",
              "  End-of-central-directory signature not found.  Either this "
              "file is not\n  a zipfile, or it constitutes one disk of a "
              "multi-part archive.  In the\n  latter case the central "
              "directory and zipfile comment will be found on\n  the last "
              "disk(s) of this archive.\nunzip:  cannot find zipfile "
              "directory in one of j.zip or\n        j.zip.zip, and cannot "
              "find j.zip.ZIP, period.\n",
              "unzip", "j.zip"),
      BH_CASE(NULL, 11,
              "Archive:  x.zip\n  Length      Date    Time    Name\n"
              "---------  ---------- -----   ----\n"
              "---------                     -------\n"
              "        0                     0 files\n",
              "", "unzip", "-l", "x.zip", "nosuch"),
      BH_CASE(NULL, 12, "\nzip error: Nothing to do! (z.zip)\n",
              "\tzip warning: name not matched: nosuchfile\n", "zip", "-q",
              "z.zip", "nosuchfile"),
      BH_CASE(NULL, 0, "updating: d/a (stored 0%)\n", "", "zip", "x.zip",
              "d/a"),
  };
  bh_check_all(h, cases);
  /* damaged deflate data: Info-ZIP's words and status 2 */
  {
    char sq[20000];
    size_t ql = 0;
    for (int i = 1; i <= 3000; i++)
      ql += (size_t)snprintf(sq + ql, sizeof sq - ql, "%d\n", i);
    bh_writen(h, "big", sq, ql);
    assert_int_equal(RUN("zip", "-q", "v.zip", "big"), 0);
    size_t vl = 0;
    char *v = bh_read(h, "v.zip", &vl);
    for (size_t i = 60; i < 200 && i < vl; i++)
      v[i] ^= 0x55;
    bh_writen(h, "y.zip", v, vl);
    free(v);
    assert_int_equal(RUN("unzip", "-o", "y.zip", "-d", "yo"), 2);
    OUT_IS("Archive:  y.zip\n  inflating: yo/big                  ");
    ERR_IS("\n  error:  invalid compressed data to inflate\n");
    assert_int_equal(RUN("unzip", "-p", "y.zip"), 2);
    ERR_IS("  error:  invalid compressed data to inflate big\n");
  }
  /* symlinks kept with -y, made last on extraction */
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "s", 0755), 0);
  bh_write(h, "s/a", "a\n");
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, "a", "s/l"), 0);
  assert_int_equal(RUN("zip", "-qry", "s.zip", "s"), 0);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "so", 0755), 0);
  assert_int_equal(RUN("unzip", "s.zip", "-d", "so"), 0);
  OUT_IS("Archive:  s.zip\n"
         "   creating: so/s/\n"
         " extracting: so/s/a                  \n"
         "    linking: so/s/l                  -> a \n"
         "finishing deferred symbolic links:\n"
         "  so/s/l                 -> a\n");
  assert_int_equal(st_of(h, "so/s/l").type, VFS_LNK);
  assert_int_equal(RUN("unzip", "-l", "s.zip", "s/l"), 0);
  assert_non_null(strstr(bh_out(h), "        1  "));
  /* hostile members */
  bh_writen(h, "evil.zip", fx_evil_zip, sizeof fx_evil_zip);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "z", 0755), 0);
  assert_int_equal(RUN("unzip", "evil.zip", "-d", "z"), 1);
  OUT_IS("Archive:  evil.zip\n"
         " extracting: z/evil                  \n"
         " extracting: z/abs                   \n"
         " extracting: z/ok                    \n");
  ERR_IS("warning:  skipped \"../\" path component(s) in ../evil\n");
  assert_true(exists(h, "z/evil") && exists(h, "z/abs") && exists(h, "z/ok"));
  assert_false(exists(h, "evil") || exists(h, "/abs"));
  free(b);
  bh_free(h);
}

/* -v as each tool words it (recorded from gzip, bzip2 and xz). */
static void test_verbose(void **state) {
  (void)state;
  bh *h = bh_new();
  bh_write(h, "f", "hello\n");
  const bh_case cases[] = {
      BH_CASE(NULL, 0, NULL, "f:\t-33.3% -- replaced with stdout\n", "gzip",
              "-cv", "f"),
      BH_CASE(NULL, 0, "", "f:\t-33.3% -- created f.gz\n", "gzip", "-kv", "f"),
      BH_CASE(NULL, 0, "", "f.gz:\t OK\n", "gzip", "-tv", "f.gz"),
      BH_CASE(NULL, 0, "hello\n", "f.gz:\t-33.3% -- replaced with stdout\n",
              "gzip", "-dcv", "f.gz"),
      BH_CASE(NULL, 0, "",
              "  f:        0.143:1, 56.000 bits/byte, -600.00% saved, 6 in, "
              "42 out.\n",
              "bzip2", "-kv", "f"),
      BH_CASE(NULL, 0, "", "  f.bz2:   ok\n", "bzip2", "-tv", "f.bz2"),
      BH_CASE(NULL, 0, "", "  f.bz2:   done\n", "bzip2", "-dkvf", "f.bz2"),
      BH_CASE(NULL, 0, "", "f: 64 B / 6 B > 9.999\n", "xz", "-kv", "f"),
      BH_CASE(NULL, 0, "", "f.xz: 64 B / 6 B > 9.999\n", "xz", "-tv", "f.xz"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void test_help_and_version(void **state) {
  (void)state;
  bh *h = bh_new();
  static const char *const cmds[] = {"gzip",    "gunzip", "zcat", "bzip2",
                                     "bunzip2", "bzcat",  "xz",   "unxz",
                                     "xzcat",   "tar",    "zip",  "unzip"};
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    assert_int_equal(RUN(cmds[i], "--help"), 0);
    assert_true(strncmp(bh_out(h), "Usage: ", 7) == 0);
    assert_int_equal(RUN(cmds[i], "--version"), 0);
    assert_non_null(strstr(bh_out(h), "vsh"));
    assert_null(strstr(bh_out(h), "GNU"));
  }
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gzip_bytes_and_list),
      cmocka_unit_test(test_gzip_round_trip),
      cmocka_unit_test(test_gzip_messages),
      cmocka_unit_test(test_bzip2),
      cmocka_unit_test(test_xz),
      cmocka_unit_test(test_bomb),
      cmocka_unit_test(test_tar_round_trip),
      cmocka_unit_test(test_tar_messages),
      cmocka_unit_test(test_tar_refusals),
      cmocka_unit_test(test_zip),
      cmocka_unit_test(test_verbose),
      cmocka_unit_test(test_help_and_version),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
