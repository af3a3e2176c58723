/* Replacing a file atomically: temporary file in the same directory with
 * the original's owner, mode (set-id bits included), extended attributes
 * (capabilities, ACLs) and times, then rename(2). */
#ifndef LINKOPT_OUTPUT_H
#define LINKOPT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* like: attributes to give dst; src: file whose extended attributes are
 * copied (NULL: none). A dst with several hard links is refused. */
int write_atomic(const char *dst, const char *src, const struct stat *like, const uint8_t *buf, size_t len,
		 char *err, size_t errlen);

#endif
