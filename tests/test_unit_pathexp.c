#include <criterion/criterion.h>
#include <string.h>
#include "pathexp.h"

Test(pathexp, split_skips_empty_elements)
{
	const char *cur = "::/a:/bb\n/ccc::", *e;
	size_t n;
	n = qb_path_next(&cur, ":\n", &e);
	cr_assert_eq(n, 2); cr_assert(!strncmp(e, "/a", n));
	n = qb_path_next(&cur, ":\n", &e);
	cr_assert_eq(n, 3); cr_assert(!strncmp(e, "/bb", n));
	n = qb_path_next(&cur, ":\n", &e);
	cr_assert_eq(n, 4); cr_assert(!strncmp(e, "/ccc", n));
	cr_assert_eq(qb_path_next(&cur, ":\n", &e), 0);
}
