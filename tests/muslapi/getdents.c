/* posix_getdents (musl 1.2.6): the entries of a directory made here,
 * read in small buffers, sorted. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include "ma.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	ma_enter("getdents");
	const char *names[] = {"delta", "alpha", "charlie", "bravo", "echo"};
	for (int i = 0; i < 5; i++)
		ma_file(names[i], names[i]);
	int fd = open(".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return 2;
	char *seen[16];
	int n = 0, calls = 0;
	_Alignas(8) char buf[128];
	ssize_t got;
	while ((got = posix_getdents(fd, buf, sizeof buf, 0)) > 0) {
		calls++;
		for (ssize_t off = 0; off < got;) {
			struct posix_dent *d = (void *)(buf + off);
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") && n < 16)
				seen[n++] = strdup(d->d_name);
			off += d->d_reclen;
		}
	}
	printf("posix_getdents: end %zd, %s calls, %d names:", got, calls > 1 ? "several" : "one", n);
	qsort(seen, n, sizeof *seen, cmp);
	for (int i = 0; i < n; i++)
		printf(" %s", seen[i]);
	printf("\n");
	close(fd);
	return 0;
}
