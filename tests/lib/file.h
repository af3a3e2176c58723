/* Files as the suites read and compare them: whole, in memory. */
#ifndef QB_TESTS_LIB_FILE_H
#define QB_TESTS_LIB_FILE_H

#include <stddef.h>

/* The whole of path, NUL-terminated (a binary file may hold more NULs:
 * *len, when len is not NULL, says how much was read); NULL when it cannot
 * be read. Free it. */
char *read_file(const char *path, size_t *len);

/* read_file, failing the test when the file cannot be read. */
char *must_read_file(const char *path, size_t *len);

/* Non-zero when both files can be read and hold the same bytes. */
int same_file(const char *a, const char *b);

/* A new directory made from tmpl (mkdtemp's XXXXXX at its end; NULL:
 * one under /tmp), failing the test when it cannot be made. Free it. */
char *make_tmpdir(const char *tmpl);

#endif
