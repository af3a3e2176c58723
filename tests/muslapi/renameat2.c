/* renameat2 (musl 1.2.5): RENAME_NOREPLACE refuses an existing target,
 * RENAME_EXCHANGE swaps two names. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "ma.h"

static void cat(const char *path)
{
	char buf[32] = {0};
	FILE *f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof buf, f))
		printf("%s: unreadable\n", path);
	else
		printf("%s: %s\n", path, buf);
	if (f)
		fclose(f);
}

int main(void)
{
	ma_enter("renameat2");
	ma_file("a", "first");
	ma_file("b", "second");
	int r = renameat2(AT_FDCWD, "a", AT_FDCWD, "b", RENAME_NOREPLACE);
	printf("noreplace onto b: %d %s\n", r, r ? ma_err(errno) : "");
	r = renameat2(AT_FDCWD, "a", AT_FDCWD, "c", RENAME_NOREPLACE);
	printf("noreplace to c: %d\n", r);
	r = renameat2(AT_FDCWD, "c", AT_FDCWD, "b", RENAME_EXCHANGE);
	printf("exchange c and b: %d %s\n", r, r ? ma_err(errno) : "");
	cat("b");
	cat("c");
	return 0;
}
