/* 64-bit time: on i386 each call below binds a musl time64 symbol
 * (__clock_gettime64, __gmtime64_r, __stat_time64, ...), on x86_64 the
 * plain ones; dates after 2038 must come out right either way, and
 * dlsym by the plain name must give the function the headers bind. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include "ma.h"

int main(void)
{
	ma_enter("time64");
	printf("sizeof(time_t) %zu\n", sizeof(time_t));
	time_t t = 4102444800;  /* 2100-01-01 00:00:00 UTC */
	struct tm tm;
	char s[64];
	strftime(s, sizeof s, "%Y-%m-%d %H:%M:%S", gmtime_r(&t, &tm));
	printf("gmtime_r: %s\n", s);
	printf("timegm back: %lld\n", (long long)timegm(&tm));
	ma_file("f", "x");
	struct timespec ts[2] = {{t, 5}, {t + 60, 7}};
	printf("utimensat: %d\n", utimensat(AT_FDCWD, "f", ts, 0));
	struct stat st;
	int r = stat("f", &st);
	printf("stat: %d mtime %lld.%ld\n", r, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("monotonic: %d\n", b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
	struct timeval tv;
	printf("gettimeofday after 2020: %d\n", !gettimeofday(&tv, 0) && tv.tv_sec > 1577836800);
	int (*cg)(clockid_t, struct timespec *) = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_DEFAULT, "clock_gettime");
	struct timespec c = {0, -1};
	printf("dlsym clock_gettime: %d\n", cg && !cg(CLOCK_REALTIME, &c) && c.tv_sec > 1577836800 &&
	       c.tv_nsec >= 0 && c.tv_nsec < 1000000000);
	return 0;
}
