/* i386 has no vector name hash: SSE2 is not part of the i386 baseline,
 * so common/namehash.h uses its 32-bit word version. */
#ifndef QB_NAMEHASH_ARCH_H
#define QB_NAMEHASH_ARCH_H
#endif
