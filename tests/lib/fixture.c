#include "fixture.h"

#include <stdio.h>
#include <string.h>

char *fixture_path(const char *root, const char *rel)
{
	static char bufs[8][4096];
	static unsigned k;
	char *b = bufs[k++ % 8];
	snprintf(b, sizeof bufs[0], "%s/%s", root, rel);
	return b;
}

int arch_configured(const char *archs, const char *arch)
{
	size_t n = strlen(arch);
	for (const char *p = archs; (p = strstr(p, arch)); p += n)
		if ((p == archs || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}
