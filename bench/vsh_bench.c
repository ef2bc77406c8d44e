/*
 * vsh_bench.c - runs the shared benchmark workloads in-process, the way the
 * peer runners in ../shared/bench do, and prints the same JSON lines:
 *
 *   vsh-bench DATA_DIR WORKLOAD_DIR [REPS]
 *
 * The data folder is loaded into a sandbox at /data (files read from the
 * host once, written into the VFS), each workload runs with cwd /data.
 * 01 and 02 are repeated 200 times per measurement and divided (they
 * measure the cost of one tiny exec). The output fingerprint hashes stdout
 * as host bash's runner does ($(...) strips trailing newlines, then one is
 * added), so results are comparable across engines.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "vsh.h"

/* SHA-256 of data into out[32] through libcrypto; exits on failure, since a
 * report without fingerprints could not be compared. */
static void fingerprint(const void *data, size_t len, unsigned char out[32]) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  unsigned int n = 0;
  int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) &&
           EVP_DigestUpdate(ctx, data, len) &&
           EVP_DigestFinal_ex(ctx, out, &n) && n == 32;
  EVP_MD_CTX_free(ctx);
  if (!ok) {
    fprintf(stderr, "vsh-bench: libcrypto could not compute SHA-256\n");
    exit(1);
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  if (p)
    p[n] = 0;
  *len = (size_t)n;
  return p;
}

/* Copy a host tree into the sandbox under vdir. */
static int load_tree(vsh_sandbox *sb, const char *host, const char *vdir) {
  DIR *d = opendir(host);
  if (!d)
    return -1;
  vsh_mkdir(sb, vdir, VSH_RECURSIVE);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char hp[4096], vp[4096];
    snprintf(hp, sizeof hp, "%s/%s", host, e->d_name);
    snprintf(vp, sizeof vp, "%s/%s", vdir, e->d_name);
    struct stat st;
    if (stat(hp, &st))
      continue;
    if (S_ISDIR(st.st_mode)) {
      load_tree(sb, hp, vp);
    } else if (S_ISREG(st.st_mode)) {
      size_t n;
      char *p = slurp(hp, &n);
      if (p) {
        vsh_write_file(sb, vp, p, n, 0644);
        free(p);
      }
    }
  }
  closedir(d);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void json_str(const char *p, size_t n) {
  putchar('"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c == '\n')
      printf("\\n");
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static vsh_sandbox *open_big(void) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = "/";
  cfg.limits.max_commands = 1000000000;
  cfg.limits.max_loop_iterations = 1000000000;
  cfg.limits.timeout_ms = 600000;
  cfg.limits.max_memory = (uint64_t)4 << 30;
  cfg.limits.max_output_bytes = (uint64_t)1 << 30;
  vsh_sandbox *sb = NULL;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return NULL;
  return sb;
}

/* Resident set size of this process in KiB (/proc/self/statm). */
static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (!f)
    return -1;
  if (fscanf(f, "%ld %ld", &size, &res) != 2)
    res = -1;
  fclose(f);
  return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* 00-idle-sandbox: the memory an open, idle sandbox holds, as the growth
 * of the resident set over IDLE_N sandboxes opened side by side with the
 * default configuration, divided by IDLE_N. All of them must open. */
#define IDLE_N 10000
static int idle_sandboxes(void) {
  vsh_sandbox **all = calloc(IDLE_N, sizeof *all);
  if (!all)
    return 1;
  vsh_close(open_big()); /* anything built once per process */
  long before = rss_kb();
  double t0 = now_ms();
  int ok = 1;
  for (int i = 0; i < IDLE_N && ok; i++)
    ok = vsh_open(NULL, &all[i]) == VSH_OK;
  double t1 = now_ms();
  long after = rss_kb();
  for (int i = 0; i < IDLE_N; i++)
    vsh_close(all[i]);
  free(all);
  if (!ok) {
    fprintf(stderr, "vsh-bench: cannot open %d sandboxes\n", IDLE_N);
    return 1;
  }
  printf("{\"workload\":\"00-idle-sandbox\",\"median_ms\":%.4f,"
         "\"kb\":%.1f,\"sandboxes\":%d}\n",
         (t1 - t0) / IDLE_N, (double)(after - before) / IDLE_N, IDLE_N);
  fflush(stdout);
  return 0;
}

/* 00-hydrate-10k / 00-hydrate-100k: a tar made here, in memory, of nfiles
 * small files spread over 1,000 folders (file members only: the folders
 * come from their files' paths, as GNU tar makes them), hydrated into a
 * fresh sandbox; the median of reps hydrates (opening is not timed). */
static void tar_octal(char *f, size_t w, unsigned long long x) {
  snprintf(f, w, "%0*llo", (int)w - 1, x);
}

static size_t tar_member(char *out, const char *name, const char *data,
                         size_t len) {
  char *h = out;
  memset(h, 0, 512);
  snprintf(h, 100, "%s", name);
  tar_octal(h + 100, 8, 0644);
  tar_octal(h + 108, 8, 1000);
  tar_octal(h + 116, 8, 1000);
  tar_octal(h + 124, 12, len);
  tar_octal(h + 136, 12, 1700000000);
  h[156] = '0';
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += (unsigned char)h[i];
  snprintf(h + 148, 8, "%06o", sum);
  memcpy(h + 512, data, len);
  size_t padded = (len + 511) / 512 * 512;
  memset(h + 512 + len, 0, padded - len);
  return 512 + padded;
}

static char *make_tar(int nfiles, size_t *len) {
  size_t cap = (size_t)nfiles * 1024 + 1024, n = 0;
  char *t = malloc(cap);
  if (!t)
    return NULL;
  int per = nfiles / 1000 ? nfiles / 1000 : 1;
  for (int i = 0; i < nfiles; i++) {
    char name[64], data[64];
    snprintf(name, sizeof name, "d%03d/f%06d.txt", i / per % 1000, i);
    int dl = snprintf(data, sizeof data, "file %d of %d\n", i, nfiles);
    n += tar_member(t + n, name, data, (size_t)dl);
  }
  memset(t + n, 0, 1024);
  *len = n + 1024;
  return t;
}

static int hydrate_bench(const char *name, int nfiles, int reps) {
  size_t len = 0;
  char *tar = make_tar(nfiles, &len);
  double *t = calloc((size_t)reps, sizeof *t);
  if (!tar || !t)
    return 1;
  /* One untimed hydrate first (a warm-up): the
   * timed ones then find the process's heap in the state a host that keeps
   * hydrating sandboxes sees, whichever workload ran before. */
  for (int r = -1; r < reps; r++) {
    vsh_sandbox *sb = open_big();
    double t0 = now_ms();
    vsh_status st = sb ? vsh_hydrate(sb, "/w", tar, len) : VSH_NOMEM;
    if (r >= 0)
      t[r] = now_ms() - t0;
    if (st != VSH_OK) {
      fprintf(stderr, "vsh-bench: hydrate %s: %s\n", name,
              sb ? vsh_errmsg(sb) : "no sandbox");
      return 1;
    }
    vsh_close(sb);
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  printf("{\"workload\":\"%s\",\"median_ms\":%.3f,\"files\":%d}\n", name,
         t[(reps - 1) / 2], nfiles);
  fflush(stdout);
  free(t);
  free(tar);
  return 0;
}

static int hydrate_benches(int reps) {
  return hydrate_bench("00-hydrate-10k", 10000, reps) ||
         hydrate_bench("00-hydrate-100k", 100000, reps);
}

int main(int argc, char **argv) {
  /* --hydrate [FILES [REPS]]: only the hydrate workloads, or one of FILES
   * files (for profiling) */
  if (argc > 1 && !strcmp(argv[1], "--hydrate")) {
    int files = argc > 2 ? atoi(argv[2]) : 0;
    int r = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 1;
    return files > 0 ? hydrate_bench("00-hydrate", files, r)
                     : hydrate_benches(r);
  }
  if (argc < 3) {
    fprintf(stderr, "usage: vsh-bench DATA_DIR WORKLOAD_DIR [REPS]\n"
                    "       vsh-bench --hydrate [FILES [REPS]]\n");
    return 2;
  }
  const char *data = argv[1], *wl = argv[2];
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  if (reps < 1)
    reps = 1;

  /* 00: the cost of creating an empty sandbox (the first one, which may
   * build what later ones share, is left out). */
  const int N = 2000;
  vsh_close(open_big());
  double t0 = now_ms();
  for (int i = 0; i < N; i++) {
    vsh_sandbox *sb = open_big();
    vsh_close(sb);
  }
  printf("{\"workload\":\"00-create-empty\",\"median_ms\":%.4f}\n",
         (now_ms() - t0) / N);
  if (idle_sandboxes())
    return 1;

  /* 00-create-with-data: a sandbox with the data folder copied in by the
   * batch import (the median of reps loads); the file-by-file way the
   * peers' runners use is reported beside it. */
  double *lt = calloc((size_t)reps + 1, sizeof *lt);
  vsh_sandbox *sb = NULL;
  for (int r = 0; r < reps; r++) {
    if (sb)
      vsh_close(sb);
    t0 = now_ms();
    sb = open_big();
    if (!sb || vsh_import_dir(sb, data, "/data") != VSH_OK) {
      fprintf(stderr, "vsh-bench: cannot load %s: %s\n", data,
              sb ? vsh_errmsg(sb) : "no sandbox");
      return 1;
    }
    lt[r] = now_ms() - t0;
  }
  qsort(lt, (size_t)reps, sizeof *lt, cmp_double);
  printf("{\"workload\":\"00-create-with-data\",\"median_ms\":%.3f}\n",
         lt[(reps - 1) / 2]);
  {
    t0 = now_ms();
    vsh_sandbox *one = open_big();
    if (!one || load_tree(one, data, "/data")) {
      fprintf(stderr, "vsh-bench: cannot load %s\n", data);
      return 1;
    }
    printf("{\"workload\":\"00-create-per-file\","
           "\"median_ms\":%.3f}\n",
           now_ms() - t0);
    vsh_close(one);
  }
  free(lt);
  if (hydrate_benches(reps))
    return 1;

  struct dirent **ents;
  int ne = scandir(wl, &ents, NULL, by_name);
  if (ne < 0) {
    perror(wl);
    return 1;
  }
  vsh_exec_opts o = {0};
  o.cwd = "/data";
  for (int i = 0; i < ne; i++) {
    const char *nm = ents[i]->d_name;
    size_t nl = strlen(nm);
    if (nl < 4 || strcmp(nm + nl - 3, ".sh") != 0)
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", wl, nm);
    size_t slen;
    char *script = slurp(path, &slen);
    if (!script)
      continue;
    int inner = (!strncmp(nm, "01", 2) || !strncmp(nm, "02", 2)) ? 200 : 1;
    double *times = calloc((size_t)reps, sizeof *times);
    vsh_result res = {0};
    for (int r = 0; r <= reps; r++) {
      double s = now_ms();
      for (int k = 0; k < inner; k++) {
        vsh_result_free(&res);
        vsh_exec_n(sb, script, slen, &o, &res);
      }
      double e = now_ms();
      if (r > 0)
        times[r - 1] = (e - s) / inner;
    }
    qsort(times, (size_t)reps, sizeof *times, cmp_double);
    /* Fingerprint like `printf '%s\n' "$(...)"`. */
    size_t on = res.out_len;
    while (on && res.out[on - 1] == '\n')
      on--;
    char *h = malloc(on + 1);
    memcpy(h, res.out, on);
    h[on] = '\n';
    unsigned char dig[32];
    fingerprint(h, on + 1, dig);
    free(h);
    char hex[13];
    for (int k = 0; k < 6; k++)
      snprintf(hex + 2 * k, 3, "%02x", dig[k]);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(nl - 3), nm);
    printf("{\"workload\":\"%s\",\"median_ms\":%.4f,\"exit\":%d,"
           "\"out_sha\":\"%s\",\"out_head\":",
           name, times[(reps - 1) / 2], res.status, hex);
    json_str(res.out, res.out_len > 60 ? 60 : res.out_len);
    printf(",\"err\":");
    json_str(res.err, res.err_len > 200 ? 200 : res.err_len);
    printf("}\n");
    fflush(stdout);
    vsh_result_free(&res);
    free(times);
    free(script);
  }
  for (int i = 0; i < ne; i++)
    free(ents[i]);
  free(ents);
  vsh_close(sb);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("{\"workload\":\"rss_mb\",\"median_ms\":%.1f}\n",
         (double)ru.ru_maxrss / 1024.0);
  return 0;
}
