/* usage.c - the human-readable sizes of du and df (see usage.h). */
#include <stdio.h>
#include <string.h>

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

int fu_block_size(const char *s, uint64_t *bs, char *suffix, size_t n) {
  static const char units[] = "KMGTPEZY";
  uint64_t num = 1;
  int have_num = 0;
  if (n)
    suffix[0] = 0;
  if (*s >= '0' && *s <= '9') {
    num = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
      if (num > (UINT64_MAX - 9) / 10)
        return -1;
      num = num * 10 + (uint64_t)(*s - '0');
    }
    have_num = 1;
  }
  uint64_t mul = 1;
  if (*s) {
    const char *u = strchr(units, *s == 'k' ? 'K' : *s);
    if (!u || !*u)
      return -1;
    unsigned base = 1024;
    int si = !strcmp(s + 1, "B");
    if (si)
      base = 1000;
    else if (s[1] && strcmp(s + 1, "iB"))
      return -1;
    for (int i = 0; i <= (int)(u - units); i++) {
      if (mul > UINT64_MAX / base)
        return -1;
      mul *= base;
    }
    if (!have_num && n >= 4) {
      if (si && *u == 'K')
        snprintf(suffix, n, "kB");
      else
        snprintf(suffix, n, "%c%s", *u, si ? "B" : s[1] ? "iB" : "");
    }
  } else if (!have_num) {
    return -1;
  }
  if (num == 0 || (mul && num > UINT64_MAX / mul))
    return -1;
  *bs = num * mul;
  return 0;
}
