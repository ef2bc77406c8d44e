/* usage.c - the human-readable sizes of du and df (see usage.h). */
#include <stdio.h>

#include "builtins/files/usage.h"

/* GNU's human_ceiling autoscale in powers of 1024: "0", "512", "4.0K",
 * "16K", "1.5M". */
void fu_human_ceil(uint64_t v, char *out, size_t n) {
  static const char units[] = "KMGTPEZY";
  if (v < 1024) {
    snprintf(out, n, "%llu", (unsigned long long)v);
    return;
  }
  int u = -1;
  uint64_t div = 1;
  while (u < 7 && v / div >= 1024) {
    div *= 1024;
    u++;
  }
  /* tenths, rounded up */
  uint64_t whole = v / div, rem = v % div;
  if (whole < 10) {
    uint64_t tenths = whole * 10 + (rem * 10 + div - 1) / div;
    if (tenths < 100) {
      snprintf(out, n, "%llu.%llu%c", (unsigned long long)(tenths / 10),
               (unsigned long long)(tenths % 10), units[u]);
      return;
    }
    whole = 10;
    rem = 0;
  } else if (rem) {
    whole++;
  }
  if (whole >= 1024 && u < 7) {
    snprintf(out, n, "1.0%c", units[u + 1]);
    return;
  }
  snprintf(out, n, "%llu%c", (unsigned long long)whole, units[u]);
}
