/* A library whose bss starts inside the last page of its data and spans
 * several pages more; relocated data (pointers) and read-only data beside
 * it. Built with several segment layouts (tests/loader.mk). */
#include <string.h>

extern int lay_dep_value(void);

int lay_data = 12345;
const char lay_rodata[] = "layout rodata";
const char *lay_ptr = lay_rodata;              /* a relative relocation */
int (*lay_fn)(void) = lay_dep_value;           /* a symbolic one */
char lay_bss[3 * 4096 + 100];
static char lay_small_bss[40];
int lay_ctor_runs;

__attribute__((constructor)) static void lay_init(void)
{
	lay_ctor_runs++;
}

/* 0 when everything holds what a fresh load gives */
int lay_check(void)
{
	for (size_t i = 0; i < sizeof lay_bss; i++)
		if (lay_bss[i])
			return 1;
	for (size_t i = 0; i < sizeof lay_small_bss; i++)
		if (lay_small_bss[i])
			return 2;
	if (lay_data != 12345 || strcmp(lay_ptr, "layout rodata") || lay_fn() != 77)
		return 3;
	return lay_ctor_runs == 1 ? 0 : 4;
}

void lay_dirty(void)
{
	memset(lay_bss, 0xaa, sizeof lay_bss);
	memset(lay_small_bss, 0x55, sizeof lay_small_bss);
	lay_data = 1;
}
