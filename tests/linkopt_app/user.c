/* Needs only libc; compiled with -fno-builtin so memcpy is a call. */
#include <string.h>
char user_buf[64];
const char *user_copy(const char *s)
{
	memcpy(user_buf, s, strlen(s) + 1);
	return user_buf;
}
