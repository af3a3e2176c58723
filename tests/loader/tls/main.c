/* Every thread (and main) checks that it starts with fresh initialised
 * copies of every TLS variable of the executable and both libraries, at the
 * requested alignment, distinct from other threads' copies, and that its
 * writes stay its own. Prints one verdict per thread. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tls.h"

#define NTHREADS 8

static __thread int m_le = 1;
__thread char m_al64[8] __attribute__((aligned(64))) = "m64";
__thread int m_al4096 __attribute__((aligned(4096))) = 4096;
static __thread int m_bss;

static pthread_barrier_t barrier;
static void *main_addrs[9];

struct report {
	int errors;
	char first[160];
};

static void fail(struct report *r, const char *what)
{
	if (!r->errors++)
		snprintf(r->first, sizeof r->first, "%s", what);
}

#define CHECK(r, cond) do { if (!(cond)) fail(r, #cond); } while (0)

static void collect(void **v)
{
	v[0] = &m_le; v[1] = m_al64; v[2] = &m_al4096; v[3] = &m_bss;
	v[4] = a_gd_addr(); v[5] = a_ie_addr(); v[6] = a_al64_addr();
	v[7] = b_gd_addr(); v[8] = b_al4096_addr();
}

static void check_thread(struct report *r, int id, int is_main)
{
	CHECK(r, m_le == 1);
	CHECK(r, !strcmp(m_al64, "m64"));
	CHECK(r, m_al4096 == 4096);
	CHECK(r, m_bss == 0);
	CHECK(r, *a_gd_addr() == 100);
	CHECK(r, *a_ie_addr() == 7);
	CHECK(r, !strcmp(a_al64_addr(), "a-aligned-64"));
	CHECK(r, a_shared == 5 && a_shared_addr() == &a_shared);
	CHECK(r, *b_gd_addr() == 200);
	CHECK(r, *b_bss_addr() == 0);
	CHECK(r, !strcmp(b_al4096_addr(), "b-aligned-4096"));
#ifdef __i386__
	CHECK(r, *a_tp32_addr() == 23 && a_tp32_value() == 23);
#endif

	CHECK(r, (uintptr_t)m_al64 % 64 == 0);
	CHECK(r, (uintptr_t)&m_al4096 % 4096 == 0);
	CHECK(r, (uintptr_t)a_al64_addr() % 64 == 0);
	CHECK(r, (uintptr_t)b_al4096_addr() % 4096 == 0);

	void *mine[9];
	collect(mine);
	for (int i = 0; i < 9; i++) {
		for (int j = 0; j < i; j++)
			CHECK(r, mine[i] != mine[j]);
		if (!is_main)
			CHECK(r, mine[i] != main_addrs[i]);
	}

	m_le = id * 10 + 1;
	m_al4096 = id * 10 + 2;
	m_bss = id * 10 + 3;
	*a_gd_addr() = id * 10 + 4;
	*a_ie_addr() = id * 10 + 5;
	a_shared = id * 10 + 6;
	*b_gd_addr() = id * 10 + 7;
	*b_bss_addr() = id * 10 + 8;
	snprintf(m_al64, sizeof m_al64, "t%d", id);
	snprintf(b_al4096_addr(), 16, "b%d", id);
#ifdef __i386__
	*a_tp32_addr() = id * 10 + 9;
#endif
}

static void verify_own(struct report *r, int id)
{
	char s[16];
	CHECK(r, m_le == id * 10 + 1);
	CHECK(r, m_al4096 == id * 10 + 2);
	CHECK(r, m_bss == id * 10 + 3);
	CHECK(r, *a_gd_addr() == id * 10 + 4);
	CHECK(r, *a_ie_addr() == id * 10 + 5);
	CHECK(r, *a_shared_addr() == id * 10 + 6);
	CHECK(r, *b_gd_addr() == id * 10 + 7);
	CHECK(r, *b_bss_addr() == id * 10 + 8);
	snprintf(s, sizeof s, "t%d", id);
	CHECK(r, !strcmp(m_al64, s));
	snprintf(s, sizeof s, "b%d", id);
	CHECK(r, !strcmp(b_al4096_addr(), s));
#ifdef __i386__
	CHECK(r, a_tp32_value() == id * 10 + 9);
#endif
}

static struct report reports[NTHREADS + 1];

static void *thread_main(void *arg)
{
	int id = (int)(intptr_t)arg;
	check_thread(&reports[id], id, 0);
	/* every thread has written its copies before any verifies them */
	pthread_barrier_wait(&barrier);
	verify_own(&reports[id], id);
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS + 1];

	collect(main_addrs);
	printf("initial: m_le=%d m_al64=%s m_al4096=%d a_gd=%d a_ie=%d a_shared=%ld b_gd=%d b_al4096=%s\n",
	       m_le, m_al64, m_al4096, *a_gd_addr(), *a_ie_addr(), a_shared,
	       *b_gd_addr(), b_al4096_addr());
	check_thread(&reports[0], 0, 1);
	pthread_barrier_init(&barrier, NULL, NTHREADS);
	for (int i = 1; i <= NTHREADS; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)i)) {
			printf("pthread_create failed\n");
			return 1;
		}
	for (int i = 1; i <= NTHREADS; i++)
		pthread_join(t[i], NULL);
	verify_own(&reports[0], 0);
	int bad = 0;
	for (int i = 0; i <= NTHREADS; i++) {
		printf("thread %d: %s%s\n", i, reports[i].errors ? "FAILED " : "ok",
		       reports[i].first);
		bad += reports[i].errors != 0;
	}
	return bad ? 1 : 0;
}
