/* The LFS64 names at the link level. Built with -DLFS64 by musl 1.2.3's
 * toolchain, the last whose libc defines them, this program references
 * fopen64, stat64, lseek64, ... as binaries of that time do (declaring
 * them itself, as other languages' bindings did); built without, it
 * calls the plain functions: the output must be the same. From musl
 * 1.2.4 on, only the loader can bind the first build. dlsym is not
 * redirected, by musl or quickbind: its line tells whether libc has the
 * name. */
#define _BSD_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "ma.h"

#ifdef LFS64
/* musl 1.2.3's headers map these names to the plain ones as macros under
 * _GNU_SOURCE or _LARGEFILE64_SOURCE; this build wants the symbols. */
#undef fopen64
#undef fseeko64
#undef ftello64
#undef open64
#undef fstat64
#undef stat64
#undef lstat64
#undef lseek64
#undef pread64
#undef pwrite64
#undef ftruncate64
#undef mmap64
#undef readdir64
#undef readdir64_r
#undef getrlimit64
#undef mkstemp64
#undef statvfs64
#undef glob64
#undef globfree64
#define L(name) name##64
FILE *fopen64(const char *, const char *);
int fseeko64(FILE *, off_t, int);
off_t ftello64(FILE *);
int open64(const char *, int, ...);
int fstat64(int, struct stat *);
int stat64(const char *, struct stat *);
int lstat64(const char *, struct stat *);
off_t lseek64(int, off_t, int);
ssize_t pread64(int, void *, size_t, off_t);
ssize_t pwrite64(int, const void *, size_t, off_t);
int ftruncate64(int, off_t);
void *mmap64(void *, size_t, int, int, int, off_t);
struct dirent *readdir64(DIR *);
int readdir64_r(DIR *, struct dirent *, struct dirent **);
int getrlimit64(int, struct rlimit *);
int mkstemp64(char *);
int statvfs64(const char *, struct statvfs *);
int glob64(const char *, int, int (*)(const char *, int), glob_t *);
void globfree64(glob_t *);
#define readdir_r readdir64_r
#else
#define L(name) name
#endif

int main(void)
{
	ma_enter("lfs64");
	int fd = L(open)("f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	printf("open: %d\n", fd >= 0);
	printf("pwrite: %zd\n", L(pwrite)(fd, "0123456789", 10, 0));
	char b[8] = {0};
	ssize_t got = L(pread)(fd, b, 4, 3);
	printf("pread: %zd %s\n", got, b);
	printf("lseek: %lld\n", (long long)L(lseek)(fd, 0, SEEK_END));
	printf("ftruncate: %d\n", L(ftruncate)(fd, 1 << 16));
	struct stat st;
	int r = L(fstat)(fd, &st);
	printf("fstat: %d %lld\n", r, (long long)st.st_size);
	char *m = L(mmap)(0, 4096, PROT_READ, MAP_SHARED, fd, 0);
	printf("mmap: %c%c\n", m == MAP_FAILED ? '?' : m[0], m == MAP_FAILED ? '?' : m[9]);
	close(fd);
	r = L(stat)("f", &st);
	printf("stat: %d %lld\n", r, (long long)st.st_size);
	if (symlink("f", "l"))
		return 2;
	r = L(lstat)("l", &st);
	printf("lstat: %d %d\n", r, S_ISLNK(st.st_mode));
	FILE *f = L(fopen)("f", "r");
	printf("fopen: %d\n", f != 0);
	r = L(fseeko)(f, 100, SEEK_SET);
	printf("fseeko: %d ftello: %lld\n", r, (long long)L(ftello)(f));
	fclose(f);
	char tmpl[] = "tXXXXXX";
	int t = L(mkstemp)(tmpl);
	printf("mkstemp: %d\n", t >= 0);
	close(t);
	DIR *d = opendir(".");
	int n = 0;
	while (L(readdir)(d))
		n++;
	printf("readdir: %d entries\n", n);
	rewinddir(d);
	struct dirent ent, *res;
	n = 0;
	while (!readdir_r(d, &ent, &res) && res)
		n++;
	printf("readdir_r: %d entries\n", n);
	closedir(d);
	glob_t g;
	r = L(glob)("[fl]", 0, 0, &g);
	printf("glob: %d %zu\n", r, g.gl_pathc);
	L(globfree)(&g);
	struct rlimit rl;
	printf("getrlimit: %d\n", L(getrlimit)(RLIMIT_NOFILE, &rl));
	struct statvfs vfs;
	printf("statvfs: %d\n", L(statvfs)(".", &vfs));
	printf("dlsym fopen64: %s\n", dlsym(RTLD_DEFAULT, "fopen64") ? "defined" : "absent");
	return 0;
}
