/* A module that takes the host's API from the host's closure: it does not
 * list the host library in DT_NEEDED. */
#include <string.h>
int host_api_add(int, int);
void host_api_say(const char *);
int mod_entry(int x)
{
	char buf[16];
	memcpy(buf, "module", 7);
	host_api_say(buf);
	return host_api_add(x, (int)strlen(buf));
}
