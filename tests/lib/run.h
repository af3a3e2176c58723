/* Run a program to completion and capture what it did: stdout, stderr and
 * how it ended. Generic: any suite that needs to exec a real program uses it. */
#ifndef QB_TESTS_LIB_RUN_H
#define QB_TESTS_LIB_RUN_H

#include <stddef.h>
#include <stdlib.h>

struct run_result {
	int exited;        /* 1: ended with _exit/exit, exit_code is valid */
	int exit_code;
	int signaled;      /* 1: killed by a signal, signo is valid */
	int signo;
	int timed_out;     /* 1: the harness killed it (see run_opts.timeout_s) */
	char *out;         /* NUL-terminated captured stdout */
	size_t out_len;
	char *err;         /* NUL-terminated captured stderr */
	size_t err_len;
};

struct run_opts {
	const char *cwd;          /* NULL: inherit */
	char *const *envp;        /* NULL: inherit the harness's environment */
	const char *stdin_text;   /* NULL: stdin is /dev/null */
	int timeout_s;            /* 0: 60 s; a hung child is killed, never waited on forever */
};

/* Runs argv[0] (execve, no PATH search) with argv. Returns 0 when the child
 * was started and reaped (whatever its fate, see *r), -1 with errno when the
 * harness itself failed (fork, pipe, exec of a missing file reports as
 * exit_code 126/127 with a message on err, like a shell). */
int run_program(struct run_result *r, char *const argv[], const struct run_opts *o);

void run_result_free(struct run_result *r);

/* A readable one-line account of how the program ended ("exit 0",
 * "signal 11 (Segmentation fault)", "timeout"), in a static buffer. */
const char *run_describe(const struct run_result *r);

/* Number of '\n'-terminated lines in s (a trailing unterminated fragment
 * counts as a line). */
int count_lines(const char *s);

/* A NULL-terminated environment: every "NAME=value" of extra (NULL-terminated,
 * may be NULL) on top of base (NULL-terminated, may be NULL). Entries of base
 * whose NAME appears in extra are dropped. Free with env_free. */
char **env_build(char *const *base, char *const *extra);
void env_free(char **env);

/* The small fixed environment programs under test start from, so that a
 * run sees the same input whatever the environment of `make check` is:
 * PATH=/usr/bin:/bin and LC_ALL=C. */
extern char *const run_base_env[];

/* A test binary whose programs all run with glibc's dlclose (the loader's
 * LD_DLCLOSE=unload; musl's, the default, never unloads): put this at file
 * scope once; env_build passes the harness's LD_DLCLOSE on. */
#define QBT_UNLOAD_MODE \
	__attribute__((constructor)) static void qbt_unload_mode(void) \
	{ \
		setenv("LD_DLCLOSE", "unload", 1); \
	}

/* Non-zero when i386 programs run under qemu-user through binfmt_misc
 * (scripts/i386-exec.sh registers it where the kernel cannot run them,
 * scripts/i386-qemu.sh in a namespace of its own): they run correctly,
 * but gdb and valgrind cannot trace them, they get no vDSO, and qemu
 * lays out their memory itself. */
int i386_exec_emulated(void);

/* A test of what only a natively run i386 process has: when the process
 * would be emulated, Criterion reports the test skipped, with why. */
#define SKIP_IF_I386_EMULATED(is_i386, why) \
	do { \
		if ((is_i386) && i386_exec_emulated()) \
			cr_skip_test("i386 runs under qemu-user on this machine: %s", why); \
	} while (0)

#endif
