/* libqrodep.so */
int odep_fn(void) { return 20; }
