/* Loads each library named on the command line twice: checks its data,
 * bss and constructor on each load, that every page of every loadable
 * segment has exactly the protections its program header asks for, the
 * pages between segments none, and
 * that after dlclose no page of it, nor of the dependency that went with
 * it, is mapped any more (a loader that unloads at dlclose). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct seg {
	unsigned long lo, hi;
	char prot[4];
};

static struct seg segs[64];
static int nsegs;
static const char *want;

static int collect(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	(void)ctx;
	if (!strstr(info->dlpi_name, want))
		return 0;
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum && nsegs < 64; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		struct seg *s = &segs[nsegs++];
		s->lo = (info->dlpi_addr + ph->p_vaddr) & -page;
		s->hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		s->prot[0] = ph->p_flags & PF_R ? 'r' : '-';
		s->prot[1] = ph->p_flags & PF_W ? 'w' : '-';
		s->prot[2] = ph->p_flags & PF_X ? 'x' : '-';
		s->prot[3] = 0;
	}
	return 0;
}

/* /proc/self/maps read without allocating: an allocation could map
 * memory where an unloaded object was. */
static char maps[1 << 16];

static void read_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	size_t n = 0;
	ssize_t k;
	while (fd >= 0 && n < sizeof maps - 1 && (k = read(fd, maps + n, sizeof maps - 1 - n)) > 0)
		n += (size_t)k;
	maps[n] = 0;
	if (fd >= 0)
		close(fd);
}

/* Every page of [lo, hi) mapped with protection prot ("r-x"); *any: some
 * page of it is mapped at all. (For a gap, mapped with "---" or not at
 * all is right: *any tells them apart.) */
static int pages_have(unsigned long lo, unsigned long hi, const char *prot, int *any)
{
	unsigned long at = lo;
	int ok = 1;
	*any = 0;
	for (const char *l = maps; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		unsigned long a, b;
		char perms[8];
		if (sscanf(l, "%lx-%lx %7s", &a, &b, perms) != 3 || b <= lo || a >= hi)
			continue;
		*any = 1;
		if (a > at || strncmp(perms, prot, 3))
			ok = 0;
		if (b > at)
			at = b;
	}
	return ok && at >= hi;
}

static int mapped_any(void)
{
	read_maps();
	for (int i = 0; i < nsegs; i++) {
		int any;
		pages_have(segs[i].lo, segs[i].hi, "---", &any);
		if (any)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		for (int round = 0; round < 2; round++) {
			void *h = dlopen(argv[a], RTLD_NOW | RTLD_LOCAL);
			if (!h) {
				printf("%s: %s\n", argv[a], dlerror());
				return 1;
			}
			int (*check)(void) = (int (*)(void))dlsym(h, "lay_check");
			void (*dirty)(void) = (void (*)(void))dlsym(h, "lay_dirty");
			printf("%s load %d: check %d\n", argv[a], round, check ? check() : -1);
			nsegs = 0;
			want = argv[a] + 1;   /* the name without its leading '.' */
			dl_iterate_phdr(collect, 0);
			int mine = nsegs;
			want = "liblaydep.so";
			dl_iterate_phdr(collect, 0);
			int wrong = !mine || nsegs == mine;
			read_maps();
			for (int i = 0; i < nsegs; i++) {
				int any;
				/* a writable segment's first pages may be RELRO,
				 * read-only now: only its last page is checked */
				unsigned long lo = segs[i].prot[1] == 'w' ? segs[i].hi - 4096 : segs[i].lo;
				if (!pages_have(lo, segs[i].hi, segs[i].prot, &any)) {
					printf("  segment %d (%s) is not mapped as its header says\n", i, segs[i].prot);
					wrong = 1;
				}
			}
			/* the pages between its segments: reserved, never
			 * readable (dl_iterate_phdr lists them in order) */
			for (int i = 0; i + 1 < mine; i++) {
				int any;
				if (segs[i].hi < segs[i + 1].lo &&
				    !pages_have(segs[i].hi, segs[i + 1].lo, "---", &any) && any) {
					printf("  the gap after segment %d is accessible\n", i);
					wrong = 1;
				}
			}
			if (!wrong)
				printf("  every segment of it and its dependency mapped as its header says\n");
			if (dirty)
				dirty();
			dlclose(h);
			printf("  after dlclose: %s\n", mapped_any() ? "STILL MAPPED" : "gone");
		}
	}
	return 0;
}
