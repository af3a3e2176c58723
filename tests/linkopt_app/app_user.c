/* Needs only the library that needs only libc. */
#include <stdio.h>
const char *user_copy(const char *);
int main(void)
{
	printf("%s\n", user_copy("hello"));
	return 0;
}
