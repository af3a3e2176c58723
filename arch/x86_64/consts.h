/* Constants shared by the C code and the nasm stubs of x86_64.
 * Only plain "#define NAME number" lines: the build turns them into
 * arch/x86_64/consts.inc for nasm. */
#ifndef QB_CONSTS_H
#define QB_CONSTS_H
#define QB_STACK_ALIGN 16
#define QB_WORD_SIZE 8
/* struct qb_fast_tgt (ldso/ext/fast.h): 40 bytes, the assembly
 * scales an index by 5 * 8 */
#define QB_FT_CHAIN 0
#define QB_FT_SYMS 8
#define QB_FT_BASE 16
#define QB_FT_LO 24
#define QB_FT_N 28
#define QB_FT_IP0 32
#define QB_FT_IP1 36
#define QB_FT_SIZE 40
/* struct qb_hint_state (ldso/ext/fast.h) */
#define QB_HS_END 0
#define QB_HS_LO 8
#define QB_HS_SPAN 16
#define QB_HS_LIMIT 24
#define QB_HS_NTGT 32
#define QB_HS_SI 40
#define QB_HS_HINTS 48
#define QB_HS_GNU 56
#define QB_HS_TGT 64
#define QB_HS_BASE 72
#define QB_HS_VALUES 120
/* the relocation types arch/x86_64/hintloop.asm binds (the word, GOT
 * and PLT types, also as a mask: 1, 6, 7) and the relative one;
 * hintloop.c checks them against qb_rel_kind */
#define QB_HL_SYM_TYPES 194
#define QB_HL_R_WORD 1
#define QB_HL_R_GOT 6
#define QB_HL_R_PLT 7
#define QB_HL_R_RELATIVE 8
#endif
