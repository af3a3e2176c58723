/* First library of the linkopt fixture; depends on libb. */
extern int b_func(int);
extern int b_data;
int shared_dup(void) { return 1; }
int a_func(int x) { return b_func(x) * 2 + b_data; }
int *a_ptr = &b_data; /* a symbolic data relocation against libb */
extern const int fake_vtable[2] __asm__("_ZTV4Fake");
const int *a_vt(void) { return fake_vtable; } /* vague: C++ vtable name */
