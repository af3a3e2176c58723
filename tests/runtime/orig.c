/* libqrorig.so: finds libqrodep.so through RUNPATH $ORIGIN/dep. */
int odep_fn(void);
int orig_fn(void) { return odep_fn() + 1; }
