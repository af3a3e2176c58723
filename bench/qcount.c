/*
 * Guest instructions executed by one run under qemu-user, for the programs
 * callgrind cannot measure (on a kernel without 32-bit syscalls valgrind
 * does not run i386 programs; qemu-user does).
 *
 *   qbb-qcount QEMU PROG [ARGS...]
 *
 * runs QEMU -d in_asm,exec,nochain -D /proc/self/fd/3 PROG ARGS... with
 * the current environment, the program's output on /dev/null as in
 * launch.c, and prints "<instructions> <blocks executed> <unknown blocks>
 * <exit code>".
 *
 * qemu's in_asm log lists each translated block's guest instructions, one
 * "0x<pc>:" line each; with nochain every execution of a block passes
 * through the main loop and exec logs one "Trace" line naming the block's
 * pc (an instruction over 8 bytes long is listed on two lines, the second
 * with bytes only).  The count is the sum, over the Trace lines, of the size of the
 * latest translation of that pc (a block may be translated again).  The log
 * of a few hundred million instructions is gigabytes, so it is read from a
 * pipe as it is written, never stored.  An "unknown" block is a Trace line
 * whose pc was never listed: the count is then incomplete.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define LOG_FD 3

/* Block sizes by pc: open addressing, pc 0 marks an empty slot (no guest
 * code runs at address 0). */
static uint64_t *keys;
static uint32_t *sizes;
static size_t cap, used;

static size_t slot(uint64_t pc)
{
	size_t i = (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);

	while (keys[i] && keys[i] != pc)
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow(void)
{
	uint64_t *ok = keys;
	uint32_t *os = sizes;
	size_t ocap = cap, i;

	cap = cap ? cap * 2 : 1 << 16;
	keys = calloc(cap, sizeof *keys);
	sizes = calloc(cap, sizeof *sizes);
	if (!keys || !sizes) {
		perror("qbb-qcount");
		exit(2);
	}
	for (i = 0; i < ocap; i++) {
		if (ok[i]) {
			size_t j = slot(ok[i]);
			keys[j] = ok[i];
			sizes[j] = os[i];
		}
	}
	free(ok);
	free(os);
}

static void set_size(uint64_t pc, uint32_t n)
{
	size_t i;

	if (2 * (used + 1) > cap)
		grow();
	i = slot(pc);
	if (!keys[i]) {
		keys[i] = pc;
		used++;
	}
	sizes[i] = n;
}

static int get_size(uint64_t pc, uint32_t *n)
{
	size_t i = slot(pc);

	if (!keys[i])
		return 0;
	*n = sizes[i];
	return 1;
}

static uint64_t hex(const char *s, const char *end, const char **stop)
{
	uint64_t v = 0;

	for (; s < end; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v << 4 | d;
	}
	*stop = s;
	return v;
}

static unsigned long long instructions, executed, unknown;
/* The block being listed: its first pc and instructions so far. */
static int listing;
static uint64_t block_pc;
static uint32_t block_len;

static void end_listing(void)
{
	if (listing && block_len)
		set_size(block_pc, block_len);
	listing = 0;
}

/* True for a listing line that only carries on the bytes of the
 * instruction above: qemu prints at most 8 bytes a line, so an instruction
 * of 9 to 15 bytes takes two lines, and only the first names a mnemonic. */
static int continued(const char *s, const char *end)
{
	const char *p = memchr(s, ':', end - s);

	if (!p)
		return 0;
	for (p++; p < end; p++) {
		if (*p == ' ')
			continue;
		if (end - p < 2 || !isxdigit((unsigned char)p[0]) ||
		    !isxdigit((unsigned char)p[1]) || (end - p > 2 && p[2] != ' '))
			return 0;
		p += 2;
	}
	return 1;
}

static void line(const char *s, const char *end)
{
	const char *p;
	uint32_t n;

	if (end - s > 2 && s[0] == '0' && s[1] == 'x') {
		if (listing && !continued(s, end)) {
			if (!block_len++)
				block_pc = hex(s + 2, end, &p);
		}
		return;
	}
	end_listing();
	if (end - s >= 6 && memcmp(s, "Trace ", 6) == 0) {
		/* Trace N: HOSTPTR [CS_BASE/PC/FLAGS/CFLAGS] symbol */
		p = memchr(s, '[', end - s);
		if (p)
			p = memchr(p, '/', end - p);
		if (!p)
			return;
		executed++;
		if (get_size(hex(p + 1, end, &p), &n))
			instructions += n;
		else
			unknown++;
	} else if (end - s >= 3 && memcmp(s, "IN:", 3) == 0) {
		listing = 1;
		block_len = 0;
	}
}

static void count(int fd)
{
	static char buf[1 << 20];
	size_t have = 0;

	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof buf - have);
		char *s, *nl, *end;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		/* Reading each entry as qemu writes it costs a wake-up per
		 * block executed, which doubles the run: let the pipe fill. */
		if ((size_t)r < sizeof buf / 8)
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
		end = buf + have + r;
		for (s = buf; (nl = memchr(s, '\n', end - s)); s = nl + 1)
			line(s, nl);
		have = end - s;
		if (have == sizeof buf) {
			/* a line longer than the buffer: no line we count is */
			have = 0;
			continue;
		}
		memmove(buf, s, have);
	}
	if (have)
		line(buf, buf + have);
	end_listing();
}

int main(int argc, char **argv)
{
	int p[2], null, status;
	char **qargv;
	pid_t pid;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s QEMU PROG [ARGS...]\n", argv[0]);
		return 2;
	}
	qargv = calloc(argc + 5, sizeof *qargv);
	null = open("/dev/null", O_WRONLY);
	if (!qargv || null < 0 || pipe(p) < 0) {
		perror("qbb-qcount");
		return 2;
	}
	/* qemu writes each log entry with its own write(2); a deep pipe lets
	 * it run ahead instead of waking this process for every block */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	qargv[0] = argv[1];
	qargv[1] = "-d";
	qargv[2] = "in_asm,exec,nochain";
	qargv[3] = "-D";
	qargv[4] = "/proc/self/fd/3";
	for (i = 2; i < argc; i++)
		qargv[i + 3] = argv[i];
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		/* null or the pipe may sit on LOG_FD already: use null first */
		dup2(null, 1);
		dup2(null, 2);
		if (dup2(p[1], LOG_FD) < 0)
			_exit(126);
		if (p[0] != LOG_FD)
			close(p[0]);
		if (p[1] != LOG_FD)
			close(p[1]);
		if (null != LOG_FD)
			close(null);
		execve(argv[1], qargv, environ);
		_exit(127);
	}
	close(p[1]);
	close(null);
	count(p[0]);
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 2;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !executed) {
		fprintf(stderr, "%s: cannot execute\n", argv[1]);
		return 3;
	}
	printf("%llu %llu %llu %d\n", instructions, executed, unknown,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
