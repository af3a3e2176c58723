/* libqrfreshglob.so: opened RTLD_GLOBAL between loads of libqrfresh.so,
 * it comes before libqrdep.so in the lookup order and defines both names
 * libqrfresh.so binds there. */
int dep_array[8] = {10, 20, 30, 40, 50, 60, 70, 80};
int dep_value(void) { return 2; }
