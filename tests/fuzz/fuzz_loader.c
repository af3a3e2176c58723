/* libFuzzer target: the loader's own checks of an object, built for the
 * host from the core's sources (map.c, dso.c, version.c, lookup.c,
 * common/elfview.c) and its extensions (ldso/ext/), for the ELF class of the arch/ headers it is
 * compiled with. Each input is a file the loader is asked to map, exactly
 * as qb_map_file maps a library; an object it accepts is then searched for
 * every symbol it defines, which walks the hash tables, chains, bloom
 * filter, version tables and linkopt's tables the checks let through. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ldso.h"

/* The pieces of musl and of the rest of the loader those sources use. */
struct qb_musl_libc __libc;
unsigned __default_stacksize = 131072;
/* the loader's memory from the sanitizer's heap, which checks its bounds */
void *qb_calloc(size_t n, size_t m) { return calloc(n, m); }
void *qb_realloc(void *p, size_t n) { return realloc(p, n); }
void qb_free(void *p) { free(p); }
void qb_dbg(const char *fmt, ...) { (void)fmt; }
/* The extensions that read an object's tables and lookups (unloading,
 * which needs the dl* API, has nothing to read). */
#include "ext.h"
extern const struct qb_ext qb_ext_fast, qb_ext_gtab, qb_ext_pages;
const struct qb_ext *const qb_exts[] = { &qb_ext_fast, &qb_ext_gtab, &qb_ext_pages, 0 };

/* what the core reports and how it fails, outside the loader */
void qb_error(const char *fmt, ...) { (void)fmt; abort(); }
void qb_fatal(const char *fmt, ...) { (void)fmt; abort(); }
/* The search is the rest of the loader: the early reads find nothing to
 * ask for by name, but an object's closure record is read and checked
 * (its $ORIGIN paths from no program). */
int qb_search_open(const char *name, struct dso *needed_by)
{
	(void)name;
	(void)needed_by;
	return -1;
}
const char *qb_exe_path(void)
{
	return 0;
}
/* What watches a binding (LD_DEBUG, verify mode) asks of the rest of the
 * loader: relocation, which this target never reaches. */
struct dso *qb_dso_of_addr(const void *addr)
{
	(void)addr;
	return 0;
}
int qb_lfs64_bind(const char *name, struct symdef *def)
{
	(void)name;
	(void)def;
	return 0;
}

static int fd = -1, exec_ok;
static char *names;  /* one page, then an inaccessible one */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	__libc.page_size = (size_t)sysconf(_SC_PAGESIZE);
	exec_ok = geteuid() != 0;
	fd = memfd_create("qb-fuzz-object", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	size_t page = __libc.page_size;
	names = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (names == MAP_FAILED || mprotect(names + page, page, PROT_NONE))
		abort();
	return 0;
}

/* The name a lookup asks for, as the loader's own names are: inside
 * mapped pages (a string table, the dlsym caller's memory), where the
 * lookup compares a word at a time up to the page end. Here it ends right
 * before an inaccessible page, so a read past that page end faults, and
 * bytes after its NUL are not a sanitizer's redzone (a string literal's
 * would be, though reading them is harmless). */
static const char *as_mapped(const char *name)
{
	size_t n = strlen(name) + 1, page = __libc.page_size;
	if (n > page)
		return name;  /* the object's own string table holds it */
	return memcpy(names + page - n, name, n);
}

static void search_every_symbol(struct dso *p)
{
	for (size_t i = 1; i < p->nsyms; i++) {
		const Sym *s = p->syms + i;
		if (s->st_name >= p->dyn.strsz)
			continue;
		struct qb_verreq vr, *ver = qb_verreq_of(p, i, &vr) ? &vr : 0;
		struct qb_symreq r;
		qb_symreq_init(&r, p->strings + s->st_name, ver);
		qb_lookup_in(p, &r);
		qb_symreq_init(&r, as_mapped(p->strings + s->st_name), ver);
		qb_lookup_in(p, &r);
	}
	struct qb_symreq r;
	qb_symreq_init(&r, as_mapped(""), 0);
	qb_lookup_in(p, &r);
	qb_symreq_init(&r, as_mapped("a name no object defines"), 0);
	qb_lookup_in(p, &r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	const char *why = 0;
	/* Also fixed-address programs (ET_EXEC, as on the loader's command
	 * line), except as root: root may map page zero, where such a
	 * program's base of 0 is no longer distinguishable from a null
	 * pointer for the compiler of this target. */
	struct dso *p = qb_map_file(fd, 0, "fuzz", exec_ok, &why);
	if (!p) {
		if (!why || !*why)
			abort();  /* a refusal always says why */
		return 0;
	}
	/* every later check reads p->phdr: it must be what was checked,
	 * the file's own program headers */
	Ehdr eh;
	memcpy(&eh, data, sizeof eh);
	if ((uintptr_t)p->phdr % _Alignof(Phdr) || p->phnum != eh.e_phnum || memcmp(p->phdr, data + eh.e_phoff, p->phnum * sizeof(Phdr)))
		abort();
	search_every_symbol(p);
	munmap(p->map, p->map_len);
	if ((unsigned char *)p->phdr < p->map || (unsigned char *)p->phdr >= p->map + p->map_len)
		free(p->phdr);
	free(p->vdefs);
	free(p->vreqs);
	free(p);
	return 0;
}
