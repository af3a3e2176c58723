/* The debugger interface: struct r_debug reachable through the program's
 * DT_DEBUG entry and _dl_debug_addr, and _dl_debug_state, on which
 * debuggers set a breakpoint to hear about changes to the object list. */
#include <link.h>
#include "ldso.h"

static struct r_debug debug;
QB_PUBLIC struct r_debug *_dl_debug_addr = &debug;

__attribute__((noinline, visibility("default"))) void _dl_debug_state(void)
{
	__asm__ volatile("" ::: "memory");
}

hidden void qb_debug_init(void)
{
	debug.r_version = 1;
	debug.r_map = (struct link_map *)qb.head;
	debug.r_brk = (ElfW(Addr))_dl_debug_state;
	debug.r_ldbase = (ElfW(Addr))qb.ldso->base;
	debug.r_state = RT_CONSISTENT;
	for (Dyn *d = (Dyn *)qb.main->dynv; d && d->d_tag; d++)
		if (d->d_tag == DT_DEBUG &&
		    qb_writable(qb.main, (size_t)((unsigned char *)&d->d_un - qb.main->base), sizeof d->d_un))
			d->d_un.d_ptr = (ElfW(Addr))&debug;
	_dl_debug_state();
}

hidden void qb_debug_change(int state)
{
	debug.r_state = state;
	_dl_debug_state();
}
