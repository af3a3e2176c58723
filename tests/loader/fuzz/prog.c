#include <stdio.h>
int fz_sum(void);
int main(void)
{
	printf("%d\n", fz_sum());
	return 0;
}
