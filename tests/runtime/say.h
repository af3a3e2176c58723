/* Fixture output goes straight to fd 1 so that lines from constructors,
 * destructors and the program interleave in the order they happen. */
#ifndef QBR_SAY_H
#define QBR_SAY_H
#include <stdio.h>
#define say(...) dprintf(1, __VA_ARGS__)
#endif
