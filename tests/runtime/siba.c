/* libqrsiba.so: calls sib_b_fn without needing libqrsibb.so; only the
 * scope of libqrsibroot.so, which needs both, provides it. */
int sib_b_fn(void);
int sib_a_fn(void) { return sib_b_fn() + 1; }
