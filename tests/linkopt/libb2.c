/* libb after an "upgrade": b_func is gone, so bindings to it are stale. */
int b_func_renamed(int x) { return x + 1000; }
int shared_dup(void) { return 2; }
__attribute__((weak)) int weak_thing(void) { return 7; }
const int fake_vtable[2] __asm__("_ZTV4Fake") = { 11, 22 };
int b_data = 5;
