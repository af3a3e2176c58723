/* Helpers for the linkopt integration tests: temporary directories,
 * running commands with captured output, reading files. */
#ifndef LINKOPT_TEST_UTIL_H
#define LINKOPT_TEST_UTIL_H

#include <stddef.h>

struct run {
	int status;      /* exit status, or 128+signal */
	char *out, *err; /* NUL-terminated captured output */
};

char *lot_tmpdir(void);
/* Copies the fixture files of a variant into dir. */
void lot_copy_variant(const char *variant, const char *dir);
/* Runs a shell command line built from fmt. */
struct run lot_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lot_run_free(struct run *r);
char *lot_read(const char *path, size_t *len);
int lot_same_file(const char *a, const char *b);
/* Command prefix that runs a variant's program under its stock loader. */
const char *lot_loader_prefix(const char *variant);
unsigned lot_count_lines(const char *s);
/* First line of after that is not a line of before, or NULL. */
const char *lot_new_line(const char *before, const char *after);

#endif
