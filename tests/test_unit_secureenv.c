/* ldso/secureenv.c on a pretend initial stack. */
#include <criterion/criterion.h>
#include <string.h>
#include "secureenv.h"

static size_t stack[32];

/* argc, argv..., NULL, env..., NULL, then an aux vector {6, 4096, 0, 0}. */
static size_t *build(const char *const *argv, const char *const *env, size_t **auxv)
{
	size_t n = 0, argc = 0;
	while (argv[argc])
		argc++;
	stack[n++] = argc;
	for (size_t i = 0; i < argc; i++)
		stack[n++] = (size_t)argv[i];
	stack[n++] = 0;
	for (size_t i = 0; env[i]; i++)
		stack[n++] = (size_t)env[i];
	stack[n++] = 0;
	*auxv = &stack[n];
	stack[n++] = 6;
	stack[n++] = 4096;
	stack[n++] = 0;
	stack[n++] = 0;
	return stack;
}

Test(secureenv, unsafe_variables_leave_and_the_stack_stays_whole)
{
	const char *argv[] = { "prog", "arg", NULL };
	const char *env[] = { "A=1", "LD_PRELOAD=/evil.so", "MALLOC_ARENA_MAX=2", "LD_PRELOADX=1", "TMPDIR",
		"B=2", "LD_NOHINTS=1", "TZDIR=/t", "LD_BIND_NOW=", NULL };
	size_t *auxv;
	size_t *sp = build(argv, env, &auxv);
	size_t *nsp = qb_secure_env(sp);
	cr_assert_eq(nsp, sp + 6, "6 variables removed: the stack starts 6 words up");
	cr_assert_eq(nsp[0], 2);
	char **nargv = (char **)(nsp + 1);
	cr_assert_str_eq(nargv[0], "prog");
	cr_assert_str_eq(nargv[1], "arg");
	cr_assert_null(nargv[2]);
	char **nenv = nargv + 3;
	cr_assert_str_eq(nenv[0], "A=1");
	cr_assert_str_eq(nenv[1], "LD_PRELOADX=1");
	cr_assert_str_eq(nenv[2], "B=2");
	cr_assert_null(nenv[3]);
	cr_assert_eq((size_t *)&nenv[4], auxv, "the aux vector follows the environment");
	cr_assert_eq(auxv[0], 6);
	cr_assert_eq(auxv[1], 4096);
}

Test(secureenv, nothing_to_remove_leaves_the_stack_alone)
{
	const char *argv[] = { "p", NULL };
	const char *env[] = { "HOME=/root", "PATH=/bin", NULL };
	size_t *auxv;
	size_t *sp = build(argv, env, &auxv);
	cr_assert_eq(qb_secure_env(sp), sp);
	cr_assert_str_eq((char *)sp[3], "HOME=/root");
	cr_assert_str_eq((char *)sp[4], "PATH=/bin");
}

Test(secureenv, everything_removed)
{
	const char *argv[] = { "p", NULL };
	const char *env[] = { "LD_LIBRARY_PATH=/x", "GCONV_PATH=/y", NULL };
	size_t *auxv;
	size_t *sp = build(argv, env, &auxv);
	size_t *nsp = qb_secure_env(sp);
	cr_assert_eq(nsp, sp + 2);
	cr_assert_eq(nsp[0], 1);
	cr_assert_str_eq((char *)nsp[1], "p");
	cr_assert_eq(nsp[2], 0);
	cr_assert_eq(nsp[3], 0, "empty environment");
	cr_assert_eq(&nsp[4], auxv);
}
