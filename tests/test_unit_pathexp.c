#include <criterion/criterion.h>
#include <string.h>
#include "pathexp.h"

static const char *exp1(const char *in, const char *origin)
{
	static char out[256];
	long n = qb_expand_origin(in, strlen(in), origin, out, sizeof out);
	return n < 0 ? NULL : out;
}

Test(pathexp, origin_forms)
{
	cr_assert_str_eq(exp1("$ORIGIN/lib", "/opt/app"), "/opt/app/lib");
	cr_assert_str_eq(exp1("${ORIGIN}/../lib", "/opt/app"), "/opt/app/../lib");
	cr_assert_str_eq(exp1("/usr/lib", "/opt/app"), "/usr/lib");
	cr_assert_str_eq(exp1("$ORIGIN", "."), ".");
}

Test(pathexp, unknown_tokens_and_lookalikes_are_refused)
{
	cr_assert_null(exp1("$LIB/x", "/o"));
	cr_assert_null(exp1("$ORIGINAL/x", "/o"));
	cr_assert_null(exp1("${ORIGIN/x", "/o"));
}

Test(pathexp, overflow_is_refused)
{
	char out[8];
	cr_assert_eq(qb_expand_origin("$ORIGIN/x", 9, "/a/long/origin", out, sizeof out), -1);
	cr_assert_eq(qb_expand_origin("abcdefgh", 8, "/", out, sizeof out), -1);
	cr_assert_eq(qb_expand_origin("abcdefg", 7, "/", out, sizeof out), 7);
}

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

Test(pathexp, dirname)
{
	cr_assert_eq(qb_dirname_len("/usr/lib/libc.so"), 8);
	cr_assert_eq(qb_dirname_len("/libc.so"), 1);
	cr_assert_eq(qb_dirname_len("libc.so"), 0);
	cr_assert_eq(qb_dirname_len("./a"), 1);
}
