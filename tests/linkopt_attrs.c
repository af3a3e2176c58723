/* linkopt keeps every attribute of the files it rewrites: owner, mode with
 * its set-id bits, times, file capabilities, ACLs and other extended
 * attributes; it follows symbolic links to the file, and refuses a file
 * with several hard links (docs/LINKOPT.md says why). Run as root (CI is): only
 * root can give files away or set capabilities. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "elffile.h"
#include "linkopt_fixture.h"
#include "lib/run.h"

static void need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root (owners, capabilities); CI runs as root");
}

/* Is id one of the ids a map of /proc/self (uid_map, gid_map) holds? */
static int id_mapped(const char *map, unsigned long id)
{
	char path[64];
	unsigned long in, out, n;
	int found = 0;
	snprintf(path, sizeof path, "/proc/self/%s", map);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fscanf(f, "%lu %lu %lu", &in, &out, &n) == 3)
		if (id >= in && id - in < n)
			found = 1;
	fclose(f);
	return found;
}

/* Root of a user namespace (scripts/i386-qemu.sh's) may give a file only
 * the ids the namespace maps. */
static void need_ids(unsigned long uid, unsigned long gid)
{
	if (!id_mapped("uid_map", uid) || !id_mapped("gid_map", gid))
		cr_skip_test("uid %lu or gid %lu is not mapped in this user namespace", uid, gid);
}

/* A copy of the m64bfd fixtures in a fresh directory. */
static char *fixture(void)
{
	return lot_copy_variant("m64bfd");
}

static int optimized(const char *path)
{
	struct elf e;
	int ok = elf_load_file(&e, path) == 0 && e.qbt_off && e.syminfo_off;
	elf_free(&e);
	return ok;
}

/* -L: a set-id program's $ORIGIN run path does not count (the loader's
 * secure mode), so its libraries are named explicitly. */
static void optimize_ok(const char *dir, const char *files)
{
	struct shell_result r = shell("cd %s && %s -L %s %s", dir, lot_bin(), dir, files);
	cr_assert_eq(r.status, 0, "linkopt %s: %s", files, r.err);
	cr_assert_str_empty(r.err);
	shell_result_free(&r);
}

Test(linkopt_attrs, setuid_setgid_owner_and_times)
{
	need_root();
	need_ids(1234, 5678);
	char *d = fixture(), p[PATH_MAX];
	snprintf(p, sizeof p, "%s/prog", d);
	shell_ok(NULL, "chown 1234:5678 %s && chmod 6751 %s && touch -d '2001-02-03 04:05:06' %s", p, p, p);
	struct stat before, after;
	cr_assert_eq(stat(p, &before), 0);
	cr_assert_eq(before.st_mode & 07777, 06751);
	optimize_ok(d, "liba.so libb.so prog");
	cr_assert_eq(stat(p, &after), 0);
	cr_assert(optimized(p));
	cr_assert_neq(after.st_ino, before.st_ino, "not rewritten");
	cr_assert_eq(after.st_mode & 07777, 06751, "mode %04o", (unsigned)(after.st_mode & 07777));
	cr_assert_eq(after.st_uid, 1234);
	cr_assert_eq(after.st_gid, 5678);
	cr_assert_eq(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	cr_assert_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
	/* the access time is that of linkopt's own reading of the file */
	/* -o gives the output the input's attributes too */
	char q[PATH_MAX];
	snprintf(q, sizeof q, "%s/out", d);
	shell_ok(NULL, "cd %s && chown 42:43 libb.so && chmod 2755 libb.so && %s -o out libb.so", d, lot_bin());
	cr_assert_eq(stat(q, &after), 0);
	cr_assert_eq(after.st_mode & 07777, 02755);
	cr_assert_eq(after.st_uid, 42);
	cr_assert_eq(after.st_gid, 43);
}

/* Raw bytes of one extended attribute, or NULL. */
static char *xattr(const char *path, const char *name, ssize_t *len)
{
	*len = getxattr(path, name, NULL, 0);
	if (*len < 0)
		return NULL;
	char *v = malloc((size_t)*len + 1);
	cr_assert(v);
	*len = getxattr(path, name, v, (size_t)*len);
	return v;
}

Test(linkopt_attrs, file_capabilities)
{
	need_root();
	char *d = fixture(), p[PATH_MAX];
	snprintf(p, sizeof p, "%s/prog", d);
	/* setcap comes with libcap2-bin (scripts/deps.sh) */
	shell_ok(NULL, "chmod 4755 %s && setcap cap_net_raw,cap_net_bind_service+ep %s", p, p);
	ssize_t l1, l2;
	char *c1 = xattr(p, "security.capability", &l1);
	cr_assert(c1 && l1 > 0, "setcap set nothing");
	optimize_ok(d, "liba.so libb.so prog");
	cr_assert(optimized(p));
	char *c2 = xattr(p, "security.capability", &l2);
	cr_assert(c2, "security.capability lost");
	cr_assert(l1 == l2 && !memcmp(c1, c2, (size_t)l1), "capabilities changed");
	struct shell_result r = shell("getcap %s", p);
	cr_assert(strstr(r.out, "cap_net_bind_service,cap_net_raw=ep"), "%s", r.out);
	shell_result_free(&r);
	struct stat st;
	cr_assert_eq(stat(p, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 04755);
	free(c1);
	free(c2);
}

Test(linkopt_attrs, acls_and_other_xattrs)
{
	need_root();
	need_ids(1234, 5678);
	char *d = fixture(), p[PATH_MAX];
	snprintf(p, sizeof p, "%s/liba.so", d);
	/* setfacl/getfacl come with acl (scripts/deps.sh) */
	shell_ok(NULL, "setfacl -m u:1234:rx,g:5678:r %s", p);
	int user_ok = setxattr(p, "user.linkopt-test", "some value", 10, 0) == 0;
	cr_assert_eq(setxattr(p, "trusted.linkopt-test", "\0\1\2", 3, 0), 0);
	struct shell_result before = shell("getfacl -c %s", p);
	cr_assert(strstr(before.out, "user:1234:r-x"), "%s", before.out);
	optimize_ok(d, "libb.so liba.so");
	cr_assert(optimized(p));
	struct shell_result after = shell("getfacl -c %s", p);
	cr_assert_str_eq(after.out, before.out);
	ssize_t l;
	char *v = xattr(p, "trusted.linkopt-test", &l);
	cr_assert(v && l == 3 && !memcmp(v, "\0\1\2", 3), "trusted.* attribute lost");
	free(v);
	if (user_ok) {
		v = xattr(p, "user.linkopt-test", &l);
		cr_assert(v && l == 10 && !memcmp(v, "some value", 10), "user.* attribute lost");
		free(v);
	}
	shell_result_free(&before);
	shell_result_free(&after);
}

/* A symbolic link stays a link; the file it names is optimized. */
Test(linkopt_attrs, follows_symlinks)
{
	char *d = fixture();
	shell_ok(NULL, "cd %s && mkdir real && mv libb.so real/libb.so.1.2 && ln -s real/libb.so.1.2 libb.so && "
		 "ln -s prog prog-link", d);
	optimize_ok(d, "libb.so liba.so prog-link");
	char p[PATH_MAX], t[PATH_MAX];
	struct stat st;
	const char *links[][2] = { { "libb.so", "real/libb.so.1.2" }, { "prog-link", "prog" } };
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/%s", d, links[i][0]);
		cr_assert_eq(lstat(p, &st), 0);
		cr_assert(S_ISLNK(st.st_mode), "%s replaced by a regular file", p);
		ssize_t n = readlink(p, t, sizeof t - 1);
		cr_assert(n > 0);
		t[n] = 0;
		cr_assert_str_eq(t, links[i][1]);
		snprintf(p, sizeof p, "%s/%s", d, links[i][1]);
		cr_assert(optimized(p), "%s not optimized", p);
	}
	struct shell_result r = shell("%s/prog x y", d);
	cr_assert_eq(r.status, 3, "%s", r.err);
	shell_result_free(&r);
	shell_ok(NULL, "cd %s && %s --check prog liba.so", d, lot_bin());
}

/* Replacing one name of a hard-linked file would split the links: refused
 * with one line, nothing changed. */
Test(linkopt_attrs, refuses_hard_links)
{
	char *d = fixture();
	shell_ok(NULL, "cd %s && ln libb.so libb-other-name.so && cp -p libb.so ref", d);
	char p[PATH_MAX], q[PATH_MAX];
	snprintf(p, sizeof p, "%s/libb.so", d);
	snprintf(q, sizeof q, "%s/ref", d);
	struct stat before, after;
	cr_assert_eq(stat(p, &before), 0);
	struct shell_result r = shell("cd %s && %s libb.so", d, lot_bin());
	cr_assert_eq(r.status, 2, "status %d", r.status);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	cr_assert(!strncmp(r.err, "linkopt: libb.so: ", 18) && strstr(r.err, "hard links"), "%s", r.err);
	shell_result_free(&r);
	cr_assert_eq(stat(p, &after), 0);
	cr_assert_eq(after.st_ino, before.st_ino);
	cr_assert_eq(after.st_nlink, 2);
	cr_assert(same_file(p, q));
	/* -o onto a hard-linked file is refused the same way */
	r = shell("cd %s && cp libb.so in.so && %s -o libb-other-name.so in.so", d, lot_bin());
	cr_assert_eq(r.status, 2, "status %d", r.status);
	cr_assert(strstr(r.err, "hard links"), "%s", r.err);
	shell_result_free(&r);
	cr_assert(same_file(p, q));
}

/* --root: a file whose every name lies in the tree is optimized once and
 * each name then points at the new file (the links stay links); one with
 * a name outside the tree is refused, nothing changed. */
Test(linkopt_attrs, root_keeps_hard_links_inside_the_tree)
{
	char *d = fixture();
	shell_ok(NULL, "cd %s && mkdir -p img/usr/bin img/usr/lib img/opt && mv prog img/usr/bin/ && "
		 "cp liba.so liba.orig && mv liba.so libb.so img/usr/lib/ && ln img/usr/bin/prog img/usr/bin/prog2 && "
		 "ln img/usr/lib/libb.so img/opt/libb-copy.so", d);
	char p[PATH_MAX], q[PATH_MAX], l[PATH_MAX];
	struct stat before, a, b;
	snprintf(p, sizeof p, "%s/img/usr/bin/prog", d);
	snprintf(q, sizeof q, "%s/img/usr/bin/prog2", d);
	cr_assert_eq(stat(p, &before), 0);
	struct shell_result r = shell("cd %s && %s --root img", d, lot_bin());
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.err);
	shell_result_free(&r);
	const char *groups[][2] = { { "usr/bin/prog", "usr/bin/prog2" }, { "usr/lib/libb.so", "opt/libb-copy.so" } };
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/img/%s", d, groups[i][0]);
		snprintf(q, sizeof q, "%s/img/%s", d, groups[i][1]);
		cr_assert_eq(stat(p, &a), 0);
		cr_assert_eq(stat(q, &b), 0);
		cr_assert(optimized(p), "%s not optimized", p);
		cr_assert_eq(a.st_ino, b.st_ino, "%s and %s are no longer one file", groups[i][0], groups[i][1]);
		cr_assert_eq(a.st_nlink, 2, "%s: %lu links", groups[i][0], (unsigned long)a.st_nlink);
	}
	cr_assert_neq(a.st_ino, before.st_ino);
	r = shell("cd %s/img && LD_LIBRARY_PATH=usr/lib usr/bin/prog2", d);
	cr_assert_eq(r.status, 3, "%s%s", r.out, r.err); /* the program's own exit status */
	shell_result_free(&r);
	shell_ok(NULL, "cd %s/img && %s --check --root .", d, lot_bin());
	/* no file of the tree left behind */
	r = shell("cd %s/img && find . -name '.linkopt.*' | wc -l", d);
	cr_assert_str_eq(r.out, "0\n");
	shell_result_free(&r);

	/* a name outside the tree: refused, nothing changed */
	shell_ok(NULL, "cd %s && cp liba.orig img/usr/lib/liba.so && ln img/usr/lib/liba.so outside.so", d);
	snprintf(l, sizeof l, "%s/img/usr/lib/liba.so", d);
	snprintf(q, sizeof q, "%s/liba.orig", d);
	cr_assert_eq(stat(l, &before), 0);
	r = shell("cd %s && %s --root img", d, lot_bin());
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "liba.so: has 2 hard links"), "%s", r.err);
	shell_result_free(&r);
	cr_assert_eq(stat(l, &a), 0);
	cr_assert_eq(a.st_ino, before.st_ino);
	cr_assert_eq(a.st_nlink, 2);
	cr_assert(same_file(l, q));
}

/* Pointing the other names at the new file can fail too (here: one name's
 * directory is immutable). Each arrangement is tried: the name linkopt
 * reaches first is the one it replaces, so in one of the two the other
 * name cannot be pointed at the new file after the replacement, and
 * everything is undone. Either way every name stays the old file and
 * nothing else in the tree changes. */
Test(linkopt_attrs, root_hard_link_failure_changes_nothing)
{
	need_root();
	unsigned relink_failed = 0;
	for (unsigned k = 0; k < 2; k++) {
		char *d = fixture();
		const char *lock = k ? "img/l1" : "img/l2";
		struct shell_result r = shell("cd %s && mkdir -p img/l1 img/l2 img/usr/lib img/usr/bin && cp libb.so img/l1/libx.so && "
				      "ln img/l1/libx.so img/l2/libx.so && mv liba.so libb.so img/usr/lib/ && mv prog img/usr/bin/ && "
				      "chattr +i %s", d, lock);
		if (r.status)
			cr_skip_test("chattr +i not possible here (needs ext2/3/4, xfs or btrfs): %s", r.err);
		shell_result_free(&r);
		r = shell("cd %s/img && find . -type f -printf '%%p %%s %%i %%n\\n' | sort && "
			   "cat $(find . -type f | sort) | md5sum", d);
		char *before = r.out;
		free(r.err);
		r = shell("cd %s && %s --root img", d, lot_bin());
		struct shell_result u = shell("chattr -i %s/%s", d, lock);
		shell_result_free(&u);
		cr_assert_eq(r.status, 2, "%s locked: status %d: %s", lock, r.status, r.err);
		cr_assert(strstr(r.err, "no file changed"), "%s locked: %s", lock, r.err);
		relink_failed += strstr(r.err, "cannot point the hard link") != NULL;
		shell_result_free(&r);
		r = shell("cd %s/img && find . -type f -printf '%%p %%s %%i %%n\\n' | sort && "
			   "cat $(find . -type f | sort) | md5sum", d);
		cr_assert_str_eq(r.out, before, "%s locked", lock);
		shell_result_free(&r);
		free(before);
	}
	cr_assert_eq(relink_failed, 1, "the failure after the replacement was not reached");
}
