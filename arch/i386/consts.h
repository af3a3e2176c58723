/* Constants shared by the C code and the nasm stubs of i386.
 * Only plain "#define NAME number" lines: the build turns them into
 * arch/i386/consts.inc for nasm. */
#ifndef QB_CONSTS_H
#define QB_CONSTS_H
#define QB_STACK_ALIGN 16
#define QB_WORD_SIZE 4
/* struct qb_hint_tgt (ldso/ext/ext.h): padded to 32 bytes, the
 * assembly scales an index by a shift */
#define QB_FT_BASE 8
#define QB_FT_LO 12
#define QB_FT_N 16
#define QB_FT_IP0 20
#define QB_FT_IP1 24
#define QB_FT_SIZE 32
#define QB_FT_SHIFT 5
/* struct qb_valued_state (arch/i386/relstate.c) */
#define QB_HS_END 0
#define QB_HS_LO 4
#define QB_HS_SPAN 8
#define QB_HS_LIMIT 12
#define QB_HS_NTGT 16
#define QB_HS_SI 20
#define QB_HS_HINTS 24
#define QB_HS_TGT 28
#define QB_HS_BASE 32
#define QB_HS_VALUES 36
/* struct qb_record_state: end, lo, span and base where the valued one has them */
#define QB_RS_COUNT 12
#define QB_RS_NBASES 16
#define QB_RS_ANS 20
#define QB_RS_BASES 24
/* the relocation types relloops.asm binds: R_386_32, R_386_GLOB_DAT,
 * R_386_JMP_SLOT, and the relative one, R_386_RELATIVE */
#define QB_HL_R_WORD 1
#define QB_HL_R_GOT 6
#define QB_HL_R_PLT 7
#define QB_HL_R_RELATIVE 8
#endif
