/* What g++ emits for a static std::string in a library whose destructor
 * lives in another library (libstdc++): an exit handler whose code is
 * elsewhere (here puts, in libc) but whose argument and __dso_handle are
 * this library's. */
extern void *__dso_handle;
int __cxa_atexit(void (*)(void *), void *, void *);
int puts(const char *);
static char obj[64] = "object living in the dlclosed library";
__attribute__((constructor)) static void init(void) { __cxa_atexit((void (*)(void *))(void (*)(void))puts, obj, &__dso_handle); }
int lib_fn(int x) { return x + 2; }
