/* Early reads, part of the page policy (pages.c): the loader asks the
 * kernel for what start-up will read of every library before it waits on
 * any, so that a device serves them together instead of one fault after
 * another. Two sources: the closure linkopt recorded in the program
 * (common/startread.h), all of it as soon as the first library start-up
 * opens is found cold, before the loader reads it; or, without one, the
 * DT_NEEDED libraries of each object as soon as it is decoded, level
 * after level. Only requests: the search, the load and
 * every check happen as they would without them, so a record that no
 * longer holds (a file replaced, moved, preloaded around) costs wasted
 * requests and nothing else. In secure mode the record is not read and
 * a level opens only what the search itself would open. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "elfhash.h"
#include "fast.h"
#include "libsearch.h"
#include "startread.h"

#define HEAD 4096   /* enough for the ELF header and program headers */
#define BATCH 64     /* descriptors open at once */
#define WARM_ENOUGH 8

/* Files asked for already, by device and inode, so that a library
 * several objects need is asked for once. Past the end, asking twice
 * costs only a system call. */
#define SEEN_MAX 1024
static struct { uint64_t dev, ino; } seen[SEEN_MAX];
static size_t nseen;
/* the program has a record: the levels have nothing to add */
static int recorded;

/* DT_NEEDED names the levels have handled, by GNU hash (0 marks a free
 * slot): a library most objects need is searched for once, not once for
 * each. Two names of one hash: the second is not asked for, and loads as
 * it would without it. */
#define NAMES_MAX 2048
static uint32_t names[NAMES_MAX];

static int name_handled(const char *name)
{
	uint32_t h = qb_gnu_hash(name) | 1;
	for (size_t i = h % NAMES_MAX, n = 0; n < NAMES_MAX; i = (i + 1) % NAMES_MAX, n++) {
		if (names[i] == h)
			return 1;
		if (!names[i]) {
			names[i] = h;
			return 0;
		}
	}
	return 0;
}

/* Start-up's levels: libraries found resident, libraries asked for; once
 * the first few were all resident the process starts warm and the rest
 * of start-up asks for nothing (the searches would cost what the requests
 * save). */
static size_t level_warm, level_asked;

static int levels_warm(void)
{
	return !qb.started && level_warm >= WARM_ENOUGH && !level_asked;
}

static int seen_before(const struct stat *st)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].ino == st->st_ino && seen[i].dev == st->st_dev)
			return 1;
	if (nseen < SEEN_MAX)
		seen[nseen++] = (typeof(seen[0])){ st->st_dev, st->st_ino };
	return 0;
}

static void ask(int fd, uint64_t off, uint64_t len)
{
	posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
}

#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 8
#endif

/* Is the page at off in the page cache? cachestat says so and reads
 * nothing. Without it (before Linux 6.5, qemu-user, or under valgrind,
 * which would warn of a system call it does not know) a read that must
 * not wait says so: it starts reading the page when it is not there, and
 * may then find it in by the time it looks, taking a cold file for a
 * warm one (only its requests are lost). Not mincore: for a file the
 * process may not write, it calls every page resident. */
static int resident(int fd, uint64_t off)
{
	static int no_cachestat = -1;
	size_t page = __libc.page_size;
	if (no_cachestat < 0)
		no_cachestat = qb_under_valgrind();
	if (!no_cachestat) {
		struct { uint64_t off, len; } range = { off & -(uint64_t)page, page };
		struct { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted; } cs;
		if (!syscall(SYS_cachestat, fd, &range, &cs, 0))
			return cs.nr_cache != 0;
		no_cachestat = 1;
	}
	char c;
	struct iovec v = { &c, 1 };
	return syscall(SYS_preadv2, fd, &v, 1, (long)off, (long)(off >> 16 >> 16), RWF_NOWAIT) == 1;
}

/* The closure record of the program, when it has a well-formed one. */
static const struct qb_closure_hdr *record_of(const struct dso *p)
{
	size_t at = 0, sz = 0;
	for (const size_t *d = p->dynv; d[0]; d += 2) {
		if (d[0] == DT_QB_CLOSURE)
			at = d[1];
		else if (d[0] == DT_QB_CLOSURESZ)
			sz = d[1];
	}
	if (!at || !qb_in_image(p, at, sz))
		return 0;
	const void *rec = qb_laddr(p, at);
	return qb_closure_valid(rec, sz) ? rec : 0;
}

/* A recorded path, with $ORIGIN/ standing for the program's directory:
 * 0 when it does not fit. */
static const char *expand(const char *path, const struct dso *prog, char *buf, size_t len)
{
	if (strncmp(path, "$ORIGIN/", 8))
		return path;
	const char *name = prog->map ? prog->name : qb_exe_path();
	const char *slash = name ? strrchr(name, '/') : 0;
	int n = slash ? (int)(slash - name) : 1;
	size_t need = (size_t)n + strlen(path + 7) + 1;
	if (need > len)
		return 0;
	memcpy(buf, slash ? name : ".", (size_t)n);
	strcpy(buf + n, path + 7);
	return buf;
}

/* A file start-up used lately is resident to its last range's end:
 * nothing to ask. */
static int warm(int fd, const struct qb_closure_range *r, uint32_t n)
{
	return n && r[n - 1].len && resident(fd, (uint64_t)r[n - 1].off + r[n - 1].len - 1);
}

static uint64_t recorded_size(const struct qb_closure_lib *l)
{
	return l->size[0] | (uint64_t)l->size[1] << 32;
}

/* Start-up is cold (a library it opened was): every recorded file not
 * resident is asked for. */
static void follow_record(const struct qb_closure_hdr *h, const struct dso *prog)
{
	const struct qb_closure_lib *lib = (const void *)(h + 1);
	const struct qb_closure_range *r = (const void *)(lib + h->nlibs);
	const char *paths = (const char *)(r + h->nranges);
	size_t asked = 0;
	for (uint32_t i = 0; i < h->nlibs; i++) {
		char buf[PATH_MAX];
		const char *path = expand(paths + lib[i].path, prog, buf, sizeof buf);
		int fd = path ? openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
		struct stat st;
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size == recorded_size(&lib[i]) &&
		    !seen_before(&st) && !warm(fd, r + lib[i].first, lib[i].n)) {
			for (uint32_t k = lib[i].first; k < lib[i].first + lib[i].n; k++)
				ask(fd, r[k].off, r[k].len);
			asked++;
		}
		close(fd);
	}
	if (qb.debug & QB_DBG_LIBS)
		qb_dbg("prefetch: recorded closure of %u libraries, %zu asked for", h->nlibs, asked);
}

/* The ranges of the file open at fd, from its headers (read from head,
 * n bytes): the rule linkopt records with. */
static void ask_ranges(int fd, const unsigned char *head, size_t n)
{
	const Ehdr *eh = (const void *)head;
	if (n < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(Phdr) ||
	    eh->e_phoff > n || eh->e_phnum > (n - eh->e_phoff) / sizeof(Phdr))
		return;
	struct qb_seg seg[32];
	size_t ns = 0;
	for (size_t i = 0; i < eh->e_phnum && ns < 32; i++) {
		Phdr ph;
		memcpy(&ph, head + eh->e_phoff + i * sizeof ph, sizeof ph);
		seg[ns++] = (struct qb_seg){ ph.p_type, ph.p_offset, ph.p_filesz };
	}
	struct qb_range r[QB_START_RANGES];
	size_t nr = qb_start_ranges(seg, ns, r);
	if (nr && resident(fd, r[nr - 1].off + r[nr - 1].len - 1)) {
		level_warm++;
		return;
	}
	for (size_t k = 0; k < nr; k++)
		ask(fd, r[k].off, r[k].len);
	level_asked++;
}

/* The libraries open at fd[0..n): their headers, all in flight, read,
 * and their ranges asked for. */
static void ask_batch(const int *fd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char head[HEAD] __attribute__((aligned(8)));
		ssize_t got = pread(fd[i], head, sizeof head, 0);
		if (got > 0)
			ask_ranges(fd[i], head, (size_t)got);
		close(fd[i]);
	}
}

/* p's DT_NEEDED libraries not loaded or asked for yet: each found as the
 * load will find it and its headers asked for, then ask_batch, a batch
 * of descriptors at a time. */
static void ask_level(struct dso *p)
{
	int fd[BATCH];
	size_t n = 0;
	for (const size_t *d = p->dynv; d[0] && !levels_warm(); d += 2) {
		if (d[0] != DT_NEEDED || d[1] >= p->dyn.strsz)
			continue;
		const char *name = p->strings + d[1];
		struct stat st;
		if (name_handled(name) || qb_find_loaded(name) || qb_search_reserved(name))
			continue;
		int f = qb_search_open(name, p);
		if (f < 0)
			continue;
		if (fstat(f, &st) || !S_ISREG(st.st_mode) || qb_find_file(st.st_dev, st.st_ino) ||
		    seen_before(&st)) {
			close(f);
			continue;
		}
		ask(f, 0, HEAD);
		fd[n++] = f;
		if (n == BATCH) {
			ask_batch(fd, n);
			n = 0;
		}
	}
	ask_batch(fd, n);
}

/* An object decoded during a load is described (its name, the object
 * that needs it) only once the load returns: its level is asked for then,
 * when the next object is decoded or the library is handed to the object
 * that needs it. Held by file identity: a load that fails gives the
 * object back. */
static struct { uint64_t dev, ino; int set; } pending;

static void flush(void)
{
	if (!pending.set)
		return;
	pending.set = 0;
	struct dso *p = qb_find_file(pending.dev, pending.ino);
	if (p)
		ask_level(p);
}

/* The program's record, until start-up is known to be warm or cold: the
 * files start-up opens tell, each by the file's own descriptor before
 * the loader reads it (one system call, where checking a recorded path
 * costs an open, an fstat and a close more). The first cold library the
 * record names has the whole record followed; the first few found
 * resident, the process starts warm and nothing is asked for. A file the
 * record does not name (a preload, a library of another size) says
 * nothing either way. Held until the program is the loader's (qb.main),
 * which is mapped for good: only then are libraries opened. */
static const struct qb_closure_hdr *unchecked;
static size_t opened_warm;

hidden void qb_prefetch_opened(int fd, const struct stat *st)
{
	const struct qb_closure_hdr *h = unchecked;
	if (!h || qb.started || !qb.main)
		return;
	const struct qb_closure_lib *lib = (const void *)(h + 1);
	const struct qb_closure_range *r = (const void *)(lib + h->nlibs);
	for (uint32_t i = 0; i < h->nlibs; i++) {
		if (recorded_size(&lib[i]) != (uint64_t)st->st_size)
			continue;
		if (!warm(fd, r + lib[i].first, lib[i].n)) {
			unchecked = 0;
			follow_record(h, qb.main);
		} else if (++opened_warm == WARM_ENOUGH) {
			unchecked = 0;
			if (qb.debug & QB_DBG_LIBS)
				qb_dbg("prefetch: recorded closure of %u libraries, the first %d opened resident",
					h->nlibs, WARM_ENOUGH);
		}
		return;
	}
}

hidden void qb_prefetch_decoded(struct dso *p)
{
	/* a recording run reads only what it touches (record.c) */
	if (qb.env.no_prefetch || qb.list_mode || p->is_ldso || qb_recording())
		return;
	flush();
	if (!qb.main) {
		/* the program, decoded before anything it needs */
		const struct qb_closure_hdr *h = qb.secure ? 0 : record_of(p);
		if (h) {
			unchecked = h;
			recorded = 1;
		} else {
			ask_level(p);
		}
		return;
	}
	/* during start-up the record has asked for everything it knows */
	if (p->id.ino && (!recorded || qb.started)) {
		pending.dev = p->id.dev;
		pending.ino = p->id.ino;
		pending.set = 1;
	}
}

hidden void qb_prefetch_loaded(struct dso *dep)
{
	if (pending.set && dep->id.ino == pending.ino && dep->id.dev == pending.dev)
		flush();
}
