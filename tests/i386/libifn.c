/* IFUNC in a library: the resolver always picks its second candidate, so
 * a loader that ignores resolvers cannot pass. */
static int wrong(int x) { return -x; }
static int right(int x) { return x * 3; }
static int (*pick(void))(int) { return (void)wrong, right; }
int lib_ifn(int x) __attribute__((ifunc("pick")));
int lib_calls_ifn(int x) { return lib_ifn(x) + 1; }
int (*lib_ifn_ptr(void))(int) { return lib_ifn; }
