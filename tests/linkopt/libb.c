/* Second library of the linkopt fixture: a plain definition, one that
 * liba also defines (interposition), a weak one and C++-style vague data. */
int b_func(int x) { return x + 1000; }
int shared_dup(void) { return 2; }
__attribute__((weak)) int weak_thing(void) { return 7; }
const int fake_vtable[2] __asm__("_ZTV4Fake") = { 11, 22 };
int b_data = 5;
