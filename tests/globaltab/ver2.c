/* libgtv, second release: vfunc@VER_1 kept as a hidden version, the
 * default vfunc@@VER_2, and a hidden vfunc@VER_0 nothing may bind to
 * without asking for it. */
const char *vfunc_v0(void) { return "vfunc VER_0"; }
const char *vfunc_v1(void) { return "vfunc VER_1"; }
const char *vfunc_v2(void) { return "vfunc VER_2"; }
__asm__(".symver vfunc_v0,vfunc@VER_0");
__asm__(".symver vfunc_v1,vfunc@VER_1");
__asm__(".symver vfunc_v2,vfunc@@VER_2");
