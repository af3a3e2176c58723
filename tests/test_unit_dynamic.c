#include <criterion/criterion.h>
#include <elf.h>
#include "elfview.h"

Test(dynamic, decodes_the_fields_the_loader_uses)
{
	Elf64_Dyn d[] = {
		{ DT_NEEDED, { 1 } }, { DT_NEEDED, { 9 } },
		{ DT_STRTAB, { 0x400 } }, { DT_STRSZ, { 100 } },
		{ DT_SYMTAB, { 0x200 } }, { DT_SYMENT, { sizeof(Elf64_Sym) } },
		{ DT_GNU_HASH, { 0x100 } }, { DT_RUNPATH, { 20 } },
		{ DT_RELA, { 0x800 } }, { DT_RELASZ, { 48 } }, { DT_RELAENT, { 24 } },
		{ DT_INIT_ARRAY, { 0x900 } }, { DT_INIT_ARRAYSZ, { 16 } },
		{ DT_QB_TABLE, { 0xa00 } }, { DT_QB_TABLESZ, { 64 } },
		{ DT_NULL, { 0 } },
	};
	struct qb_dyninfo di;
	const char *why = 0;
	cr_assert_eq(qb_decode_dynamic(d, 100, 1, &di, &why), 0, "%s", why);
	cr_assert_eq(di.nneeded, 2);
	cr_assert_eq(di.strtab, 0x400);
	cr_assert_eq(di.symtab, 0x200);
	cr_assert_eq(di.gnu_hash, 0x100);
	cr_assert(di.have & QB_HAVE_RUNPATH);
	cr_assert_eq(di.runpath, 20);
	cr_assert_eq(di.relasz, 48);
	cr_assert_eq(di.init_arraysz, 16);
	cr_assert_eq(di.qb_table, 0xa00);
	cr_assert_eq(di.qb_tablesz, 64);
}

Test(dynamic, rejects_unterminated_and_inconsistent_arrays)
{
	Elf64_Dyn d[] = { { DT_STRTAB, { 1 } }, { DT_SYMTAB, { 2 } }, { DT_STRSZ, { 4 } } };
	struct qb_dyninfo di;
	const char *why = 0;
	cr_assert_eq(qb_decode_dynamic(d, 3, 1, &di, &why), -1);
	cr_assert_not_null(why);

	Elf64_Dyn e[] = { { DT_STRTAB, { 1 } }, { DT_SYMTAB, { 2 } }, { DT_STRSZ, { 4 } },
		{ DT_SONAME, { 4 } }, { DT_NULL, { 0 } } };
	cr_assert_eq(qb_decode_dynamic(e, 5, 1, &di, &why), -1, "soname at strsz");

	Elf64_Dyn f[] = { { DT_SYMTAB, { 2 } }, { DT_NULL, { 0 } } };
	cr_assert_eq(qb_decode_dynamic(f, 2, 1, &di, &why), -1, "no strtab");

	Elf64_Dyn g[] = { { DT_STRTAB, { 1 } }, { DT_SYMTAB, { 2 } }, { DT_RELAENT, { 16 } },
		{ DT_RELA, { 8 } }, { DT_NULL, { 0 } } };
	cr_assert_eq(qb_decode_dynamic(g, 5, 1, &di, &why), -1, "bad RELAENT");
}

Test(dynamic, decodes_32bit_arrays)
{
	Elf32_Dyn d[] = { { DT_STRTAB, { 0x10 } }, { DT_SYMTAB, { 0x20 } },
		{ DT_REL, { 0x30 } }, { DT_RELSZ, { 16 } }, { DT_NULL, { 0 } } };
	struct qb_dyninfo di;
	const char *why = 0;
	cr_assert_eq(qb_decode_dynamic(d, 5, 0, &di, &why), 0);
	cr_assert_eq(di.rel, 0x30);
	cr_assert_eq(di.relsz, 16);
}

static const struct qb_verdef_ent v_base = { "libx.so", 1, 1 };
static const struct qb_verdef_ent v1 = { "V1", 0x5631, 0 };
static const struct qb_verreq want_v1 = { "V1", 0x5631, 0 };
static const struct qb_verreq want_v2 = { "V2", 0x5632, 0 };

Test(version, unversioned_reference_takes_default_only)
{
	cr_assert(qb_version_match(2, 1, &v1, NULL));
	cr_assert_not(qb_version_match(0x8002, 1, &v1, NULL), "hidden version never binds");
	cr_assert_not(qb_version_match(0, 1, NULL, NULL), "local");
	cr_assert(qb_version_match(1, 1, &v_base, NULL));
	cr_assert(qb_version_match(0, 0, NULL, NULL), "object without versions");
}

Test(version, versioned_reference_needs_its_version)
{
	cr_assert(qb_version_match(2, 1, &v1, &want_v1));
	cr_assert(qb_version_match(0x8002, 1, &v1, &want_v1), "explicit version binds hidden");
	cr_assert_not(qb_version_match(2, 1, &v1, &want_v2));
	cr_assert(qb_version_match(1, 1, &v_base, &want_v1), "unversioned definition");
	cr_assert(qb_version_match(0, 0, NULL, &want_v2), "object without versions");
}
