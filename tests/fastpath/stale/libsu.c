#include <stdio.h>

const char *moved_fn(void);
int s1_fn(void);

void su_report(void)
{
	printf("su: %s s1=%d\n", moved_fn(), s1_fn());
}
