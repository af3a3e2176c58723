#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "linkopt_fixture.h"

#ifndef LOT_DIR
#error "LOT_DIR (where tests/linkopt.mk links the variants) must be defined by the build"
#endif

const char *const lot_variants[] = {
	"g64bfd", "g64lld", "g64mold", "m64bfd", "m64lld", "m64mold",
	"m32bfd", "m32lld", "m32mold", "g32bfd", "g32lld", "g64sysv", "m32sysv",
	"g64gold", "m64gold",
};
#define NVAR (sizeof lot_variants / sizeof *lot_variants)
const size_t lot_nvariants = NVAR;
const char *const lot_files[3] = { "prog", "liba.so", "libb.so" };

/* filled from the table so a new variant cannot be missed */
int *lot_variant_indices(void)
{
	static int idx[NVAR];
	for (size_t i = 0; i < NVAR; i++)
		idx[i] = (int)i;
	return idx;
}

const char *lot_bin(void)
{
	static char p[PATH_MAX];
	if (!p[0] && !realpath(LINKOPT_BIN, p))
		cr_assert_fail("cannot find %s", LINKOPT_BIN);
	return p;
}

char *lot_copy_variant(const char *variant)
{
	char *dir = make_tmpdir(NULL);
	int st = shell_status("cp -p %s/%s/prog %s/%s/liba.so %s/%s/libb.so %s/%s/libb2.so %s/",
			      LOT_DIR, variant, LOT_DIR, variant, LOT_DIR, variant, LOT_DIR, variant, dir);
	cr_assert_eq(st, 0, "cannot copy the %s fixtures to %s", variant, dir);
	return dir;
}

const char *lot_loader_prefix(const char *variant)
{
	if (!strncmp(variant, "g32", 3))
		return "/usr/i686-linux-gnu/lib/ld-linux.so.2 --library-path /usr/i686-linux-gnu/lib";
	return "";
}
