/* Prints how much of libbig.so's last loadable segment (linkopt's: its
 * tables and .dynamic) is resident once the program runs, from the
 * process's own /proc/self/smaps:
 *   "segment PAGES pages, dynamic DPAGES pages, resident KB kB" */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int big_100(void);
int big_999(void);

static unsigned long seg_lo, seg_hi, dyn_lo, dyn_hi;

static int find(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libbig.so"))
		return 0;
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long lo = (info->dlpi_addr + ph->p_vaddr) & -page;
		unsigned long hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		if (ph->p_type == PT_LOAD && lo >= seg_lo) {
			seg_lo = lo;
			seg_hi = hi;
		}
		if (ph->p_type == PT_DYNAMIC) {
			dyn_lo = lo;
			dyn_hi = hi;
		}
	}
	return 1;
}

int main(void)
{
	if (big_100() + big_999() != 1099)
		return 1;
	if (!dl_iterate_phdr(find, 0) || !seg_hi) {
		puts("libbig.so not found");
		return 1;
	}
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f) {
		puts("no /proc/self/smaps");
		return 1;
	}
	char line[512];
	unsigned long lo = 0, hi = 0, kb, total = 0;
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			continue;
		if (sscanf(line, "Rss: %lu kB", &kb) == 1 && lo >= seg_lo && hi <= seg_hi) {
			total += kb;
			found = 1;
		}
	}
	fclose(f);
	if (!found) {
		puts("linkopt's segment of libbig.so not in /proc/self/smaps");
		return 1;
	}
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	unsigned long dpages = dyn_hi > seg_lo && dyn_lo < seg_hi ? (dyn_hi - dyn_lo) / page : 0;
	printf("segment %lu pages, dynamic %lu pages, resident %lu kB\n",
	       (seg_hi - seg_lo) / page, dpages, total);
	return 0;
}
