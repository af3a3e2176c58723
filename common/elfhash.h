/* Symbol-name hash functions of the ELF gABI (SysV) and of the GNU hash
 * section. Shared by the loader and linkopt: both must agree bit for bit. */
#ifndef QB_ELFHASH_H
#define QB_ELFHASH_H

#include <stdint.h>

static inline uint32_t qb_sysv_hash(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	uint32_t h = 0;
	while (*s) {
		h = (h << 4) + *s++;
		uint32_t top = h & 0xf0000000u;
		if (top)
			h ^= top >> 24;
		h &= ~top;
	}
	return h;
}

static inline uint32_t qb_gnu_hash(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	uint32_t h = 5381;
	while (*s)
		h = h * 33 + *s++;
	return h;
}

#endif
