/* Commands as the suites write them: a shell line, or an argument vector
 * whose output is all that matters. Both run through run_program. */
#ifndef QB_TESTS_LIB_SHELL_H
#define QB_TESTS_LIB_SHELL_H

struct shell_result {
	int status;      /* exit status, or 128+signal */
	char *out, *err; /* NUL-terminated captured output */
};

/* Runs /bin/sh -c with the line built from fmt, in the harness's
 * directory and environment, stdin /dev/null; fails the test when it
 * cannot be started. */
struct shell_result shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void shell_result_free(struct shell_result *r);

/* shell(), failing the test unless the line exits 0; the failure names
 * what (may be NULL), the line, its status and its output. */
void shell_ok(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* shell() when only the exit status matters (the output is dropped). */
int shell_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* stdout of argv (no PATH search), asserted to exit 0. Free it. */
char *command_output(const char *const *argv);

#endif
