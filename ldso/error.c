/* Diagnostics. At start-up an error is printed as one line and remembered;
 * the loader exits with status 127 once it has reported what it found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "ldso.h"

static void vreport(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	for (char *p = buf; n > 0;) {
		ssize_t w = write(2, p, n);
		if (w <= 0)
			break;
		p += w;
		n -= w;
	}
}

hidden void qb_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (qb.rt_jmp) {
		/* Inside dlopen: the message goes to dlerror, the caller
		 * gets NULL. */
		vsnprintf(qb.errbuf, sizeof qb.errbuf, fmt, ap);
		va_end(ap);
		longjmp(*(jmp_buf *)qb.rt_jmp, 1);
	}
	vreport(fmt, ap);
	va_end(ap);
	qb.failed = 1;
	/* One line, then stop: the first error is the one to fix. Only the
	 * list mode (ldd) goes on to report everything it finds. */
	if (!qb.list_mode)
		_exit(127);
}

hidden _Noreturn void qb_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	_exit(127);
}
