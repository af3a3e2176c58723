/* Our own declarations of the parts of musl's internal ABI that the loader
 * touches. The layouts are facts of each musl version, written down once
 * in scripts/musl/facts; ./configure checks the facts of the version it
 * finds against that libc.a and passes them to the build as QB_MUSL_*
 * macros, and the assertions below hold these declarations to them, so a
 * loader is never built on a layout nobody checked. */
#ifndef QB_MUSL_H
#define QB_MUSL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define QB_HIDDEN __attribute__((visibility("hidden")))
#define QB_PUBLIC __attribute__((visibility("default")))

struct qb_tls_module {
	struct qb_tls_module *next;
	void *image;
	size_t len, size, align, offset;
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
	struct { const void *cat[6]; } global_locale;
};

/* Leading fields of musl's thread descriptor (x86 variant II layout);
 * the whole descriptor is QB_PTHREAD_SIZE bytes. */
struct qb_pthread_head {
	struct qb_pthread_head *self;
	uintptr_t *dtv;
	void *prev, *next;
	uintptr_t sysinfo;
	uintptr_t canary;
};

#ifndef QB_MUSL_VERSION
#error "the musl facts (QB_MUSL_*) come from ./configure through config.mak"
#endif

#define QB_PTHREAD_SIZE QB_MUSL_PTHREAD_SIZEOF

#define QB_MUSL_FACT(cond, what) _Static_assert(cond, what " differs from scripts/musl/facts for musl " QB_MUSL_VERSION)
#define QB_MUSL_AT(type, field, off) QB_MUSL_FACT(offsetof(type, field) == (off), "offset of " #type "." #field)

QB_MUSL_FACT(sizeof(struct qb_musl_libc) == QB_MUSL_LIBC_SIZEOF, "sizeof(struct __libc)");
QB_MUSL_AT(struct qb_musl_libc, can_do_threads, QB_MUSL_LIBC_CAN_DO_THREADS);
QB_MUSL_AT(struct qb_musl_libc, threaded, QB_MUSL_LIBC_THREADED);
QB_MUSL_AT(struct qb_musl_libc, secure, QB_MUSL_LIBC_SECURE);
QB_MUSL_AT(struct qb_musl_libc, need_locks, QB_MUSL_LIBC_NEED_LOCKS);
QB_MUSL_AT(struct qb_musl_libc, threads_minus_1, QB_MUSL_LIBC_THREADS_MINUS_1);
QB_MUSL_AT(struct qb_musl_libc, auxv, QB_MUSL_LIBC_AUXV);
QB_MUSL_AT(struct qb_musl_libc, tls_head, QB_MUSL_LIBC_TLS_HEAD);
QB_MUSL_AT(struct qb_musl_libc, tls_size, QB_MUSL_LIBC_TLS_SIZE);
QB_MUSL_AT(struct qb_musl_libc, tls_align, QB_MUSL_LIBC_TLS_ALIGN);
QB_MUSL_AT(struct qb_musl_libc, tls_cnt, QB_MUSL_LIBC_TLS_CNT);
QB_MUSL_AT(struct qb_musl_libc, page_size, QB_MUSL_LIBC_PAGE_SIZE);

QB_MUSL_FACT(sizeof(struct qb_tls_module) == QB_MUSL_TLS_MODULE_SIZEOF, "sizeof(struct tls_module)");
QB_MUSL_AT(struct qb_tls_module, next, QB_MUSL_TLS_MODULE_NEXT);
QB_MUSL_AT(struct qb_tls_module, image, QB_MUSL_TLS_MODULE_IMAGE);
QB_MUSL_AT(struct qb_tls_module, len, QB_MUSL_TLS_MODULE_LEN);
QB_MUSL_AT(struct qb_tls_module, size, QB_MUSL_TLS_MODULE_SIZE);
QB_MUSL_AT(struct qb_tls_module, align, QB_MUSL_TLS_MODULE_ALIGN);
QB_MUSL_AT(struct qb_tls_module, offset, QB_MUSL_TLS_MODULE_OFFSET);

QB_MUSL_FACT(sizeof(struct qb_pthread_head) <= QB_PTHREAD_SIZE, "the thread descriptor's size");
QB_MUSL_AT(struct qb_pthread_head, self, QB_MUSL_PTHREAD_SELF);
QB_MUSL_AT(struct qb_pthread_head, dtv, QB_MUSL_PTHREAD_DTV);
QB_MUSL_AT(struct qb_pthread_head, prev, QB_MUSL_PTHREAD_PREV);
QB_MUSL_AT(struct qb_pthread_head, next, QB_MUSL_PTHREAD_NEXT);
QB_MUSL_AT(struct qb_pthread_head, sysinfo, QB_MUSL_PTHREAD_SYSINFO);
QB_MUSL_AT(struct qb_pthread_head, canary, QB_MUSL_PTHREAD_CANARY);

/* ldso/lfs64.c: an LFS64 name (fopen64, ...) bound to libc's plain
 * function when libc has no such name and nothing else defines it. */
struct symdef;
int qb_lfs64_bind(const char *name, struct symdef *out) QB_HIDDEN;

extern struct qb_musl_libc __libc QB_HIDDEN;
extern size_t __hwcap QB_HIDDEN;
extern size_t __sysinfo QB_HIDDEN;
extern char **__environ;
extern int __malloc_replaced QB_HIDDEN;
extern int __aligned_alloc_replaced QB_HIDDEN;

void *__copy_tls(unsigned char *) QB_HIDDEN;
int __init_tp(void *) QB_HIDDEN;
void __init_ssp(void *) QB_HIDDEN;
void *__libc_calloc(size_t, size_t) QB_HIDDEN;
void *__libc_realloc(void *, size_t) QB_HIDDEN;
void __libc_free(void *) QB_HIDDEN;
void __dl_seterr(const char *, ...) QB_HIDDEN;
void __tl_lock(void) QB_HIDDEN;
void __tl_unlock(void) QB_HIDDEN;
ptrdiff_t __tlsdesc_static(void) QB_HIDDEN;
ptrdiff_t __tlsdesc_dynamic(void) QB_HIDDEN;

#endif
