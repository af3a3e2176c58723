#include <string.h>
#include "pathexp.h"

long qb_expand_origin(const char *s, size_t len, const char *origin,
	char *out, size_t outsz)
{
	size_t olen = strlen(origin), n = 0;
	for (size_t i = 0; i < len;) {
		const char *add = s + i;
		size_t addlen = 1, skip = 1;
		if (s[i] == '$') {
			if (len - i >= 7 && !memcmp(s + i + 1, "ORIGIN", 6) &&
			    (len - i == 7 || !(s[i + 7] == '_' ||
			    (s[i + 7] >= 'A' && s[i + 7] <= 'Z') ||
			    (s[i + 7] >= 'a' && s[i + 7] <= 'z') ||
			    (s[i + 7] >= '0' && s[i + 7] <= '9')))) {
				add = origin; addlen = olen; skip = 7;
			} else if (len - i >= 9 && !memcmp(s + i + 1, "{ORIGIN}", 8)) {
				add = origin; addlen = olen; skip = 9;
			} else {
				return -1;
			}
		}
		if (n + addlen >= outsz)
			return -1;
		memcpy(out + n, add, addlen);
		n += addlen;
		i += skip;
	}
	if (n >= outsz)
		return -1;
	out[n] = 0;
	return (long)n;
}

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

size_t qb_dirname_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return 0;
	return slash == path ? 1 : (size_t)(slash - path);
}
