/* Prints how much of libbig.so's last loadable segment (linkopt's: its
 * tables and .dynamic) is resident once the program runs (linked with it,
 * or, built with -DDLOPEN, after dlopen), from the
 * process's own /proc/self/smaps:
 *   "segment PAGES pages, dynamic DPAGES pages, resident KB kB"
 * then each mapping counted that has resident pages. Mappings are matched
 * by file name and offset, not address: under qemu-user smaps shows the
 * host's addresses, which may differ from the program's by a constant. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef DLOPEN
/* prog_dl: libbig.so comes in by dlopen, the loader's other path */
static int call(const char *name)
{
	static void *h;
	if (!h && !(h = dlopen("libbig.so", RTLD_NOW)))
		return -1;
	int (*f)(void) = (int (*)(void))dlsym(h, name);
	return f ? f() : -1;
}
#define big_100() call("big_100")
#define big_999() call("big_999")
#else
int big_100(void);
int big_999(void);
#endif

static unsigned long seg_vaddr, seg_off, seg_end, dyn_lo, dyn_hi, page;

static int find(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libbig.so"))
		return 0;
	int found = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (!found || ph->p_vaddr > seg_vaddr)) {
			seg_vaddr = ph->p_vaddr;
			seg_off = ph->p_offset & -page;
			seg_end = (ph->p_offset + ph->p_memsz + page - 1) & -page;
			found = 1;
		}
		if (ph->p_type == PT_DYNAMIC) {
			dyn_lo = ph->p_vaddr & -page;
			dyn_hi = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		}
	}
	return found;
}

int main(void)
{
	page = (unsigned long)sysconf(_SC_PAGESIZE);
	if (big_100() + big_999() != 1099)
		return 1;
	if (!dl_iterate_phdr(find, 0)) {
		puts("libbig.so not found");
		return 1;
	}
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f) {
		puts("no /proc/self/smaps");
		return 1;
	}
	char line[512], held[1024] = "";
	unsigned long lo, hi, off = 0, kb, total = 0;
	int in = 0, found = 0;
	while (fgets(line, sizeof line, f)) {
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s %lx ", &lo, &hi, perm, &off) == 4) {
			in = strstr(line, "/libbig.so\n") && off >= seg_off && off < seg_end;
			found |= in;
			continue;
		}
		if (in && sscanf(line, "Rss: %lu kB", &kb) == 1 && kb) {
			total += kb;
			size_t n = strlen(held);
			if (n < sizeof held - 64)
				snprintf(held + n, sizeof held - n, "offset %lx: %lu kB\n", off, kb);
		}
	}
	fclose(f);
	if (!found) {
		puts("linkopt's segment of libbig.so not in /proc/self/smaps");
		return 1;
	}
	unsigned long seg_lo = seg_vaddr & -page, seg_hi = seg_lo + (seg_end - seg_off);
	unsigned long dpages = dyn_hi > seg_lo && dyn_lo < seg_hi ? (dyn_hi - dyn_lo) / page : 0;
	printf("segment %lu pages, dynamic %lu pages, resident %lu kB\n%s",
	       (seg_end - seg_off) / page, dpages, total, held);
	return 0;
}
