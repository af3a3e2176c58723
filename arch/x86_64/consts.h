/* Constants shared by the C code and the nasm stubs of x86_64.
 * Only plain "#define NAME number" lines: the build turns them into
 * arch/x86_64/consts.inc for nasm. */
#ifndef QB_CONSTS_H
#define QB_CONSTS_H
#define QB_STACK_ALIGN 16
#define QB_WORD_SIZE 8
#endif
