/* Same soname as libqbtbad.so but without bad_fn. */
int other_fn(void) { return 8; }
