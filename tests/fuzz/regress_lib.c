/* The libfzr.so regress_need is linked against; at run time a
 * regression file takes its place. */
int fzr_unused;
