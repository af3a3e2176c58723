/* Ordering the files of one run so that libraries come before the objects
 * that need them: an object records the identity of each library as
 * linkopt leaves it. */
#ifndef LINKOPT_ORDER_H
#define LINKOPT_ORDER_H

/* Reorders files[0..n) in place. Returns 1 when every file now follows
 * the inputs it needs (one pass suffices), 0 when they need each other in
 * a cycle or a file could not be read (the caller repeats passes). */
int order_by_needs(char **files, int n);

#endif
