/* The GNU hash of a name 16 bytes at a time with SSE2, which every x86_64
 * processor has (common/namehash.h includes this file; the scalar word
 * version there is the definition it must equal).
 *
 * A 16-byte chunk's bytes b_0..b_15 weigh 33^(15-p): pmaddwd makes pairs
 * (b*33 + b'), then quads (pair*33^2 + pair', below 2^24 so still exact),
 * and two pmuludq weigh the four quads by 33^12, 33^8, 33^4, 1 (mod 2^32,
 * which is all the hash keeps). Loads are aligned, so never cross a page.
 * Bytes before the name are zeroed: as leading digits they add nothing.
 * In the last chunk, bytes from the terminator on are zeroed too, which
 * multiplies the chunk's value by 33^(16-t); 33 is odd, so multiplying by
 * its inverse mod 2^32 undoes that. */
#ifndef QB_NAMEHASH_ARCH_H
#define QB_NAMEHASH_ARCH_H

#include <emmintrin.h>

/* 33^n and 33^-n mod 2^32 */
static const uint32_t qb_p33v[17] = {
	1u, 33u, 1089u, 35937u, 1185921u, 39135393u, 1291467969u, 3963737313u,
	1954312449u, 67801377u, 2237445441u, 821255521u, 1331628417u, 994064801u,
	2739367361u, 204809697u, 2463752705u
};
static const uint32_t qb_inv33v[17] = {
	1u, 1041204193u, 3025013697u, 3605731233u, 2451974017u, 2286861153u,
	2412008257u, 1895198497u, 3831795457u, 3500028641u, 3359824577u, 3355575969u,
	882587265u, 417196641u, 2745803329u, 3857571361u, 3500809729u
};

static inline uint32_t qb_hash_chunk16(__m128i v)
{
	const __m128i z = _mm_setzero_si128();
	const __m128i pair = _mm_set1_epi32(0x00010021), quad = _mm_set1_epi32(0x00010441);
	const __m128i even = _mm_set_epi32(0, 1185921u, 0, 1331628417u), odd = _mm_set_epi32(0, 1, 0, 1954312449u);
	__m128i p = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(v, z), pair),
		_mm_madd_epi16(_mm_unpackhi_epi8(v, z), pair));
	__m128i q = _mm_madd_epi16(p, quad);
	__m128i s = _mm_add_epi32(_mm_mul_epu32(q, even), _mm_mul_epu32(_mm_srli_epi64(q, 32), odd));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
	return (uint32_t)_mm_cvtsi128_si32(s);
}

static inline QB_WORD_READS uint32_t qb_gnu_hash_sse2(const char *name, size_t *len)
{
	unsigned lo = (unsigned)((uintptr_t)name & 15);
	const __m128i *w = (const __m128i *)(const void *)(name - lo);
	const __m128i z = _mm_setzero_si128();
	const __m128i idx = _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	__m128i v = _mm_load_si128(w);
	unsigned ends = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) >> lo << lo;
	v = _mm_and_si128(v, _mm_cmpgt_epi8(idx, _mm_set1_epi8((char)(lo - 1))));
	uint32_t h = 5381;
	if (!ends) {
		h = h * qb_p33v[16 - lo] + qb_hash_chunk16(v);
		for (;;) {
			v = _mm_load_si128(++w);
			ends = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z));
			if (ends)
				break;
			h = h * qb_p33v[16] + qb_hash_chunk16(v);
		}
		lo = 0;
	}
	unsigned t = (unsigned)__builtin_ctz(ends);
	*len = (size_t)((const char *)w - name) + t;
	if (t == lo)
		return h;
	v = _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8((char)t), idx));
	return h * qb_p33v[t - lo] + qb_hash_chunk16(v) * qb_inv33v[16 - t];
}

#define QB_ARCH_NAME_HASH qb_gnu_hash_sse2

#endif
