/* The program of the search fixtures: prints what its libraries say. */
#include <stdio.h>
const char *lib_top(void);
int main(void)
{
	printf("%s\n", lib_top());
	return 0;
}
