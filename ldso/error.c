/* Diagnostics. An error ends the operation in progress, one way: qb_error
 * formats the message and unwinds to the innermost qb_try (a dlopen, or
 * one unit of work of the list mode), whose caller undoes what the
 * operation changed. With no qb_try active (start-up) the message is
 * printed as one line and the loader exits with status 127: the first
 * error is the one to fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ldso.h"

struct catcher {
	jmp_buf jb;
	struct catcher *outer;
};

/* Accessed at start-up (one thread) and under the loader's lock. */
static struct catcher *innermost;

static void report(const char *msg)
{
	char buf[1024];
	int n = (int)strnlen(msg, sizeof buf - 1);
	memcpy(buf, msg, n);
	/* one line, whatever the names in it hold (a newline in a DT_NEEDED) */
	for (int i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	buf[n++] = '\n';
	for (char *p = buf; n > 0;) {
		ssize_t w = write(2, p, n);
		if (w <= 0)
			break;
		p += w;
		n -= w;
	}
}

static _Noreturn void unwind(void)
{
	if (innermost)
		longjmp(innermost->jb, 1);
	report(qb.errbuf);
	_exit(127);
}

hidden _Noreturn void qb_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(qb.errbuf, sizeof qb.errbuf, fmt, ap);
	va_end(ap);
	unwind();
}

hidden void qb_error_listed(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(qb.errbuf, sizeof qb.errbuf, fmt, ap);
	va_end(ap);
	if (!qb.list_mode)
		unwind();
	report(qb.errbuf);
	qb.failed = 1;
}

hidden int qb_try(void (*fn)(void *), void *arg)
{
	struct catcher c = { .outer = innermost };
	innermost = &c;
	if (setjmp(c.jb)) {
		innermost = c.outer;
		return -1;
	}
	fn(arg);
	innermost = c.outer;
	return 0;
}

hidden void qb_keep_going(void (*fn)(void *), void *arg)
{
	if (!qb.list_mode) {
		fn(arg);
	} else if (qb_try(fn, arg)) {
		report(qb.errbuf);
		qb.failed = 1;
	}
}

hidden _Noreturn void qb_fatal(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	report(buf);
	_exit(127);
}
