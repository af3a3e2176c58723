/* libqruser.so: a call (PLT) to glob_provided, defined in no dependency. */
int glob_provided(void);

int user_call(void) { return glob_provided() + 1; }
