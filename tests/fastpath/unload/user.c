/* Bound directly to libdef.so by linkopt: only the interposer list can
 * send its call elsewhere. */
int shared_fn(void);
int user(void) { return shared_fn(); }
