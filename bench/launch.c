/*
 * One measured run: launch PROG ARGS... with the current environment and
 * print "<wall ns> <peak RSS KiB> <exit code> <user us> <sys us> <minor
 * faults> <major faults>", the last four from the child's rusage.  The
 * first three fields come first and keep their meaning, so a caller that
 * reads only them needs no change beyond ignoring the rest.
 *
 * Why not from Python directly: at exec, Linux folds the high-water RSS of
 * the process image being replaced into the child's ru_maxrss.  Spawned from
 * a 15 MB Python interpreter, every child would report at least 15 MB.  This
 * launcher is linked statically against musl, so the image it leaves behind
 * is a few pages and ru_maxrss is the program's own peak, as GNU time's %M
 * would be for a tiny parent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long usec(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* vfork shares memory: the child leaves the reason its exec failed here. */
static volatile int exec_errno;

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;
	int null;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROG [ARGS...]\n", argv[0]);
		return 2;
	}
	/* The program's output is not part of the measurement. */
	null = open("/dev/null", O_WRONLY);
	if (null < 0) {
		perror("/dev/null");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = vfork();
	if (pid < 0) {
		perror("vfork");
		return 2;
	}
	if (pid == 0) {
		dup2(null, 1);
		dup2(null, 2);
		execve(argv[1], argv + 1, environ);
		exec_errno = errno;
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (exec_errno) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(exec_errno));
		return 3;
	}
	printf("%lld %ld %d %lld %lld %ld %ld\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
	       ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       usec(ru.ru_utime), usec(ru.ru_stime), ru.ru_minflt, ru.ru_majflt);
	return 0;
}
