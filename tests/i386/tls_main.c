#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "tls.h"

int tga_tp32_value(void);
static __thread int exe_tls = 3;
static __thread char exe_big[300] = { 1, 2, 3 };

struct result {
	int id, gd, ie, tp32, exe, big, same_gd_ie, same_tp32;
	long desc, bump;
	char buf[64];
};

static void probe(struct result *r)
{
	exe_tls += r->id;
	exe_big[299] = (char)r->id;
	lib_gd += r->id * 10;
	*tga_ie_addr() += r->id * 100;
	*tgd_desc_addr() += r->id * 1000;
	snprintf(tga_buf(), 64, "thread %d", r->id);
	r->gd = lib_gd;
	r->ie = lib_ie;
	r->tp32 = *tga_tpoff32_addr();
	r->exe = exe_tls;
	r->big = exe_big[0] + exe_big[1] + exe_big[2] + exe_big[299];
	r->desc = lib_desc;
	r->bump = tgd_bump();
	r->same_gd_ie = tga_gd_addr() == &lib_gd && tga_ie_addr() == &lib_ie;
	r->same_tp32 = *tga_tpoff32_addr() == tga_tp32_value();
	strcpy(r->buf, lib_gd_buf);
}

static void *start(void *arg)
{
	probe(arg);
	return 0;
}

#define N 4

int main(void)
{
	pthread_t t[N];
	struct result r[N + 1];
	memset(r, 0, sizeof r);
	for (int i = 0; i < N; i++) {
		r[i + 1].id = i + 1;
		if (pthread_create(&t[i], 0, start, &r[i + 1]))
			return 1;
	}
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	probe(&r[0]);
	for (int i = 0; i <= N; i++)
		printf("id=%d gd=%d ie=%d tp32=%d exe=%d big=%d desc=%ld bump=%ld same=%d%d buf=%s\n",
			r[i].id, r[i].gd, r[i].ie, r[i].tp32, r[i].exe, r[i].big, r[i].desc,
			r[i].bump, r[i].same_gd_ie, r[i].same_tp32, r[i].buf);
	return 0;
}
