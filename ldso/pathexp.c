#include <string.h>
#include "pathexp.h"

size_t qb_path_next(const char **cur, const char *seps, const char **elem)
{
	const char *p = *cur;
	while (*p && strchr(seps, *p))
		p++;
	size_t n = strcspn(p, seps);
	*elem = p;
	*cur = p + n;
	return n;
}
