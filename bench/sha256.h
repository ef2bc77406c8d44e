/* sha256.h - SHA-256 for output fingerprints in benchmark reports. */
#ifndef VSH_BENCH_SHA256_H
#define VSH_BENCH_SHA256_H
#include <stddef.h>
#include <stdint.h>
void bench_sha256(const void *data, size_t len, uint8_t out[32]);
#endif
