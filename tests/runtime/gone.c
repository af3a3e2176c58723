/* libqrgone.so: linked against, never installed next to its users. */
int gone_fn(void) { return 1; }
