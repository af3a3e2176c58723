/* The library calls its own exported function and reads its own exported
 * data; the executable defines both, so both accesses must reach the
 * executable's definitions. */
int ip_helper(int x) { return x + 1; }
int ip_call(int x) { return ip_helper(x) * 10; }
int ip_data = 5;
int ip_read_data(void) { return ip_data; }
int (*ip_helper_ptr(void))(int) { return ip_helper; }
/* Defined here and in libip2, not in the executable: the first library in
 * load order wins, for libip2's own reads too. */
int ip_both = 1;
