/* libFuzzer target "main": the loader and the main program, which the
 * in-process targets never reach (they map libraries). Each input is a
 * program file, run by the real loader of its ELF class (build/lib)
 * twice:
 *   - `LOADER --list FILE`: the loader maps the program itself and runs
 *     none of its code, so any signal, and any hang, is the loader's;
 *   - through PT_INTERP (pointed at the loader through a short link, when
 *     the input's PT_INTERP has room for it): the kernel maps the program
 *     and the loader takes it from the aux vector. The run is traced, with
 *     a breakpoint on the program's entry point, and killed there: of the
 *     program nothing runs but IFUNC resolvers. A signal or a hang with the
 *     instruction pointer outside the files of the program and its
 *     libraries is the loader's; a refusal is one line, exit 127.
 * A failure of the loader aborts, so libFuzzer keeps the input. The
 * loader runs in processes of their own, which libFuzzer cannot see into:
 * what guides it is the loader's answer, its exit status and the reason
 * it gives, which picks one of 64 functions, so that an input drawing a
 * new answer joins the corpus. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef FZM_LOADER_x86_64
#error "FZM_LOADER_x86_64, FZM_LOADER_i386 and the FZM_LIBPATHs come from tests/fuzz.mk"
#endif

/* [0] ELFCLASS64, [1] ELFCLASS32 */
static const char *const loaders[2] = { FZM_LOADER_x86_64, FZM_LOADER_i386 };
static char real[2][4096], links[2][64];
static char dir[32], prog[64];
/* the seeds' library, of the class of the program */
static char *const envs[2][3] = {
	{ "LD_LIBRARY_PATH=" FZM_LIBPATH_x86_64, "PATH=/usr/bin:/bin", NULL },
	{ "LD_LIBRARY_PATH=" FZM_LIBPATH_i386, "PATH=/usr/bin:/bin", NULL },
};

/* ------------------------------------------------------------ guidance -- */

static volatile unsigned sink;
#define F(n) static __attribute__((noinline)) void f##n(void) { sink += n; }
#define F8(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7)
F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7) F8(8)
#define P8(n) f##n##0, f##n##1, f##n##2, f##n##3, f##n##4, f##n##5, f##n##6, f##n##7
static void (*const answer[64])(void) = { P8(1), P8(2), P8(3), P8(4), P8(5), P8(6), P8(7), P8(8) };

/* One of the 64 functions for how a run ended and the reason it gave:
 * the last part of the message's first line, without numbers. */
static void guide(int run, int status, const char *err)
{
	uint32_t h = 2166136261u ^ (uint32_t)run;
	h = (h ^ (uint32_t)status) * 16777619u;
	const char *end = strchr(err, '\n'), *r = err;
	if (!end)
		end = err + strlen(err);
	for (const char *p = err; p < end; p++)
		if (p[0] == ':' && p[1] == ' ')
			r = p + 2;
	for (; r < end; r++)
		if (*r < '0' || *r > '9')
			h = (h ^ (unsigned char)*r) * 16777619u;
	answer[h % 64]();
}

/* --------------------------------------------------------------- runs -- */

struct outcome {
	int status;        /* as waitpid gives it */
	int traced;        /* through PT_INTERP, traced */
	int at_entry;      /* stopped at the program's entry: accepted */
	int stop_sig;      /* the signal it was stopped at, otherwise */
	int owner;         /* where: 0 the loader or nowhere, 1 the objects' files */
	unsigned long long ip;
	char where[512];
	char err[2048];
};

static void child(int errfd)
{
	struct rlimit none = { 0, 0 }, fsize = { 1 << 20, 1 << 20 };
	setrlimit(RLIMIT_CORE, &none);
	setrlimit(RLIMIT_FSIZE, &fsize);
	int nul = open("/dev/null", O_RDWR);
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(errfd, 2);
	/* a hang: pending across execve, SIGALRM ends it */
	alarm(5);
}

static void drain(int fd, struct outcome *o)
{
	size_t n = 0;
	char junk[4096];
	for (;;) {
		ssize_t k = n < sizeof o->err - 1 ? read(fd, o->err + n, sizeof o->err - 1 - n) :
			read(fd, junk, sizeof junk);
		if (k <= 0)
			break;
		if (n < sizeof o->err - 1)
			n += (size_t)k;
	}
	o->err[n] = 0;
	close(fd);
}

/* The runs start with vfork: a fork copies the fuzzer's page tables, which
 * cost as much as the loader's whole run; the child only sets its limits
 * and descriptors before execve. */
static void list_run(int cls, struct outcome *o)
{
	int p[2];
	memset(o, 0, sizeof *o);
	if (pipe2(p, O_CLOEXEC))
		abort();
	pid_t pid = vfork();
	if (pid < 0)
		abort();
	if (!pid) {
		child(p[1]);
		char *argv[] = { (char *)loaders[cls], "--list", prog, NULL };
		execve(argv[0], argv, envs[cls]);
		_exit(126);
	}
	close(p[1]);
	drain(p[0], o);
	while (waitpid(pid, &o->status, 0) < 0 && errno == EINTR)
		;
}

/* The program's entry point from the traced process's aux vector. */
static int entry_of(pid_t pid, int cls, unsigned long long *entry)
{
	char path[64];
	unsigned char buf[4096];
	snprintf(path, sizeof path, "/proc/%d/auxv", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf);
	close(fd);
	size_t w = cls ? 4 : 8;
	for (size_t i = 0; n > 0 && i + 2 * w <= (size_t)n; i += 2 * w) {
		uint64_t k = 0, v = 0;
		memcpy(&k, buf + i, w);
		memcpy(&v, buf + i + w, w);
		if (k == AT_ENTRY) {
			*entry = v;
			return 1;
		}
	}
	return 0;
}

/* Whose is address ip in the traced process: 1 a file's other than the
 * loader (the program, a library: their own code, an IFUNC resolver),
 * 0 the loader, the vDSO (a system call of the loader's) or no file. */
static int owner_of(pid_t pid, int cls, unsigned long long ip, char *where, size_t wsz)
{
	char path[64], line[4608];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	int owner = 0;
	snprintf(where, wsz, "no mapping");
	while (f && fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		int off = 0;
		if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &lo, &hi, &off) < 2 || ip < lo || ip >= hi)
			continue;
		char *name = line + off;
		name[strcspn(name, "\n")] = 0;
		snprintf(where, wsz, "%s", *name ? name : "anonymous memory");
		owner = name[0] == '/' && strcmp(name, real[cls]);
		break;
	}
	if (f)
		fclose(f);
	return owner;
}

static void interp_run(int cls, struct outcome *o)
{
	int p[2];
	memset(o, 0, sizeof *o);
	o->traced = 1;
	if (pipe2(p, O_CLOEXEC))
		abort();
	pid_t pid = vfork();
	if (pid < 0)
		abort();
	if (!pid) {
		child(p[1]);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(125);
		char *argv[] = { prog, NULL };
		execve(prog, argv, envs[cls]);
		_exit(126);
	}
	close(p[1]);
	int st;
	waitpid(pid, &st, 0);
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
		/* Not run: execve failed, or failed past the point where the
		 * process can go back and the kernel killed it (a segment it
		 * cannot map: SIGSEGV before the loader ever ran). */
		if (WIFSTOPPED(st)) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
		}
		o->status = st;
		drain(p[0], o);
		return;
	}
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_EXITKILL);
	unsigned long long entry = 0;
	long word = 0;
	int bp = 0;
	if (entry_of(pid, cls, &entry)) {
		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)entry, 0);
		bp = !errno && !ptrace(PTRACE_POKETEXT, pid, (void *)(uintptr_t)entry,
			(void *)(uintptr_t)(((unsigned long)word & ~0xfful) | 0xcc));
	}
	int sig = 0;
	for (;;) {
		ptrace(PTRACE_CONT, pid, 0, (void *)(uintptr_t)sig);
		if (waitpid(pid, &st, 0) < 0 || !WIFSTOPPED(st)) {
			o->status = st;
			break;
		}
		sig = WSTOPSIG(st);
		struct user_regs_struct regs;
		if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
			continue;
		unsigned long long ip = regs.rip;
		if (sig == SIGTRAP && bp && ip == entry + 1) {
			o->at_entry = 1;
		} else if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
			   sig == SIGABRT || sig == SIGSYS || sig == SIGALRM) {
			o->stop_sig = sig;
			o->ip = ip;
			o->owner = owner_of(pid, cls, ip, o->where, sizeof o->where);
		} else {
			continue;  /* delivered as it would be */
		}
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		o->status = st;
		break;
	}
	drain(p[0], o);
}

/* ------------------------------------------------------------ reports -- */

static const char *describe(const struct outcome *o)
{
	static char b[768];
	if (o->at_entry)
		snprintf(b, sizeof b, "accepted (stopped at the entry point)");
	else if (o->stop_sig)
		snprintf(b, sizeof b, "signal %d (%s) at %#llx in %s", o->stop_sig, strsignal(o->stop_sig), o->ip,
			 o->where);
	else if (WIFEXITED(o->status))
		snprintf(b, sizeof b, "exit %d", WEXITSTATUS(o->status));
	else if (WIFSIGNALED(o->status))
		snprintf(b, sizeof b, "signal %d (%s)", WTERMSIG(o->status), strsignal(WTERMSIG(o->status)));
	else
		snprintf(b, sizeof b, "status %#x", o->status);
	return b;
}

static int lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void failed(const char *how, const struct outcome *o)
{
	fprintf(stderr, "fuzz-main: the loader failed, %s: %s\nits stderr:\n%s\n", how, describe(o), o->err);
	abort();
}

/* --------------------------------------------------------------- input -- */

static int interp_at(const uint8_t *b, size_t n, int cls, size_t *off, size_t *len)
{
	size_t ehsz = cls ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
	if (n < ehsz)
		return 0;
	uint64_t phoff;
	unsigned phnum, ent;
	if (cls) {
		Elf32_Ehdr e;
		memcpy(&e, b, sizeof e);
		phoff = e.e_phoff, phnum = e.e_phnum, ent = e.e_phentsize;
	} else {
		Elf64_Ehdr e;
		memcpy(&e, b, sizeof e);
		phoff = e.e_phoff, phnum = e.e_phnum, ent = e.e_phentsize;
	}
	if (ent != (cls ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr)))
		return 0;
	for (unsigned i = 0; i < phnum; i++) {
		uint64_t at = phoff + (uint64_t)i * ent, type, o, l;
		if (at > n || ent > n - at)
			return 0;
		if (cls) {
			Elf32_Phdr p;
			memcpy(&p, b + at, sizeof p);
			type = p.p_type, o = p.p_offset, l = p.p_filesz;
		} else {
			Elf64_Phdr p;
			memcpy(&p, b + at, sizeof p);
			type = p.p_type, o = p.p_offset, l = p.p_filesz;
		}
		if (type == PT_INTERP) {
			if (o > n || l > n - o)
				return 0;
			/* writing the link into a string that overlaps the ELF
			 * or program headers would change the headers themselves
			 * (a program the kernel runs with no interpreter at all:
			 * its crash is not the loader's) */
			if (o < ehsz || (o < phoff + (uint64_t)phnum * ent && phoff < o + l))
				return 0;
			*off = o;
			*len = l;
			return 1;
		}
	}
	return 0;
}

static void cleanup(void)
{
	unlink(prog);
	unlink(links[0]);
	unlink(links[1]);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* short: a PT_INTERP string must hold a link in it */
	snprintf(dir, sizeof dir, "/tmp/qbfmXXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(prog, sizeof prog, "%s/p", dir);
	for (int c = 0; c < 2; c++) {
		snprintf(links[c], sizeof links[c], "%s/%d", dir, c ? 3 : 6);
		if (*loaders[c] && (!realpath(loaders[c], real[c]) || symlink(loaders[c], links[c])))
			abort();
	}
	atexit(cleanup);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < EI_NIDENT || memcmp(data, ELFMAG, SELFMAG))
		return 0;
	int cls = data[EI_CLASS] == ELFCLASS32;
	if (!*loaders[cls])
		return 0;
	uint8_t *b = malloc(size);
	if (!b)
		abort();
	memcpy(b, data, size);
	unlink(prog);
	int fd = open(prog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, b, size) != (ssize_t)size || close(fd))
		abort();

	struct outcome o;
	list_run(cls, &o);
	/* --list runs none of the program's code: any signal is the loader's */
	if (!WIFEXITED(o.status))
		failed("--list", &o);
	guide(0, o.status, o.err);
	/* FZM_VERBOSE=1: each run's end, to see what the inputs do */
	int verbose = getenv("FZM_VERBOSE") != 0;
	if (verbose)
		fprintf(stderr, "fuzz-main: --list: %s %.*s\n", describe(&o), (int)strcspn(o.err, "\n"), o.err);

	size_t off, len;
	if (interp_at(b, size, cls, &off, &len) && len > strlen(links[cls])) {
		memset(b + off, 0, len);
		memcpy(b + off, links[cls], strlen(links[cls]));
		unlink(prog);
		fd = open(prog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 || write(fd, b, size) != (ssize_t)size || close(fd))
			abort();
		interp_run(cls, &o);
		if (o.stop_sig && !o.owner)
			failed("through PT_INTERP", &o);
		if (!o.at_entry && !o.stop_sig && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 127 &&
		    lines(o.err) != 1)
			failed("through PT_INTERP, a refusal not in one line", &o);
		guide(1, o.at_entry ? 1000 : o.stop_sig ? 2000 + o.stop_sig : o.status, o.err);
		if (verbose)
			fprintf(stderr, "fuzz-main: PT_INTERP: %s %.*s\n", describe(&o), (int)strcspn(o.err, "\n"),
				o.err);
	}
	free(b);
	return 0;
}
