/* linkopt's one form of error message (report.h). */
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

/* Every error is this one line on stderr. */
int report(const char *path, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "linkopt: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return LO_ERR;
}
