#include <stdio.h>

const char *moved_fn(void);
int s1_fn(void);
int s2_fn(void);
void su_report(void);

int main(void)
{
	printf("main: %s s1=%d s2=%d\n", moved_fn(), s1_fn(), s2_fn());
	su_report();
	return 0;
}
