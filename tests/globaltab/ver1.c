/* libgtv, first release: vfunc only as VER_1. */
const char *vfunc(void) { return "vfunc VER_1"; }
