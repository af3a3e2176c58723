/* common/libsearch.c on a pretend file system: the order of the
 * candidates it tries, $ORIGIN expansion and the secure-mode rules. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "libsearch.h"

struct obj {
	const char *rpath, *path;
	int program;
	const struct obj *up;
};

struct fs {
	const char *const *files;   /* existing files */
	const char *fail;           /* opening this one is an error that stops */
	char tried[4096];           /* every candidate, one per line */
};

static const void *link_of(void *ctx, const void *o, struct qb_chain_link *out)
{
	(void)ctx;
	const struct obj *p = o;
	out->rpath = p->rpath;
	out->path = p->path;
	out->program = p->program;
	return p->up;
}

static int try_file(void *ctx, const char *path, enum qb_search_src src)
{
	(void)src;
	struct fs *fs = ctx;
	strcat(fs->tried, path);
	strcat(fs->tried, "\n");
	if (fs->fail && !strcmp(path, fs->fail))
		return -1;
	for (const char *const *f = fs->files; f && *f; f++)
		if (!strcmp(*f, path))
			return 1;
	return 0;
}

static char buf[4096];

static int search(struct fs *fs, const char *env, const struct obj *chain, const char *sys, int secure,
	const char *name)
{
	struct qb_search s = {
		.env_path = env, .sys_path = sys, .secure = secure, .needed_by = chain,
		.link = link_of, .try_file = try_file, .ctx = fs, .buf = buf, .bufsz = sizeof buf,
	};
	fs->tried[0] = 0;
	return qb_search_library(&s, name);
}

Test(libsearch, order_env_then_chain_then_system)
{
	const struct obj prog = { "/p1:$ORIGIN/pl", "/opt/app/bin/prog", 1, NULL };
	const struct obj liba = { NULL, "/opt/app/lib/liba.so", 0, &prog };
	const struct obj libb = { "${ORIGIN}/bl", "/opt/app/lib/libb.so", 0, &liba };
	struct fs fs = { 0 };
	cr_assert_eq(search(&fs, "/e1::/e2", &libb, "/s1\n/s2\n", 0, "libx.so"), 0);
	cr_assert_str_eq(fs.tried,
		"/e1/libx.so\n/e2/libx.so\n"
		"/opt/app/lib/bl/libx.so\n"
		"/p1/libx.so\n/opt/app/bin/pl/libx.so\n"
		"/s1/libx.so\n/s2/libx.so\n");
}

Test(libsearch, first_file_found_ends_the_search)
{
	const struct obj prog = { "/p1", "/bin/prog", 1, NULL };
	const char *const files[] = { "/p1/libx.so", "/s1/libx.so", NULL };
	struct fs fs = { .files = files };
	cr_assert_eq(search(&fs, NULL, &prog, "/s1", 0, "libx.so"), 1);
	cr_assert_str_eq(buf, "/p1/libx.so");
	cr_assert_str_eq(fs.tried, "/p1/libx.so\n");
}

Test(libsearch, an_error_stops_the_search_unfound)
{
	const char *const files[] = { "/s1/libx.so", NULL };
	struct fs fs = { .files = files, .fail = "/e1/libx.so" };
	cr_assert_eq(search(&fs, "/e1:/e2", NULL, "/s1", 0, "libx.so"), 0);
	cr_assert_str_eq(fs.tried, "/e1/libx.so\n");
}

Test(libsearch, origin_forms)
{
	const struct obj lib = { "$ORIGIN:${ORIGIN}/../x:$ORIGINsuffix:/a$ORIGIN", "/o/p/lib.so", 0, NULL };
	struct fs fs = { 0 };
	search(&fs, NULL, &lib, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/o/p/l.so\n/o/p/../x/l.so\n/o/psuffix/l.so\n/a/o/p/l.so\n");
	/* no '/' in the name: the origin is "." */
	const struct obj bare = { "$ORIGIN/lib", "prog", 1, NULL };
	search(&fs, NULL, &bare, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "./lib/l.so\n");
}

Test(libsearch, another_dollar_token_voids_the_whole_list)
{
	const struct obj lib = { "/plain:$ORIGIN/x:$LIB/y", "/o/lib.so", 0, NULL };
	struct fs fs = { 0 };
	search(&fs, NULL, &lib, "/s", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/s/l.so\n");
	/* in LD_LIBRARY_PATH and the system list a '$' is just a character */
	search(&fs, "/$ORIGIN", NULL, "/$LIB", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/$ORIGIN/l.so\n/$LIB/l.so\n");
}

Test(libsearch, unknown_origin_skips_only_lists_that_need_it)
{
	const struct obj a = { "$ORIGIN/x:/y", NULL, 1, NULL };
	struct fs fs = { 0 };
	search(&fs, NULL, &a, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "");
	const struct obj b = { "/y", NULL, 1, NULL };
	search(&fs, NULL, &b, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/y/l.so\n");
}

Test(libsearch, secure_program_origin_must_be_trusted)
{
	const struct obj evil = { "$ORIGIN/lib:/opt/abs:rel", "/home/u/prog", 1, NULL };
	struct fs fs = { 0 };
	search(&fs, NULL, &evil, "/s", 1, "l.so");
	cr_assert_str_eq(fs.tried, "/opt/abs/l.so\n/s/l.so\n");
	search(&fs, NULL, &evil, "/s", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/home/u/lib/l.so\n/opt/abs/l.so\nrel/l.so\n/s/l.so\n");

	const struct obj sys = { "$ORIGIN/../lib/app:$ORIGIN/../../home/x", "/usr/bin/prog", 1, NULL };
	search(&fs, NULL, &sys, "", 1, "l.so");
	cr_assert_str_eq(fs.tried, "/usr/bin/../lib/app/l.so\n");
}

Test(libsearch, secure_library_origin_must_be_absolute)
{
	const struct obj prog = { NULL, "/usr/bin/prog", 1, NULL };
	const struct obj lib = { "$ORIGIN/dep", "/opt/vendor/lib/libv.so", 0, &prog };
	const struct obj rel = { "$ORIGIN/dep", "sub/libr.so", 0, &prog };
	struct fs fs = { 0 };
	search(&fs, NULL, &lib, "", 1, "l.so");
	cr_assert_str_eq(fs.tried, "/opt/vendor/lib/dep/l.so\n");
	search(&fs, NULL, &rel, "", 1, "l.so");
	cr_assert_str_eq(fs.tried, "");
	search(&fs, NULL, &rel, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "sub/dep/l.so\n");
}

Test(libsearch, trusted_directories)
{
	static const char *const yes[] = { "/lib", "/usr/lib", "/usr/lib/x86_64-linux-musl", "//usr/./lib/",
		"/usr/bin/../lib/app", "/lib/../lib/x" };
	static const char *const no[] = { "/libx", "/usr/libexec", "/usr/lib/../../tmp", "/home/lib",
		"lib", "", "/usr/local/lib", "/usr/lib/../local/lib" };
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		cr_expect(qb_trusted_dir(yes[i], strlen(yes[i])), "%s should be trusted", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		cr_expect(!qb_trusted_dir(no[i], strlen(no[i])), "%s should not be trusted", no[i]);
}

Test(libsearch, too_long_candidates_are_skipped)
{
	char longdir[5000];
	memset(longdir, 'd', sizeof longdir - 1);
	longdir[0] = '/';
	longdir[sizeof longdir - 1] = 0;
	char env[5100];
	snprintf(env, sizeof env, "%s:/ok", longdir);
	struct fs fs = { 0 };
	search(&fs, env, NULL, "", 0, "l.so");
	cr_assert_str_eq(fs.tried, "/ok/l.so\n");
}

Test(libsearch, reserved_names)
{
	static const char *const reserved[] = {
		"libc.so", "libc.musl-x86_64.so.1", "libpthread.so.0", "libm.so.6", "libxnet.so",
		"librt.so.1", "libdl.so.2", "libutil.so", "libc.",
	};
	static const char *const other[] = {
		"libcrypto.so", "libmagic.so", "libc", "mylibc.so", "libc++.so.1", "libpthreads.so",
		"libutils.so", "libdl", "lib", "li", "", "LIBc.so",
	};
	for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
		cr_expect(qb_search_reserved(reserved[i]), "%s is reserved", reserved[i]);
	for (size_t i = 0; i < sizeof other / sizeof *other; i++)
		cr_expect(!qb_search_reserved(other[i]), "%s is not reserved", other[i]);
}
