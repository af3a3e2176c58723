/* One library of a search fixture. NAME says which build was loaded;
 * with NEXT it also reports the library it needs. */
#include <stdio.h>
#ifdef NEXT
const char *NEXT(void);
#endif
const char *FN(void)
{
	static char buf[256];
#ifdef NEXT
	snprintf(buf, sizeof buf, "%s > %s", NAME, NEXT());
#else
	snprintf(buf, sizeof buf, "%s", NAME);
#endif
	return buf;
}
