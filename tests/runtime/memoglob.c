/* libqmglob.so: opened RTLD_GLOBAL between two loads of libqmuser.so, it
 * comes before libqmuser.so's own dependencies in the lookup order. */
const char *mv_which(void) { return "glob"; }
