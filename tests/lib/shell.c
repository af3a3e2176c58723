#include "shell.h"
#include "run.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A shell line builds, optimizes or benchmarks; the suite's own test
 * timeout is the limit that matters, this one only keeps a lost child
 * from holding the harness forever. */
#define SHELL_TIMEOUT_S 3600

#define LINE_MAX_LEN 9000

static void format_line(char *cmd, const char *fmt, va_list ap)
{
	int n = vsnprintf(cmd, LINE_MAX_LEN, fmt, ap);
	cr_assert(n >= 0 && n < LINE_MAX_LEN, "shell line too long: %.80s...", cmd);
}

static struct shell_result run_line(char *cmd)
{
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	struct run_opts o = {.timeout_s = SHELL_TIMEOUT_S};
	struct run_result r;
	cr_assert(run_program(&r, argv, &o) == 0, "cannot run /bin/sh -c %s", cmd);
	struct shell_result s = {.out = r.out, .err = r.err};
	if (r.exited)
		s.status = r.exit_code;
	else if (r.signaled)
		s.status = 128 + r.signo;
	else
		s.status = 128 + 9; /* killed at the timeout */
	return s;
}

static struct shell_result vshell(const char *fmt, va_list ap)
{
	char cmd[LINE_MAX_LEN];
	format_line(cmd, fmt, ap);
	return run_line(cmd);
}

struct shell_result shell(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct shell_result s = vshell(fmt, ap);
	va_end(ap);
	return s;
}

void shell_ok(const char *what, const char *fmt, ...)
{
	char cmd[LINE_MAX_LEN];
	va_list ap;
	va_start(ap, fmt);
	format_line(cmd, fmt, ap);
	va_end(ap);
	struct shell_result s = run_line(cmd);
	cr_assert_eq(s.status, 0, "%s%s`%s` exited %d\n--- stdout:\n%s--- stderr:\n%s", what ? what : "",
		     what ? ": " : "", cmd, s.status, s.out, s.err);
	shell_result_free(&s);
}

void shell_result_free(struct shell_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int shell_status(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct shell_result s = vshell(fmt, ap);
	va_end(ap);
	shell_result_free(&s);
	return s.status;
}

char *command_output(const char *const *argv)
{
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0, "cannot run %s", argv[0]);
	cr_assert(r.exited && r.exit_code == 0, "%s: %s\n%s", argv[0], run_describe(&r), r.err);
	free(r.err);
	return r.out;
}
