/* Our own declarations of the parts of musl 1.2.3's internal ABI that the
 * loader touches. configure refuses any other musl (sizes are checked
 * against libc.a). The layouts are facts of that ABI. */
#ifndef QB_MUSL_H
#define QB_MUSL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>

#define QB_HIDDEN __attribute__((visibility("hidden")))
#define QB_PUBLIC __attribute__((visibility("default")))

struct qb_tls_module {
	struct qb_tls_module *next;
	void *image;
	size_t len, size, align, offset;
};

struct qb_musl_locale {
	const void *cat[6];
};

struct qb_musl_libc {
	char can_do_threads;
	char threaded;
	char secure;
	volatile signed char need_locks;
	int threads_minus_1;
	size_t *auxv;
	struct qb_tls_module *tls_head;
	size_t tls_size, tls_align, tls_cnt;
	size_t page_size;
	struct qb_musl_locale global_locale;
};

/* Leading fields of musl's thread descriptor (x86 variant II layout);
 * the whole descriptor is QB_PTHREAD_SIZE bytes (arch/<name>/arch.h). */
struct qb_pthread_head {
	struct qb_pthread_head *self;
	uintptr_t *dtv;
	void *prev, *next;
	uintptr_t sysinfo;
	uintptr_t canary;
};


extern struct qb_musl_libc __libc QB_HIDDEN;
extern size_t __hwcap QB_HIDDEN;
extern size_t __sysinfo QB_HIDDEN;
extern char *__progname, *__progname_full;
extern char **__environ;
extern int __malloc_replaced QB_HIDDEN;
extern int __aligned_alloc_replaced QB_HIDDEN;

void *__copy_tls(unsigned char *) QB_HIDDEN;
int __init_tp(void *) QB_HIDDEN;
void __init_ssp(void *) QB_HIDDEN;
void __init_libc(char **, char *) QB_HIDDEN;
void *__libc_malloc(size_t) QB_HIDDEN;
void *__libc_calloc(size_t, size_t) QB_HIDDEN;
void *__libc_realloc(void *, size_t) QB_HIDDEN;
void __libc_free(void *) QB_HIDDEN;
void __dl_vseterr(const char *, va_list) QB_HIDDEN;
void __tl_lock(void) QB_HIDDEN;
void __tl_unlock(void) QB_HIDDEN;
ptrdiff_t __tlsdesc_static(void) QB_HIDDEN;
ptrdiff_t __tlsdesc_dynamic(void) QB_HIDDEN;
void *__tls_get_addr(size_t *);

#endif
