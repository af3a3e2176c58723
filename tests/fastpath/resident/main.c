/* Prints how much of libbig.so's last loadable segment (linkopt's: its
 * tables and .dynamic) is resident once the program runs (linked with it,
 * or, built with -DDLOPEN, after dlopen):
 *   "segment PAGES pages, dynamic DPAGES pages, resident KB kB"
 * then the offset of each page counted. A page is resident when the
 * process maps it: /proc/self/pagemap's present bit, page by page (the
 * segment may share its mapping with the writable segment before it, so
 * a mapping's total in smaps would count that one's pages too). Where
 * pagemap does not show the program's own pages (qemu-user reads the
 * host's), it prints "pagemap shows no page of this process". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
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

static unsigned long base, seg_vaddr, seg_off, seg_end, dyn_lo, dyn_hi, page;

static int find(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libbig.so"))
		return 0;
	base = info->dlpi_addr;
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
	/* pagemap is this process's when a fresh page shows absent, then,
	 * once written, present */
	int fd = open("/proc/self/pagemap", O_RDONLY);
	volatile char *fresh = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t e = 0, before = 1;
	if (fd >= 0 && fresh != MAP_FAILED &&
	    pread(fd, &before, 8, (off_t)((uintptr_t)fresh / page * 8)) == 8 && (fresh[0] = 1) &&
	    pread(fd, &e, 8, (off_t)((uintptr_t)fresh / page * 8)) == 8)
		e = !(before >> 63) && (e >> 63);
	if (!e) {
		puts("pagemap shows no page of this process");
		return 0;
	}
	char held[1024] = "";
	unsigned long total = 0;
	for (unsigned long a = (seg_vaddr & -page); a < (seg_vaddr & -page) + (seg_end - seg_off); a += page) {
		if (pread(fd, &e, 8, (off_t)((base + a) / page * 8)) != 8) {
			puts("pagemap cannot be read");
			return 1;
		}
		if (!(e >> 63))
			continue;
		total += page / 1024;
		size_t n = strlen(held);
		if (n < sizeof held - 64)
			snprintf(held + n, sizeof held - n, "page at %lx\n", a);
	}
	close(fd);
	unsigned long seg_lo = seg_vaddr & -page, seg_hi = seg_lo + (seg_end - seg_off);
	unsigned long dpages = dyn_hi > seg_lo && dyn_lo < seg_hi ? (dyn_hi - dyn_lo) / page : 0;
	printf("segment %lu pages, dynamic %lu pages, resident %lu kB\n%s",
	       (seg_end - seg_off) / page, dpages, total, held);
	return 0;
}
