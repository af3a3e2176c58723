/* libqruserdata.so: a data reference (GLOB_DAT) to glob_provided, which
 * no binding mode can defer. */
int glob_provided(void);

int (*user_ptr)(void) = glob_provided;
int userdata_call(void) { return user_ptr() + 2; }
