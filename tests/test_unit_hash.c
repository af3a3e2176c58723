#include <criterion/criterion.h>
#include "elfhash.h"

/* Reference values from the ELF gABI and the GNU hash definition,
 * cross-checked against readelf's hash sections of real libraries. */
Test(hash, gnu_known_values)
{
	cr_assert_eq(qb_gnu_hash(""), 0x00001505u);
	cr_assert_eq(qb_gnu_hash("printf"), 0x156b2bb8u);
	cr_assert_eq(qb_gnu_hash("exit"), 0x7c967e3fu);
	cr_assert_eq(qb_gnu_hash("syscall"), 0xbac212a0u);
}

Test(hash, sysv_known_values)
{
	cr_assert_eq(qb_sysv_hash(""), 0u);
	cr_assert_eq(qb_sysv_hash("printf"), 0x077905a6u);
	cr_assert_eq(qb_sysv_hash("exit"), 0x0006cf04u);
	cr_assert_eq(qb_sysv_hash("syscall"), 0x0b09985cu);
}

Test(hash, sysv_keeps_28_bits_for_long_names)
{
	const char *n = "_ZN9Namespace5Class13someLongMethodEPKcRKSt6vectorIiSaIiEE";
	cr_assert_eq(qb_sysv_hash(n) >> 28, 0u);
	cr_assert_neq(qb_sysv_hash(n), qb_sysv_hash("_ZN9Namespace5Class13someLongMethodEPKc"));
}

/* The loader's fast GNU hashes, 64- and 32-bit words (common/namehash.h)
 * and x86_64's 16-byte SSE2 chunks (arch/x86_64/namehash_arch.h), against
 * the bytewise definition, with the length they find: every length up to
 * 80, every alignment, bytes 1..255, the name ending right before an unreadable
 * page (a read past the word holding the terminator would fault), and
 * garbage before the name (it must not count). */
#include <stdlib.h>
#include <sys/mman.h>
#include "namehash.h"

Test(hash, word_at_a_time_equals_bytewise)
{
	char *pg = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert(pg != MAP_FAILED);
	cr_assert_eq(mprotect(pg + 4096, 4096, PROT_NONE), 0);
	unsigned seed = 12345;
	for (int len = 0; len <= 80; len++)
		for (int gap = 0; gap < 16; gap++)
			for (int rep = 0; rep < 40; rep++) {
				char *s = pg + 4096 - 1 - len - gap;
				for (char *q = pg + 4096 - 128; q < s; q++)
					*q = (char)(rand_r(&seed) | 1);
				for (int i = 0; i < len; i++)
					s[i] = (char)(1 + rand_r(&seed) % 255);
				s[len] = 0;
				for (char *q = s + len + 1; q < pg + 4096; q++)
					*q = (char)rand_r(&seed);
				uint32_t want = qb_gnu_hash(s);
				cr_assert_eq(qb_gnu_hash64(s), want, "64-bit words, length %d, gap %d", len, gap);
				cr_assert_eq(qb_gnu_hash32(s), want, "32-bit words, length %d, gap %d", len, gap);
				size_t n64 = 0, n32 = 0;
				qb_gnu_hash64_len(s, &n64);
				qb_gnu_hash32_len(s, &n32);
				cr_assert_eq(n64, (size_t)len, "64-bit words: length %zu for %d", n64, len);
				cr_assert_eq(n32, (size_t)len, "32-bit words: length %zu for %d", n32, len);
				size_t nv = 0;
				cr_assert_eq(qb_gnu_hash_sse2(s, &nv), want, "SSE2, length %d, gap %d", len, gap);
				cr_assert_eq(nv, (size_t)len, "SSE2: length %zu for %d", nv, len);
			}
	/* an array, not a literal: the vector loads read whole aligned chunks */
	static char name[32] __attribute__((aligned(16))) = "printf";
	size_t n;
	cr_assert_eq(qb_name_hash_len(name, &n), 0x156b2bb8u);
	cr_assert_eq(n, 6u);
	munmap(pg, 8192);
}
