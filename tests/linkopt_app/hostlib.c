/* The interpreter's library: the API its modules call without naming it
 * in DT_NEEDED (as liblua for a Lua C module). */
#include <stdio.h>
int host_calls;
int host_api_add(int a, int b)
{
	host_calls++;
	return a + b;
}
int host_api_calls(void)
{
	return host_calls;
}
void host_api_say(const char *s)
{
	printf("host says %s\n", s);
}
#ifdef EXTRA
/* a rebuilt library: another symbol table */
int host_api_version(void)
{
	return 2;
}
#endif
