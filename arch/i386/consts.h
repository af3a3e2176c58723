/* Constants shared by the C code and the nasm stubs of i386.
 * Only plain "#define NAME number" lines: the build turns them into
 * arch/i386/consts.inc for nasm. */
#ifndef QB_CONSTS_H
#define QB_CONSTS_H
#define QB_STACK_ALIGN 16
#define QB_WORD_SIZE 4
#endif
