/* Stands in for musl's libc.so in the fuzz sysroot. linkopt reads every
 * library of a file's closure on every run; the real libc.so is 700 KB,
 * this one defines the few names the seed objects use. Never run. */
typedef __SIZE_TYPE__ size_t;
size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
int printf(const char *fmt, ...) { (void)fmt; return 0; }
int __libc_start_main(void) { return 0; }
void __cxa_finalize(void *d) { (void)d; }
void *__tls_get_addr(void *v) { return v; }
#ifdef __i386__
void *___tls_get_addr(void *v) { return v; }
#endif
