/*
 * vfs_bench.c - snapshot, restore and fork of a large sandbox.
 *
 *   vsh-vfs-bench [FILES] [BYTES_PER_FILE]   (default 100000 x 10,000 B:
 *                                             1 GB of content)
 *
 * Fills a sandbox, then times vsh_snapshot_take, vsh_fork and vsh_restore
 * (median of many runs, microseconds) and reports how much memory the
 * sandbox allocator holds before and after: a fork or snapshot must cost
 * O(1) in time and memory, and a write after the fork must add only about
 * what was written. Prints JSON lines like the workload runner.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vsh.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define RUNS 101

int main(int argc, char **argv) {
  long nfiles = argc > 1 ? atol(argv[1]) : 100000;
  long fsize = argc > 2 ? atol(argv[2]) : 10000;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_memory = (uint64_t)8 << 30;
  cfg.limits.max_fs_bytes = (uint64_t)4 << 30;
  cfg.limits.max_fs_inodes = 2000000;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK) {
    fprintf(stderr, "vsh-vfs-bench: cannot open a sandbox\n");
    return 1;
  }
  char *content = malloc((size_t)fsize);
  memset(content, 'x', (size_t)fsize);
  double t0 = now_us();
  char path[256];
  for (long i = 0; i < nfiles; i++) {
    if (i % 1000 == 0) {
      snprintf(path, sizeof path, "/data/d%ld", i / 1000);
      vsh_mkdir(sb, path, VSH_RECURSIVE);
    }
    snprintf(path, sizeof path, "/data/d%ld/f%ld", i / 1000, i);
    memcpy(content, &i, sizeof i); /* distinct contents */
    if (vsh_write_file(sb, path, content, (size_t)fsize, 0644) != VSH_OK) {
      fprintf(stderr, "write %s: %s\n", path, vsh_errmsg(sb));
      return 1;
    }
  }
  printf("{\"workload\":\"fill\",\"files\":%ld,\"bytes\":%ld,\"ms\":%.1f,"
         "\"mem_mb\":%.1f}\n",
         nfiles, nfiles * fsize, (now_us() - t0) / 1e3,
         (double)vsh_memory_used(sb) / 1048576.0);

  double t[RUNS];
  size_t before = vsh_memory_used(sb);
  vsh_snapshot *snaps[RUNS];
  for (int r = 0; r < RUNS; r++) {
    double s = now_us();
    vsh_snapshot_take(sb, &snaps[r]);
    t[r] = now_us() - s;
  }
  size_t after = vsh_memory_used(sb);
  qsort(t, RUNS, sizeof *t, cmp);
  printf("{\"workload\":\"snapshot\",\"median_us\":%.3f,\"bytes_per_op\":%.0f}\n",
         t[RUNS / 2], (double)(after - before) / RUNS);
  for (int r = 1; r < RUNS; r++)
    vsh_snapshot_free(snaps[r]);

  vsh_sandbox *forks[RUNS];
  before = vsh_memory_used(sb);
  for (int r = 0; r < RUNS; r++) {
    double s = now_us();
    vsh_fork(sb, &forks[r]);
    t[r] = now_us() - s;
  }
  qsort(t, RUNS, sizeof *t, cmp);
  size_t fork_mem = 0;
  for (int r = 0; r < RUNS; r++)
    fork_mem += vsh_memory_used(forks[r]);
  printf("{\"workload\":\"fork\",\"median_us\":%.3f,\"fork_mem_bytes\":%.0f}\n",
         t[RUNS / 2], (double)fork_mem / RUNS);

  /* A write in a fork costs about what is written, not the tree. */
  size_t fm = vsh_memory_used(forks[0]);
  vsh_write_file(forks[0], "/data/d0/f0", "changed", 7, 0644);
  printf("{\"workload\":\"write_after_fork\",\"mem_growth_bytes\":%zu}\n",
         vsh_memory_used(forks[0]) - fm);
  char *back;
  size_t blen;
  vsh_read_file(sb, "/data/d0/f0", &back, &blen);
  printf("{\"workload\":\"parent_unchanged\",\"ok\":%s}\n",
         blen == (size_t)fsize ? "true" : "false");
  vsh_free(sb, back);
  for (int r = 0; r < RUNS; r++)
    vsh_close(forks[r]);

  for (int r = 0; r < RUNS; r++) {
    double s = now_us();
    vsh_restore(sb, snaps[0]);
    t[r] = now_us() - s;
    vsh_write_file(sb, "/data/d0/f1", "dirty", 5, 0644);
  }
  qsort(t, RUNS, sizeof *t, cmp);
  printf("{\"workload\":\"restore\",\"median_us\":%.3f}\n", t[RUNS / 2]);
  vsh_snapshot_free(snaps[0]);
  vsh_close(sb);
  free(content);
  return 0;
}
