/* preadv2 and pwritev2 (musl 1.2.5): explicit offsets, the file position
 * (offset -1), RWF_APPEND, and a flag the kernel refuses. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include "ma.h"

int main(void)
{
	ma_enter("rwv2");
	int fd = open("f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 2;
	char a[] = "hello, ", b[] = "world";
	struct iovec w[2] = {{a, 7}, {b, 5}};
	printf("pwritev2 at 0: %zd\n", pwritev2(fd, w, 2, 0, 0));
	char x[5] = {0}, y[4] = {0};
	struct iovec r[2] = {{x, 4}, {y, 3}};
	ssize_t n = preadv2(fd, r, 2, 3, 0);
	printf("preadv2 at 3: %zd '%s' '%s'\n", n, x, y);
	struct iovec tail = {"!", 1};
	printf("pwritev2 append: %zd\n", pwritev2(fd, &tail, 1, 0, RWF_APPEND));
	n = pwritev2(fd, w, 1, -1, 0);
	printf("pwritev2 at position: %zd (position %ld)\n", n, (long)lseek(fd, 0, SEEK_CUR));
	char all[32] = {0};
	struct iovec whole = {all, sizeof all - 1};
	n = preadv2(fd, &whole, 1, 0, 0);
	printf("preadv2 whole: %zd '%s'\n", n, all);
	errno = 0;
	n = pwritev2(fd, w, 1, 0, 0x40000000);
	printf("pwritev2 unknown flag: %zd %s\n", n, n < 0 ? ma_err(errno) : "accepted");
	close(fd);
	return 0;
}
