/* The one DT_RELR decoder: relative relocations packed as an address
 * word (even: relocate the word there) followed by bitmaps (odd: bit i
 * relocates the i-th word after the last one covered). Stage 1 runs it on
 * the loader before anything can be called, so it is inlined and, with
 * p == 0, checks nothing; the engine (reloc.c) passes the object, whose
 * writable segments must hold every place. Returns 1 at the first place
 * outside them, else 0. */
#ifndef QB_RELR_H
#define QB_RELR_H
#include "ldso.h"

static inline __attribute__((always_inline)) int qb_relr(const struct dso *p, unsigned char *base,
	const size_t *r, size_t n)
{
	for (size_t *next = 0; n; n--, r++) {
		int odd = *r & 1;
		size_t bits = odd ? *r >> 1 : 1;
		if (!odd)
			next = (size_t *)(base + *r);
		else if (!next)
			continue;
		for (size_t *at = next; bits; at++, bits >>= 1)
			if (bits & 1) {
				if (p && !qb_writable(p, (size_t)((unsigned char *)at - base), sizeof *at))
					return 1;
				*at += (size_t)base;
			}
		next += odd ? 8 * sizeof(size_t) - 1 : 1;
	}
	return 0;
}

#endif
