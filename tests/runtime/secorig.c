/* Needs libqrsec.so, which its RUNPATH looks for in $ORIGIN/lib first
 * and then in a fixed directory holding the good build. */
#include <stdio.h>

const char *sec_which(void);

int main(void)
{
	printf("libqrsec.so %s\n", sec_which());
	return 0;
}
