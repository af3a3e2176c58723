#include "fixture.h"

#include <stdio.h>

char *fixture_path(const char *root, const char *rel)
{
	static char bufs[8][4096];
	static unsigned k;
	char *b = bufs[k++ % 8];
	snprintf(b, sizeof bufs[0], "%s/%s", root, rel);
	return b;
}
