/* dlsym by the plain name of a function musl redirects to a time64 symbol
 * must give what the program's own (time64) references bind to. */
/* musl's dlfcn.h redirects dlsym only when a header that defines
 * _REDIR_TIME64 (any one that pulls in bits/alltypes.h) came first. */
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <dlfcn.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

int main(void)
{
	void *cg = dlsym(RTLD_DEFAULT, "clock_gettime");
	void *tm = dlsym(RTLD_DEFAULT, "time");
	void *gm = dlsym(RTLD_DEFAULT, "gmtime_r");
	void *st = dlsym(RTLD_DEFAULT, "stat");
	void *sl = dlsym(RTLD_DEFAULT, "strlen");
	void *h = dlopen(0, RTLD_NOW);
	void *cg_h = h ? dlsym(h, "clock_gettime") : 0;
	printf("sizeof(time_t)=%zu\n", sizeof(time_t));
	printf("clock_gettime: %d\n", cg == (void *)clock_gettime);
	printf("clock_gettime by handle: %d\n", cg_h == (void *)clock_gettime);
	printf("time: %d\n", tm == (void *)time);
	printf("gmtime_r: %d\n", gm == (void *)gmtime_r);
	printf("stat: %d\n", st == (void *)stat);
	printf("strlen: %d\n", sl == (void *)strlen);
	printf("unknown: %d\n", dlsym(RTLD_DEFAULT, "no_such_time") == 0);
	struct timespec ts = { 0, 0 };
	int r = cg ? ((gettime_fn)cg)(CLOCK_REALTIME, &ts) : -1;
	printf("call through dlsym: %d, after 2020: %d\n", r, ts.tv_sec > 1577836800);
	return 0;
}
