#define _GNU_SOURCE
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct buf {
	char *p;
	size_t len, cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
	return 0;
}

static void child(char *const argv[], const struct run_opts *o, int out, int err, int in)
{
	dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "harness: chdir %s: %s\n", o->cwd, strerror(errno));
		_exit(126);
	}
	/* The parent may run under a test framework that blocks or ignores
	 * signals; the program must start with default dispositions. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	extern char **environ;
	execve(argv[0], argv, o->envp ? o->envp : environ);
	dprintf(2, "harness: exec %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int run_program(struct run_result *r, char *const argv[], const struct run_opts *opts)
{
	static const struct run_opts defaults;
	const struct run_opts *o = opts ? opts : &defaults;
	int po[2], pe[2], pi[2];
	struct buf out = {0}, err = {0};

	memset(r, 0, sizeof *r);
	if (pipe2(po, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(pe, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(pi, O_CLOEXEC) < 0)
		return -1;

	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(argv, o, po[1], pe[1], pi[0]);
	close(po[1]);
	close(pe[1]);
	close(pi[0]);

	/* stdin text is small (test input); write it whole then close, so the
	 * program sees EOF. A program that exits early gets EPIPE, ignored. */
	if (o->stdin_text) {
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		size_t n = strlen(o->stdin_text), off = 0;
		while (off < n) {
			ssize_t w = write(pi[1], o->stdin_text + off, n - off);
			if (w <= 0)
				break;
			off += w;
		}
		signal(SIGPIPE, old);
	}
	close(pi[1]);

	double deadline = now_s() + (o->timeout_s > 0 ? o->timeout_s : 60);
	struct pollfd pf[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	struct buf *bufs[2] = {&out, &err};
	int open_fds = 2;
	while (open_fds > 0) {
		int left_ms = (int)((deadline - now_s()) * 1000);
		if (left_ms <= 0) {
			r->timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		int n = poll(pf, 2, left_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			char tmp[8192];
			ssize_t got = read(pf[i].fd, tmp, sizeof tmp);
			if (got > 0) {
				buf_add(bufs[i], tmp, got);
			} else if (got == 0 || errno != EINTR) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);

	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(st)) {
		r->exited = 1;
		r->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->signaled = 1;
		r->signo = WTERMSIG(st);
	}
	buf_add(&out, "", 0);
	buf_add(&err, "", 0);
	r->out = out.p;
	r->out_len = out.len;
	r->err = err.p;
	r->err_len = err.len;
	return 0;
}

void run_result_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

const char *run_describe(const struct run_result *r)
{
	static char d[96];
	if (r->timed_out)
		snprintf(d, sizeof d, "timeout (killed)");
	else if (r->signaled)
		snprintf(d, sizeof d, "signal %d (%s)", r->signo, strsignal(r->signo));
	else if (r->exited)
		snprintf(d, sizeof d, "exit %d", r->exit_code);
	else
		snprintf(d, sizeof d, "unknown end");
	return d;
}

int count_lines(const char *s)
{
	int n = 0;
	const char *p = s;
	if (!s)
		return 0;
	for (; *p; p++)
		if (*p == '\n')
			n++;
	if (p > s && p[-1] != '\n')
		n++;
	return n;
}

static size_t name_len(const char *kv)
{
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int in_list(char *const *list, const char *kv)
{
	size_t n = name_len(kv);
	for (; list && *list; list++)
		if (name_len(*list) == n && !strncmp(*list, kv, n))
			return 1;
	return 0;
}

/* The harness's LD_DLCLOSE reaches every program it runs: a suite of
 * unloading tests sets it once (qbt_unload_mode) for all its runs. */
static char dlclose_env[64];

char **env_build(char *const *base, char *const *extra)
{
	size_t n = 1;
	for (char *const *p = base; p && *p; p++)
		n++;
	for (char *const *p = extra; p && *p; p++)
		n++;
	char **env = calloc(n + 1, sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	const char *dl = getenv("LD_DLCLOSE");
	if (dl && base == run_base_env && !in_list(extra, "LD_DLCLOSE=")) {
		snprintf(dlclose_env, sizeof dlclose_env, "LD_DLCLOSE=%s", dl);
		env[k++] = strdup(dlclose_env);
	}
	for (char *const *p = base; p && *p; p++)
		if (!in_list(extra, *p))
			env[k++] = strdup(*p);
	for (char *const *p = extra; p && *p; p++)
		env[k++] = strdup(*p);
	return env;
}

char *const run_base_env[] = {
	"PATH=/usr/bin:/bin",
	"LC_ALL=C",
	NULL,
};

void env_free(char **env)
{
	for (char **p = env; p && *p; p++)
		free(*p);
	free(env);
}

int i386_exec_emulated(void)
{
	FILE *f = fopen("/proc/sys/fs/binfmt_misc/qemu-i386", "r");
	if (!f)
		return 0;
	char line[32] = "";
	int on = fgets(line, sizeof line, f) && strncmp(line, "enabled", 7) == 0;
	fclose(f);
	return on;
}
