#include <criterion/criterion.h>
#include "elfhash.h"

/* Reference values from the ELF gABI and the GNU hash definition,
 * cross-checked against readelf's hash sections of real libraries. */
Test(hash, gnu_known_values)
{
	cr_assert_eq(qb_gnu_hash(""), 0x00001505u);
	cr_assert_eq(qb_gnu_hash("printf"), 0x156b2bb8u);
	cr_assert_eq(qb_gnu_hash("exit"), 0x7c967e3fu);
	cr_assert_eq(qb_gnu_hash("syscall"), 0xbac212a0u);
}

Test(hash, sysv_known_values)
{
	cr_assert_eq(qb_sysv_hash(""), 0u);
	cr_assert_eq(qb_sysv_hash("printf"), 0x077905a6u);
	cr_assert_eq(qb_sysv_hash("exit"), 0x0006cf04u);
	cr_assert_eq(qb_sysv_hash("syscall"), 0x0b09985cu);
}

Test(hash, sysv_keeps_28_bits_for_long_names)
{
	const char *n = "_ZN9Namespace5Class13someLongMethodEPKcRKSt6vectorIiSaIiEE";
	cr_assert_eq(qb_sysv_hash(n) >> 28, 0u);
	cr_assert_neq(qb_sysv_hash(n), qb_sysv_hash("_ZN9Namespace5Class13someLongMethodEPKc"));
}
