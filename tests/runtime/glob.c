/* libqrglob.so: provides a symbol libqruser.so needs but does not name in
 * DT_NEEDED; only the global scope can satisfy it. */
int glob_provided(void) { return 42; }
