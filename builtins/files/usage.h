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

#endif
