/* posix_fallocate64: an LFS64 name of 17 characters, built with -DLFS64
 * by musl 1.2.3's toolchain. musl 1.2.4 and 1.2.5's loaders do not bind
 * it (they compare names in a 16-byte buffer); 1.2.6's and quickbind do,
 * and the output must be the plain build's. */
#include <fcntl.h>
#include <sys/stat.h>
#include "ma.h"

#ifdef LFS64
int posix_fallocate64(int, off_t, off_t);
#define posix_fallocate posix_fallocate64
#endif

int main(void)
{
	ma_enter("lfs64long");
	int fd = open("f", O_RDWR | O_CREAT, 0644);
	struct stat st;
	printf("posix_fallocate: %d\n", posix_fallocate(fd, 0, 12345));
	int r = fstat(fd, &st);
	printf("size: %d %lld\n", r, (long long)st.st_size);
	return 0;
}
