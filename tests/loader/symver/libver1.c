/* The first release of libver: vfunc exists only as VER_1. Programs linked
 * against it record the reference vfunc@VER_1. */
const char *vfunc(void) { return "vfunc VER_1 (old)"; }
int vdata = 1;
