/* Needs the weak-memcpy library first, then the library that needs only
 * libc: the loader loads pp before libc. */
#include <stdio.h>
int pp_copies_made(void);
const char *user_copy(const char *);
int main(void)
{
	const char *s = user_copy("hello");
	printf("%s pp_copies=%d\n", s, pp_copies_made());
	return 0;
}
