/*
 * replay_main.c - a main() for fuzz targets built without libFuzzer: runs
 * LLVMFuzzerTestOneInput on every file named on the command line, so CI can
 * replay a corpus with any compiler. Each line gives the input's size and
 * the wall time it took, so the slow inputs of a grown corpus (what sets a
 * fuzzing run's pace) can be found with sort.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  int failed = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      failed = 1;
      continue;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    LLVMFuzzerTestOneInput(buf, got);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(buf);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("ok %s (%zu bytes, %.3f ms)\n", argv[i], got, ms);
  }
  return failed;
}
