/* Needs libfzr.so (whatever file the regression suite puts there) and
 * uses nothing from it: the loader must load it or refuse it. */
#include <stdio.h>
int main(void)
{
	puts("needed library loaded");
	return 0;
}
