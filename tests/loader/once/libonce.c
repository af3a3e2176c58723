/* Reached under two names (libonce.so, and libonce-alias.so, a symlink to
 * it): the loader must recognise the same file and map it once. */
#include "../initfini/say.h"
int once_count;
__attribute__((constructor)) static void once_ctor(void)
{
	once_count++;
	say("libonce: ctor");
}
int *once_addr(void) { return &once_count; }
