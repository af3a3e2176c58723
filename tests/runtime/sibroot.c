/* libqrsibroot.so: needs libqrsiba.so then libqrsibb.so. */
int sib_a_fn(void);
int sibroot_fn(void) { return sib_a_fn(); }
