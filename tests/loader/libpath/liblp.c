/* Built twice, with -DWHICH="a" and "b", under the same soname in two
 * directories: the output says which directory the search picked. */
const char *lp_which(void) { return WHICH; }
