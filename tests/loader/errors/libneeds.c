/* Needs libqbtgone.so, which is absent at run time. */
int gone_fn(void);
int needs_fn(void) { return gone_fn(); }
