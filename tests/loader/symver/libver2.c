/* The second release: vfunc@VER_1 is kept (non-default, hidden) for old
 * programs; vfunc@@VER_2 is the default new programs bind to. */
const char *vfunc_old(void) { return "vfunc VER_1 (old)"; }
const char *vfunc_new(void) { return "vfunc VER_2 (new)"; }
__asm__(".symver vfunc_old,vfunc@VER_1");
__asm__(".symver vfunc_new,vfunc@@VER_2");
int vdata = 2;
