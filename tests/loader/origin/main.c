#include <stdio.h>
const char *orig_name(void);
const char *orig_dep(void);
int main(void)
{
	printf("%s\n%s\n", orig_name(), orig_dep());
	return 0;
}
