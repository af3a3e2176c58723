/* The GNU hash of a symbol name, a word at a time: the fast form of
 * common/elfhash.h's qb_gnu_hash, which the loader's lookups use (with the
 * architecture's word form, arch/<arch>/namehash_arch.h).
 *
 * The hash is h = h * 33 + c over the bytes, so a run of n bytes adds
 * sum(c_k * 33^(n-1-k)) to h * 33^n: the bytes of one word are combined
 * in pairs, then pairs of pairs, with lane arithmetic that never carries
 * from one lane into the next (a pair is at most 255 * 34, a quad at most
 * 255 * 34 * 1090 < 2^32). Every read is of an aligned word, which never
 * crosses a page, so no read can fault however the name ends; the bytes
 * before the name and after its terminator are masked off. Same value as
 * qb_gnu_hash (common/elfhash.h), at about a third of its instructions on
 * long names. */
#ifndef QB_NAMEHASH_H
#define QB_NAMEHASH_H

#include <stddef.h>
#include <stdint.h>

/* 33^n mod 2^32 */
#define QB_P33_1 33u
#define QB_P33_2 1089u
#define QB_P33_4 1185921u

/* sum(b_p * 33^(7-p)) over the bytes b_0..b_7 of y, b_0 the lowest. */
static inline uint32_t qb_hash_word64(uint64_t y)
{
	const uint64_t m8 = 0x00ff00ff00ff00ffull, m16 = 0x0000ffff0000ffffull;
	uint64_t a = (y & m8) * QB_P33_1 + ((y >> 8) & m8);
	uint64_t c = (a & m16) * QB_P33_2 + ((a >> 16) & m16);
	return (uint32_t)c * QB_P33_4 + (uint32_t)(c >> 32);
}

static inline uint32_t qb_hash_word32(uint32_t y)
{
	uint32_t a = (y & 0x00ff00ffu) * QB_P33_1 + ((y >> 8) & 0x00ff00ffu);
	return (a & 0xffffu) * QB_P33_2 + (a >> 16);
}

static const uint32_t qb_p33[9] = {
	1u, 33u, 1089u, 35937u, 1185921u, 39135393u, 1291467969u, 3963737313u, 1954312449u,
};

/* Loads through may_alias types: the words overlay a char array. */
typedef uint64_t __attribute__((may_alias)) qb_alias_u64;
typedef uint32_t __attribute__((may_alias)) qb_alias_u32;

/* The words read past the terminator are inside the name's page but may
 * be outside its object: AddressSanitizer (the fuzz targets) must not
 * count them. */
#define QB_WORD_READS __attribute__((no_sanitize("address")))

/* The first word holds the name's first bytes from byte lo on (the name
 * need not be aligned), then whole words follow until the one holding the
 * terminator, whose bytes below it are the name's last. x86 is little
 * endian: a name's first byte is the lowest of its word. *len is the
 * name's length. */
#define QB_NAMEHASH(NAME, T, W, COMBINE)                                          \
static inline QB_WORD_READS uint32_t NAME(const char *name, size_t *len)          \
{                                                                                 \
	const T ones = (T)-1 / 255, highs = ones << 7;                            \
	unsigned lo = (unsigned)((uintptr_t)name & (W - 1));                      \
	const T *w = (const T *)(const void *)(name - lo);                        \
	T x = *w, low = lo ? ((T)1 << 8 * lo) - 1 : 0, probe = x | low;          \
	T zero = (probe - ones) & ~probe & highs;                                \
	uint32_t h = 5381;                                                        \
	if (zero) {                                                               \
		unsigned hi = (unsigned)__builtin_ctzll(zero) / 8, n = hi - lo;   \
		*len = n;                                                         \
		if (!n)                                                           \
			return h;                                                 \
		T y = x << 8 * (W - hi) >> 8 * (W - n) << 8 * (W - n);            \
		return h * qb_p33[n] + COMBINE(y);                                \
	}                                                                         \
	h = h * qb_p33[W - lo] + COMBINE(x & ~low);                               \
	for (;;) {                                                                \
		x = *++w;                                                         \
		zero = (x - ones) & ~x & highs;                                   \
		if (zero)                                                         \
			break;                                                    \
		h = h * qb_p33[W] + COMBINE(x);                                   \
	}                                                                         \
	unsigned hi = (unsigned)__builtin_ctzll(zero) / 8;                        \
	*len = (size_t)((const char *)w - name) + hi;                             \
	return hi ? h * qb_p33[hi] + COMBINE(x << 8 * (W - hi)) : h;              \
}

QB_NAMEHASH(qb_gnu_hash64_len, qb_alias_u64, 8, qb_hash_word64)
QB_NAMEHASH(qb_gnu_hash32_len, qb_alias_u32, 4, qb_hash_word32)

static inline uint32_t qb_gnu_hash64(const char *name)
{
	size_t len;
	return qb_gnu_hash64_len(name, &len);
}

static inline uint32_t qb_gnu_hash32(const char *name)
{
	size_t len;
	return qb_gnu_hash32_len(name, &len);
}

#include "namehash_arch.h"

/* The GNU hash of name and its length: the architecture's vector version
 * where it has one, else a word at a time in the loader's word size. */
static inline uint32_t qb_name_hash_len(const char *name, size_t *len)
{
#ifdef QB_ARCH_NAME_HASH
	return QB_ARCH_NAME_HASH(name, len);
#else
	return sizeof(void *) == 8 ? qb_gnu_hash64_len(name, len) : qb_gnu_hash32_len(name, len);
#endif
}

static inline uint32_t qb_name_hash(const char *name)
{
	size_t len;
	return qb_name_hash_len(name, &len);
}

/* Whether two NUL-terminated names are equal, compared a word at a time
 * while both stay at least a word from the end of their pages (so no
 * read reaches a page neither name is in), a byte at a time across a page
 * boundary. x86 is little endian: the first zero byte of a word and its
 * first differing byte are its lowest ones, and the names are equal when
 * the first zero comes before the first difference. */
static __attribute__((noinline, unused)) QB_WORD_READS int qb_names_equal(const char *a, const char *b)
{
	const size_t W = sizeof(size_t), ones = (size_t)-1 / 255, highs = ones << 7;
	for (;;) {
		size_t ra = 4096 - ((uintptr_t)a & 4095), rb = 4096 - ((uintptr_t)b & 4095);
		for (size_t n = (ra < rb ? ra : rb) / W; n; n--, a += W, b += W) {
			size_t x = *(const size_t __attribute__((may_alias)) *)(const void *)a;
			size_t y = *(const size_t __attribute__((may_alias)) *)(const void *)b;
			size_t zero = (x - ones) & ~x & highs;
			if (x != y)
				return zero && __builtin_ctzl(zero) < __builtin_ctzl(x ^ y);
			if (zero)
				return 1;
		}
		for (size_t k = 0; k < W; k++, a++, b++)
			if (*a != *b || !*a)
				return *a == *b;
	}
}

#endif
