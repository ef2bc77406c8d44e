/*
 * usage.h - what du and df share: sizes in GNU's human-readable form.
 */
#ifndef VSH_BUILTINS_FILES_USAGE_H
#define VSH_BUILTINS_FILES_USAGE_H

#include <stddef.h>
#include <stdint.h>

/* v bytes as GNU's -h prints them (powers of 1024, rounded up): "0",
 * "512", "4.0K", "16K", "1.5M". */
void fu_human_ceil(uint64_t v, char *out, size_t n);

/* A --block-size (-B) value: [NUMBER][UNIT], UNIT one of K M G T P E Z Y
 * (powers of 1024; with "iB" too) or the same followed by B (powers of
 * 1000, as "kB"). *bs gets the bytes of one unit; suffix gets what GNU
 * prints after each size: the unit when no NUMBER was given ("M", "kB"),
 * else nothing. 0, or -1 when invalid. */
int fu_block_size(const char *s, uint64_t *bs, char *suffix, size_t n);

#endif
