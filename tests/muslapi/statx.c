/* statx (musl 1.2.5): a file, a directory, a symbolic link and a missing
 * name, each compared with what stat/lstat say. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include "ma.h"

static void show(const char *path, int flags)
{
	struct statx sx;
	struct stat st;
	if (statx(AT_FDCWD, path, flags, STATX_BASIC_STATS, &sx)) {
		printf("%s: statx %s\n", path, ma_err(errno));
		return;
	}
	int r = flags & AT_SYMLINK_NOFOLLOW ? lstat(path, &st) : stat(path, &st);
	printf("%s: size %llu type %o nlink %u mask-size %d same-as-stat %d\n", path,
	       (unsigned long long)sx.stx_size, sx.stx_mode & S_IFMT, sx.stx_nlink,
	       !!(sx.stx_mask & STATX_SIZE),
	       !r && sx.stx_ino == (unsigned long long)st.st_ino &&
	       sx.stx_size == (unsigned long long)st.st_size && sx.stx_mode == st.st_mode);
}

int main(void)
{
	ma_enter("statx");
	ma_file("f", "twelve bytes");
	if (mkdir("d", 0755) || symlink("f", "l"))
		return 2;
	show("f", 0);
	show("d", 0);
	show("l", 0);
	show("l", AT_SYMLINK_NOFOLLOW);
	show("missing", 0);
	return 0;
}
