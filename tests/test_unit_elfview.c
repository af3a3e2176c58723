/* The shared ELF reader (common/elfview.c) on hand-made tables in memory,
 * both classes: counts, and hostile sizes that once wrapped 32-bit checks. */
#include <criterion/criterion.h>
#include <string.h>
#include "elfview.h"

/* An object whose link-time addresses 0..size-1 are the array mem. */
static unsigned char mem[4096];
static const void *mem_at(const struct qb_elfview *v, uint64_t addr, uint64_t len)
{
	(void)v;
	return addr <= sizeof mem && len <= sizeof mem - addr ? mem + addr : NULL;
}

static void put32(uint64_t at, uint32_t v)
{
	memcpy(mem + at, &v, 4);
}

/* A GNU hash table at 0x100: 2 buckets, symbols from 1, one bloom word;
 * bucket 0 starts the chain 1..2, bucket 1 the chain 3..4. */
static void gnu_table(int wide, uint32_t bucket1)
{
	memset(mem, 0, sizeof mem);
	uint64_t b = 0x100 + 16 + (wide ? 8 : 4);
	put32(0x100, 2);
	put32(0x104, 1);
	put32(0x108, 1);
	put32(0x10c, 6);
	put32(b, 1);
	put32(b + 4, bucket1);
	put32(b + 8, 0x10);       /* symbol 1 */
	put32(b + 12, 0x21);      /* symbol 2, ends its chain */
	put32(b + 16, 0x30);      /* symbol 3 */
	put32(b + 20, 0x41);      /* symbol 4, ends the last chain */
}

Test(elfview, counts_symbols_through_the_gnu_chains)
{
	for (int wide = 0; wide < 2; wide++) {
		struct qb_elfview v = { mem_at, NULL, wide };
		struct qb_hashinfo h;
		gnu_table(wide, 3);
		const char *why = qb_hashinfo(&v, 0, 0x100, &h);
		cr_assert_null(why, "%s", why);
		cr_assert_eq(h.nsyms, 5);
		cr_assert_eq(h.gnu_nbuckets, 2);
		cr_assert_eq(h.gnu_buckets, 0x100 + 16 + (wide ? 8 : 4));
		cr_assert_eq(h.gnu_size, 16 + (wide ? 8 : 4) + 8 + 16);
	}
}

/* issue 11: a bucket of 0x80000000 put the chain 8 GiB (wrapped: just
 * before the table) away on i386; it lies outside the object. */
Test(elfview, bucket_past_every_table_is_refused)
{
	for (int wide = 0; wide < 2; wide++) {
		struct qb_elfview v = { mem_at, NULL, wide };
		struct qb_hashinfo h;
		gnu_table(wide, 0x80000000u);
		cr_assert_not_null(qb_hashinfo(&v, 0, 0x100, &h));
		gnu_table(wide, 0xffffffffu);
		cr_assert_not_null(qb_hashinfo(&v, 0, 0x100, &h));
	}
}

Test(elfview, sysv_table_sizes_in_64_bits)
{
	struct qb_elfview v = { mem_at, NULL, 0 };
	struct qb_hashinfo h;
	memset(mem, 0, sizeof mem);
	put32(0x200, 1);
	put32(0x204, 7);
	cr_assert_null(qb_hashinfo(&v, 0x200, 0, &h));
	cr_assert_eq(h.nsyms, 7);
	put32(0x200, 0x40000000u);   /* 4 * (nbucket + nchain) wraps 32 bits */
	put32(0x204, 0xc0000000u);
	cr_assert_not_null(qb_hashinfo(&v, 0x200, 0, &h));
	put32(0x200, 0);             /* no bucket to hash into */
	put32(0x204, 7);
	cr_assert_not_null(qb_hashinfo(&v, 0x200, 0, &h));
	cr_assert_not_null(qb_hashinfo(&v, 0, 0, &h), "no table at all");
}

static int count_calls(void *arg, const struct qb_verdef_rec *d)
{
	(void)d;
	++*(unsigned *)arg;
	return 0;
}

/* Version chains with a count of 4 billion end at their last link. */
Test(elfview, looping_version_chain_ends)
{
	struct qb_elfview v = { mem_at, NULL, 1 };
	memset(mem, 0, sizeof mem);
	Elf64_Verdef vd = { .vd_version = 1, .vd_ndx = 2, .vd_cnt = 1, .vd_aux = 20, .vd_next = 0 };
	memcpy(mem + 0x300, &vd, sizeof vd);
	unsigned calls = 0;
	cr_assert_null(qb_each_verdef(&v, 0x300, 0xffffffffu, count_calls, &calls));
	cr_assert_eq(calls, 1, "vd_next 0 ends the chain");
	vd.vd_next = 0xffffffffu;  /* far past the object */
	memcpy(mem + 0x300, &vd, sizeof vd);
	calls = 0;
	cr_assert_not_null(qb_each_verdef(&v, 0x300, 2, count_calls, &calls));
	cr_assert_eq(calls, 1);
	/* A link back to the first entry: in 32-bit arithmetic it wrapped to
	 * an earlier address and the chain looped; in 64 bits it leaves. */
	vd.vd_next = 0x20;
	memcpy(mem + 0x300, &vd, sizeof vd);
	Elf64_Verdef back = vd;
	back.vd_next = (uint32_t)-0x20;
	memcpy(mem + 0x320, &back, sizeof back);
	calls = 0;
	cr_assert_not_null(qb_each_verdef(&v, 0x300, 0xffffffffu, count_calls, &calls));
	cr_assert_eq(calls, 2);
}
