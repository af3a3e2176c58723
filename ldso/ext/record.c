/* Recording which pages of its files a run read (LD_RECORD_PAGES=FILE),
 * part of the page policy (pages.c): linkopt --pages turns the record
 * into the ranges a program's closure record asks for, so that a cold
 * start reads what start-up reads and not the kernel's read-around of
 * every fault (docs/FORMAT.md 6.1 has the file's format).
 *
 * What a run read is what its mappings hold at exit, as /proc/self/pagemap
 * tells page by page: the pages it touched, and those the kernel mapped
 * with a fault from the cache around it (fault-around: at most the
 * aligned block of a few pages that holds the fault). So that those
 * neighbours are pages the run read itself, a recording run drops each
 * library's cached pages as it maps it, reads one page a fault where
 * the kernel lets it (data) and makes no early requests; and it gives no
 * pages back, so that the tables relocation read are still mapped. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fast.h"

#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)

hidden int qb_recording(void)
{
	return qb.env.record_pages && qb.env.record_pages[0];
}

static void record_at_exit(void);

/* p's file, just mapped from fd: its cached pages dropped (not those
 * another process maps), and a fault on its data reading its own page
 * alone, not the kernel's read-around (a fault on code still reads
 * ahead; only the pages mapped count). The first one registers the
 * record's writing as an exit handler: registered before the program's,
 * it runs after them, before the destructors. */
hidden void qb_record_mapped(struct dso *p, int fd)
{
	static int registered;
	size_t page = __libc.page_size;
	if (!registered)
		registered = !atexit(record_at_exit);
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		size_t lo = ph->p_vaddr & -page, hi = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		madvise(p->base + lo, hi - lo, MADV_RANDOM);
	}
}

struct out {
	int fd;
	size_t n;
	char buf[4096];
};

static void flush(struct out *o)
{
	for (size_t at = 0; at < o->n;) {
		ssize_t w = write(o->fd, o->buf + at, o->n - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		at += (size_t)w;
	}
	o->n = 0;
}

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	char line[PATH_MAX + 96];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	if (o->n + (size_t)n > sizeof o->buf)
		flush(o);
	memcpy(o->buf + o->n, line, (size_t)n);
	o->n += (size_t)n;
}

/* A run of pages, as bytes of the file (the last page may pass its end). */
static void put_range(struct out *o, const struct dso *p, uint64_t off, uint64_t len)
{
	if (off >= p->id.size)
		return;
	if (len > p->id.size - off)
		len = p->id.size - off;
	if (len)
		put(o, "range %llx %llx\n", (unsigned long long)off, (unsigned long long)len);
}

/* The file pages of one segment that p's mappings hold, as ranges; a
 * range open at *run_off (length *run_len) continues across segments
 * only when the file pages follow each other. */
static void segment_pages(struct out *o, int pm, const struct dso *p, const Phdr *ph,
	uint64_t *run_off, uint64_t *run_len)
{
	size_t page = __libc.page_size;
	uint64_t off = ph->p_offset & -(uint64_t)page;
	uintptr_t va = (uintptr_t)(p->base + (ph->p_vaddr & -page));
	size_t n = (ph->p_vaddr % page + ph->p_filesz + page - 1) / page;
	uint64_t ent[512];
	for (size_t i = 0; i < n;) {
		size_t k = n - i < 512 ? n - i : 512;
		ssize_t got = pread(pm, ent, k * sizeof *ent, (off_t)((va / page + i) * sizeof *ent));
		if (got <= 0)
			return;
		k = (size_t)got / sizeof *ent;
		for (size_t j = 0; j < k; j++, i++) {
			if (!(ent[j] & (PM_PRESENT | PM_SWAPPED)))
				continue;
			uint64_t at = off + (uint64_t)i * page;
			if (*run_len && *run_off + *run_len == at) {
				*run_len += page;
				continue;
			}
			if (*run_len && *run_off <= at && at < *run_off + *run_len)
				continue;
			put_range(o, p, *run_off, *run_len);
			*run_off = at;
			*run_len = page;
		}
	}
}

/* p's path from any directory: a name the search made from a relative
 * directory (LD_LIBRARY_PATH=.) is resolved, when it still names p's
 * file (the working directory may have changed since). */
static const char *absolute(const struct dso *p, char *buf)
{
	struct stat st;
	if (p->name[0] == '/' || !realpath(p->name, buf) || stat(buf, &st) ||
	    (uint64_t)st.st_dev != p->id.dev || (uint64_t)st.st_ino != p->id.ino)
		return p->name;
	return buf;
}

static void record_object(struct out *o, int pm, const struct dso *p)
{
	char buf[PATH_MAX];
	put(o, "object %llx %llx %llx %s\n", (unsigned long long)p->id.dev, (unsigned long long)p->id.ino,
	    (unsigned long long)p->id.size, absolute(p, buf));
	uint64_t run_off = 0, run_len = 0;
	for (size_t i = 0; i < p->phnum; i++)
		if (p->phdr[i].p_type == PT_LOAD && p->phdr[i].p_filesz)
			segment_pages(o, pm, p, &p->phdr[i], &run_off, &run_len);
	put_range(o, p, run_off, run_len);
}

/* At exit: every object the loader mapped from a file (not the program
 * or the loader, which the kernel mapped), appended to the file in one
 * locked stretch, so that the processes of one run may share it. */
static void record_at_exit(void)
{
	static struct out o;
	const char *path = qb.env.record_pages;
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	o.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (pm < 0 || o.fd < 0) {
		dprintf(2, "%s: LD_RECORD_PAGES: %s: %s\n", QB_LDSO_NAME, pm < 0 ? "/proc/self/pagemap" : path,
			strerror(errno));
		if (pm >= 0)
			close(pm);
		if (o.fd >= 0)
			close(o.fd);
		return;
	}
	flock(o.fd, LOCK_EX);
	for (const struct dso *p = qb.head; p; p = p->next)
		if (p->map && !p->is_ldso && p->id.ino && p->name)
			record_object(&o, pm, p);
	flush(&o);
	flock(o.fd, LOCK_UN);
	close(o.fd);
	close(pm);
}
