/* libqrtarget.so: the function libqrwrap.so wraps. */
int target(int x) { return 2 * x; }
