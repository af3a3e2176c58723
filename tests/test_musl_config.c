#define _GNU_SOURCE
/* configure's check of musl's internal facts (scripts/musl/facts) and
 * make install's check of an image's musl (issue 26). The musls configure
 * is given here are copies of the configured one (MC_LIBDIR) changed by
 * tests/muslconfig/fakemusl.sh the way another musl would differ: another
 * version string, an object of another size, a stub gone; the facts table
 * itself is changed through QB_MUSL_FACTS. Each refusal must be one line,
 * name what differs, exit non-zero and write no configuration. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/shell.h"
#include "lib/run.h"

static char *tmp;

static void setup(void)
{
	tmp = make_tmpdir(NULL);
}

static void teardown(void)
{
	shell_status("rm -rf '%s'", tmp);
	free(tmp);
}

TestSuite(musl_config, .init = setup, .fini = teardown);

/* DEST: a copy of the configured x86_64 musl, with EDITS applied */
static const char *fake(const char *name, const char *edits)
{
	static char dest[8][512];
	static int next;
	char *d = dest[next++ % 8];
	snprintf(d, 512, "%s/%s", tmp, name);
	shell_ok("make a changed musl", "sh %s/tests/muslconfig/fakemusl.sh %s %s/musl-gcc.specs %s %s",
		 MC_TOP, MC_LIBDIR, MC_LIBDIR, d, edits);
	return d;
}

static struct shell_result configure(const char *facts, const char *prefix, const char *out)
{
	return shell("cd %s && %s%s ./configure --musl=%s --output=%s/%s", MC_TOP,
		     facts ? "QB_MUSL_FACTS=" : "", facts ? facts : "", prefix, tmp, out);
}

static void refused(struct shell_result *r, const char *out, const char *const *says)
{
	cr_expect_neq(r->status, 0, "configure accepted it:\n%s", r->out);
	cr_expect_eq(count_lines(r->err), 1, "expected one line on stderr:\n%s", r->err);
	cr_expect(!strncmp(r->err, "configure: ", 11), "not configure's line:\n%s", r->err);
	for (; *says; says++)
		cr_expect(strstr(r->err, *says), "the refusal does not say \"%s\":\n%s", *says, r->err);
	char path[600];
	snprintf(path, sizeof path, "%s/%s", tmp, out);
	cr_expect(access(path, F_OK) != 0, "a refused configure wrote %s", path);
}

/* a version string of the same length as the configured one, other than it */
static const char *other_version(const char *not)
{
	static const char *const v[] = {"1.2.3", "1.2.5", "1.2.6"};
	for (size_t i = 0; i < 3; i++)
		if (strcmp(v[i], not))
			return v[i];
	return "1.2.9";
}

/* The configuration an accepted configure wrote to out (in tmp). */
static char *accepted_config(struct shell_result *r, const char *out, const char *what)
{
	cr_assert_eq(r->status, 0, "configure refused %s:\n%s", what, r->err);
	char path[600];
	snprintf(path, sizeof path, "%s/%s", tmp, out);
	return must_read_file(path, NULL);
}

Test(musl_config, accepts_the_configured_musl)
{
	struct shell_result r = configure(NULL, fake("same", ""), "same.mak");
	char *cfg = accepted_config(&r, "same.mak", "a copy of the musl it accepted");
	char want[64];
	snprintf(want, sizeof want, "MUSL_VERSION_x86_64 = %s\n", MC_VERSION);
	cr_expect(strstr(cfg, want), "no '%s' in:\n%s", want, cfg);
	cr_expect(strstr(cfg, "-DQB_MUSL_PTHREAD_SIZEOF="), "no facts for the build in:\n%s", cfg);
	free(cfg);
	shell_result_free(&r);
}

/* A version the table does not list (1.2.4 is in no Debian suite) is
 * accepted when every fact of a listed version holds, and says which. */
Test(musl_config, unknown_version_with_known_facts)
{
	struct shell_result r = configure(NULL, fake("v124", "version=1.2.4"), "v124.mak");
	cr_assert_eq(r.status, 0, "refused:\n%s", r.err);
	cr_expect(strstr(r.out, "musl 1.2.4, not in scripts/musl/facts: every fact of"),
		  "configure does not say which version's facts it used:\n%s", r.out);
	shell_result_free(&r);
}

/* The same version string with another object size: no listed version. */
Test(musl_config, unknown_version_other_size)
{
	struct shell_result r = configure(NULL, fake("v129", "version=1.2.9 size=__libc:112"), "v129.mak");
	const char *says[] = {"musl 1.2.9", "matches no listed version", "sizeof __libc is 112", NULL};
	refused(&r, "v129.mak", says);
	shell_result_free(&r);
}

/* A libc.a claiming a listed version whose facts it does not have. */
Test(musl_config, known_version_other_facts)
{
	const char *v = other_version(MC_VERSION);
	char edit[32];
	snprintf(edit, sizeof edit, "version=%s", v);
	struct shell_result r = configure(NULL, fake("relabel", edit), "relabel.mak");
	char ver[32];
	snprintf(ver, sizeof ver, "is musl %s", v);
	const char *says[] = {ver, "refusing", NULL};
	refused(&r, "relabel.mak", says);
	shell_result_free(&r);
}

/* A function not every build of a version has (getrandom here; Debian's
 * 1.2.5 adds renameat2, the upstream release does not) decides which test
 * programs are built, never whether the loader is. */
Test(musl_config, api_extra_missing_accepted)
{
	struct shell_result r = configure(NULL, fake("noapi", "drop=getrandom.lo"), "noapi.mak");
	char *cfg = accepted_config(&r, "noapi.mak", "a musl without getrandom");
	const char *api = strstr(cfg, "MUSL_API_x86_64 =");
	cr_assert(api, "no MUSL_API_x86_64 line in:\n%s", cfg);
	const char *eol = strchr(api, '\n');
	char *line = strndup(api, eol ? (size_t)(eol - api) : strlen(api));
	cr_expect(!strstr(line, "getrandom"), "the test programs would call getrandom: %s", line);
	free(line);
	free(cfg);
	shell_result_free(&r);
}

Test(musl_config, stub_missing)
{
	struct shell_result r = configure(NULL, fake("nostub", "drop=dlopen.lo"), "nostub.mak");
	const char *says[] = {"dlopen is not a weak stub", NULL};
	refused(&r, "nostub.mak", says);
	shell_result_free(&r);
}

/* A table whose offset disagrees with the loader's declarations: the
 * compile-time assertions of ldso/musl.h stop the probe. */
Test(musl_config, offset_differs)
{
	char facts[600];
	snprintf(facts, sizeof facts, "%s/facts", tmp);
	shell_ok("edit the facts", "sed 's/^x86_64 libc \\(.*\\) auxv=8 /x86_64 libc \\1 auxv=16 /' %s/scripts/musl/facts > %s",
		 MC_TOP, facts);
	struct shell_result r = configure(facts, fake("off", ""), "off.mak");
	const char *says[] = {"offset of struct qb_musl_libc.auxv", NULL};
	refused(&r, "off.mak", says);
	shell_result_free(&r);
}

/* A thread descriptor size the libc does not have: only running the probe
 * shows it (musl's TLS size of the probe accounts for the descriptor). */
Test(musl_config, thread_descriptor_size_differs)
{
	char facts[600];
	snprintf(facts, sizeof facts, "%s/facts", tmp);
	shell_ok("edit the facts", "sed 's/^x86_64 pthread sizeof=200 /x86_64 pthread sizeof=208 /' %s/scripts/musl/facts > %s",
		 MC_TOP, facts);
	struct shell_result r = configure(facts, fake("pt", ""), "pt.mak");
	const char *says[] = {"pthread.sizeof", "layout probe", NULL};
	refused(&r, "pt.mak", says);
	shell_result_free(&r);
}

Test(musl_config, bad_options)
{
	struct shell_result r = shell("cd %s && ./configure --musl=relative/path --output=%s/x.mak", MC_TOP, tmp);
	const char *says[] = {"absolute", NULL};
	refused(&r, "x.mak", says);
	shell_result_free(&r);
	r = shell("cd %s && ./configure --musl=%s/none --output=%s/y.mak", MC_TOP, tmp, tmp);
	const char *says2[] = {"no lib/libc.a", NULL};
	refused(&r, "y.mak", says2);
	shell_result_free(&r);
}

/* ------------------------------------------------------------ install -- */

static struct shell_result install(const char *root)
{
	return shell("cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR=%s %s",
		     MC_TOP, root, MC_MAKE_ARGS);
}

/* ROOT: a musl image whose /lib/ld-musl-x86_64.so.1 is LIBC (a copy of the
 * configured musl's libc.so, as edited) */
static const char *image(const char *name, const char *libc_edits, int debian_link)
{
	static char root[4][512];
	static int next;
	char *d = root[next++ % 4];
	const char *m = fake(name, libc_edits);
	snprintf(d, 512, "%s/%s-root", tmp, name);
	if (debian_link)
		/* Debian's layout: an absolute link into the image's /usr */
		shell_ok("make an image", "mkdir -p %s/lib %s/usr/lib/x86_64-linux-musl && "
			 "cp %s/lib/libc.so %s/usr/lib/x86_64-linux-musl/libc.so && "
			 "ln -s /usr/lib/x86_64-linux-musl/libc.so %s/lib/ld-musl-x86_64.so.1", d, d, m, d, d);
	else
		shell_ok("make an image", "mkdir -p %s/lib && cp %s/lib/libc.so %s/lib/ld-musl-x86_64.so.1 && "
			 "ln -s ld-musl-x86_64.so.1 %s/lib/libc.musl-x86_64.so.1", d, m, d, d);
	return d;
}

/* a shell function: are files $1 and $2 the same link (build id)? */
#define SAME_BUILD "same() { a=$(readelf -n \"$1\" | grep 'Build ID') && [ -n \"$a\" ] && " \
	"[ \"$a\" = \"$(readelf -n \"$2\" | grep 'Build ID')\" ]; }; same"

static void install_refused(const char *root, const char *says)
{
	shell_ok("note the image", "cd %s && { find . -exec ls -ld {} + && find . -type f -exec cksum {} +; } | sort > %s.before",
		 root, root);
	struct shell_result r = install(root);
	cr_expect_neq(r.status, 0, "make install accepted %s:\n%s", root, r.out);
	/* make adds its own "make: *** [install] Error" line after ours */
	cr_expect(!strncmp(r.err, "install: ", 9) && strstr(r.err, says),
		  "expected one line \"install: ... %s ...\" first, got:\n%s", says, r.err);
	int ours = 0;
	for (const char *l = r.err; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		ours += !strncmp(l, "install: ", 9);
	cr_expect_eq(ours, 1, "install printed more than one line:\n%s", r.err);
	shell_result_free(&r);
	struct shell_result d = shell("cd %s && { find . -exec ls -ld {} + && find . -type f -exec cksum {} +; } | sort > %s.after && "
				      "cmp %s.before %s.after", root, root, root, root);
	cr_expect_eq(d.status, 0, "a refused install changed %s", root);
	shell_result_free(&d);
}

Test(musl_config, install_into_matching_image)
{
	const char *root = image("match", "", 0);
	struct shell_result r = install(root);
	cr_assert_eq(r.status, 0, "make install refused an image of its own musl:\n%s", r.err);
	shell_result_free(&r);
	shell_ok("quickbind is the image's loader", "%s %s/lib/ld-musl-x86_64.so.1 %s/lib/ld-quickbind-x86_64.so.1 && "
		 "[ \"$(readlink %s/lib/libc.musl-x86_64.so.1)\" = ld-musl-x86_64.so.1 ] && "
		 "[ ! -e %s/etc/ld-quickbind-x86_64.path ] && [ ! -e %s/usr/local/bin/linkopt ]",
		 SAME_BUILD, root, MC_BUILD, root, root, root);
	/* installed once, it is recognised as the same musl again */
	r = install(root);
	cr_expect_eq(r.status, 0, "a second make install refused:\n%s", r.err);
	shell_result_free(&r);
}

/* On a system (an empty root here): the loader stripped, as a
 * distribution ships it; gdb finds its debugging information under
 * /usr/lib/debug by build id (asked for a line of the loader's own
 * source, which only that file holds); linkopt and the link-step wrapper
 * the README's -B line names, which finds the installed linkopt. */
Test(musl_config, install_on_a_system_stripped_with_debug_for_gdb)
{
	char root[600];
	snprintf(root, sizeof root, "%s/sysroot", tmp);
	struct shell_result r = install(root);
	cr_assert_eq(r.status, 0, "make install into an empty root failed:\n%s", r.err);
	shell_result_free(&r);
	const char *archs[] = { "x86_64", "i386" };
	for (size_t i = 0; i < 2; i++) {
		char built[600];
		snprintf(built, sizeof built, "%s/lib/ld-quickbind-%s.so.1", MC_BUILD, archs[i]);
		if (access(built, F_OK))
			continue;
		char *l = NULL;
		if (asprintf(&l, "%s/lib/ld-quickbind-%s.so.1", root, archs[i]) < 0)
			cr_assert_fail("out of memory");
		shell_ok("the installed loader is the build's", SAME_BUILD " %s %s", l, built);
		struct shell_result sec = shell("readelf -S -W %s", l);
		cr_expect(!strstr(sec.out, ".debug_info") && !strstr(sec.out, ".symtab") &&
			  strstr(sec.out, ".gnu_debuglink"), "%s is not stripped with a debuglink:\n%s", l, sec.out);
		shell_result_free(&sec);
		const char *fn = "qb_relocate_all";
		struct shell_result g = shell("gdb -batch -nx -iex 'set debug-file-directory %s/usr/lib/debug' "
					      "-ex 'info line %s' %s", root, fn, l);
		cr_expect(strstr(g.out, "reloc.c"), "%s: gdb does not find %s's line with %s/usr/lib/debug:\n%s%s",
			  archs[i], fn, root, g.out, g.err);
		shell_result_free(&g);
		g = shell("gdb -batch -nx -iex 'set debug-file-directory /nonexistent' -ex 'info line %s' %s", fn, l);
		cr_expect(!strstr(g.out, "reloc.c"), "%s: the line is found without the debug file:\n%s", archs[i],
			  g.out);
		shell_result_free(&g);
		free(l);
	}
	shell_ok("linkopt and the wrapper installed", "[ -x %s/usr/local/bin/linkopt ] && [ -x %s/usr/local/lib/linkopt/ld ] && "
		 "[ \"$(readlink %s/usr/local/lib/linkopt/ld.lld)\" = ld ]", root, root, root);
	/* the wrapper links through the real linker, then runs linkopt */
	shell_ok("a link through the installed wrapper", "cd %s && printf 'int main(void){return 0;}\\n' > w.c && "
		 "musl-gcc -B%s/usr/local/lib/linkopt -o w w.c && %s/usr/local/bin/linkopt --check w && ./w",
		 tmp, root, root);
	struct shell_result d = shell("%s/usr/local/bin/linkopt --dump %s/w", root, tmp);
	cr_expect(d.status == 0 && strstr(d.out, "DT_QB_TABLE"), "the wrapper's output has no tables:\n%s%s", d.out,
		  d.err);
	shell_result_free(&d);
}

Test(musl_config, install_refuses_another_version)
{
	const char *v = other_version(MC_VERSION);
	char edit[40], says[64];
	snprintf(edit, sizeof edit, "libc-version=%s", v);
	snprintf(says, sizeof says, "is musl %s; this quickbind", v);
	install_refused(image("other", edit, 0), says);
}

/* The version is read from the image's file, through its own absolute link,
 * never from the host's file of the same path. */
Test(musl_config, install_reads_the_image_libc)
{
	const char *v = other_version(MC_VERSION);
	char edit[40], says[64];
	snprintf(edit, sizeof edit, "libc-version=%s", v);
	snprintf(says, sizeof says, "is musl %s", v);
	install_refused(image("deblink", edit, 1), says);
}

Test(musl_config, install_refuses_an_unknown_libc)
{
	const char *root = image("garbage", "", 0);
	shell_ok("break the libc", "printf 'not a libc\\n' > %s/lib/ld-musl-x86_64.so.1", root);
	install_refused(root, "cannot tell which musl");
}
