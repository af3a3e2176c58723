/* The kernel's vDSO, described as an object of the list after the
 * start-up objects, as musl places it: dl_iterate_phdr reports it (an
 * unwinder finds its PT_GNU_EH_FRAME there, a profiler its symbols),
 * dladdr names addresses in it, the debugger's link map holds it. It
 * never joins the global scope (its symbols are not the program's), and
 * nothing about it is relocated, constructed or unloaded. */
#include <string.h>
#include "ldso.h"

static struct dso vdso;

hidden void qb_vdso_attach(size_t ehdr_addr)
{
	struct dso *p = &vdso;
	const Ehdr *eh = (const Ehdr *)ehdr_addr;
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != QB_ELFCLASS ||
	    eh->e_phentsize != sizeof(Phdr))
		return;
	p->phdr = (Phdr *)(ehdr_addr + eh->e_phoff);
	p->phnum = eh->e_phnum;
	const Phdr *load = 0;
	for (size_t i = 0; i < p->phnum && !load; i++)
		if (p->phdr[i].p_type == PT_LOAD)
			load = &p->phdr[i];
	if (!load)
		return;
	p->base = (unsigned char *)(ehdr_addr + load->p_offset - load->p_vaddr);
	/* musl's names: no path, and the name a dlopen may use */
	p->name = "";
	p->shortname = "linux-gate.so.1";
	if (qb_dso_describe(p))
		return;
	p->relocated = p->constructed = p->deps_loaded = p->nodelete = 1;
	/* after the start-up objects, which the global table covers */
	p->runtime = 1;
	qb_dso_append(p);
}
