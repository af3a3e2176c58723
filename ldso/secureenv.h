/* Secure mode's environment cleaning. A pure function of the initial
 * stack, unit-tested on the host. */
#ifndef QB_SECUREENV_H
#define QB_SECUREENV_H

#include <stddef.h>

/* sp is the process's initial stack (argc, argv, NULL, envp, NULL, auxv).
 * The unsafe variables are removed; the kept ones are packed towards the
 * end of the environment array, next to the aux vector (libc finds that
 * vector after the environment's terminator), and argc and argv move up
 * by as many words as were removed. Returns the new stack pointer. */
size_t *qb_secure_env(size_t *sp);

#endif
