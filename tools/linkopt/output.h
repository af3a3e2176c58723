/* Replacing a file atomically: temporary file in the same directory,
 * original mode, owner and timestamps, then rename(2). */
#ifndef LINKOPT_OUTPUT_H
#define LINKOPT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

int write_atomic(const char *dst, const struct stat *like, const uint8_t *buf, size_t len, char *err, size_t errlen);

#endif
