/* musl 1.2 on 32-bit targets: programs built with 64-bit time_t call
 * __dlsym_time64 (in libc.a) for dlsym, which lands here. A name such as
 * "clock_gettime" must then give the time64 definition the program's own
 * headers would have bound, "__clock_gettime64": the redirected name is
 * "__" + base + suffix + a trailing "_r" of the name kept last, where the
 * suffix is "64" when the whole name ends in "time" and "_time64"
 * otherwise. A name is redirected only when the loader, which is libc,
 * defines the redirected form. Like musl's loader, names ending in
 * "time_r" thus become "__gmtime_time64_r", which libc does not define:
 * dlsym("gmtime_r") gives the plain gmtime_r there, and so it does here. */
#include <string.h>
#include "ldso.h"

void *__dlsym(void *restrict h, const char *restrict name, void *restrict ra) hidden;

/* Long enough for every redirected name of musl's libc. */
#define REDIR_MAX 36

static int redirect(const char *name, char out[REDIR_MAX])
{
	size_t len = strnlen(name, REDIR_MAX), base;
	if (len < 4 || len == REDIR_MAX)
		return 0;
	const char *tail = "";
	base = len;
	if (name[len - 2] == '_' && name[len - 1] == 'r') {
		base -= 2;
		tail = name + base;
	}
	if (base < 4)
		return 0;
	const char *mid = strcmp(name + base - 4, "time") ? "_time64" : "64";
	size_t nmid = strlen(mid), ntail = strlen(tail);
	if (2 + base + nmid + ntail >= REDIR_MAX)
		return 0;
	char *o = out;
	memcpy(o, "__", 2);
	o += 2;
	memcpy(o, name, base);
	o += base;
	memcpy(o, mid, nmid);
	o += nmid;
	memcpy(o, tail, ntail + 1);
	return 1;
}

void *__dlsym_redir_time64(void *restrict h, const char *restrict name, void *restrict ra)
{
	char redir[REDIR_MAX];
	if (qb.ldso && redirect(name, redir)) {
		struct qb_symreq r;
		qb_symreq_init(&r, redir, 0);
		if (qb_lookup_in(qb.ldso, &r))
			name = redir;
	}
	return __dlsym(h, name, ra);
}
