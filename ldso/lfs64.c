/* The LFS64 names on a musl without them. Up to musl 1.2.3, libc defined
 * fopen64, stat64 and the other large-file names as aliases of the plain
 * functions, and programs built then reference them; from 1.2.4 on libc
 * no longer defines them and musl's loader binds such a reference, when
 * nothing defines it, to libc's plain function. The loader is libc, so it
 * does the same for the names of that set (scripts/musl/facts: lfs64). */
#include <string.h>
#include "ldso.h"

/* The plain names whose "64" form musl 1.2.3 defined (readdir64_r is the
 * one whose suffix is not at the end). */
static const char *const plain[] = {
	"__fxstat", "__fxstatat", "__lxstat", "__xstat",
	"aio_cancel", "aio_error", "aio_fsync", "aio_read", "aio_return", "aio_suspend", "aio_write",
	"alphasort", "creat", "fallocate", "fgetpos", "fopen", "freopen", "fseeko", "fsetpos",
	"fstat", "fstatat", "fstatfs", "fstatvfs", "ftello", "ftruncate", "ftw", "getdents",
	"getrlimit", "glob", "globfree", "lio_listio", "lockf", "lseek", "lstat",
	"mkostemp", "mkostemps", "mkstemp", "mkstemps", "mmap", "nftw", "open", "openat",
	"posix_fadvise", "posix_fallocate", "pread", "preadv", "prlimit", "pwrite", "pwritev",
	"readdir", "scandir", "sendfile", "setrlimit", "stat", "statfs", "statvfs",
	"tmpfile", "truncate", "versionsort",
};

hidden int qb_lfs64_bind(const char *name, struct symdef *out)
{
	if (QB_MUSL_LFS64_LINK || !qb.ldso)
		return 0;
	const char *to = 0;
	size_t n = strnlen(name, 24);
	if (!strcmp(name, "readdir64_r")) {
		to = "readdir_r";
	} else if (n > 2 && n < 24 && !strcmp(name + n - 2, "64")) {
		for (size_t i = 0; i < sizeof plain / sizeof *plain && !to; i++)
			if (strlen(plain[i]) == n - 2 && !memcmp(plain[i], name, n - 2))
				to = plain[i];
	}
	if (!to)
		return 0;
	struct qb_symreq r;
	qb_symreq_init(&r, to, 0);
	Sym *s = qb_lookup_in(qb.ldso, &r);
	if (s)
		*out = (struct symdef){ s, qb.ldso };
	return s != 0;
}
