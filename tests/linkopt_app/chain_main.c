#include <stdio.h>
int f0(void);
int main(void)
{
	printf("chain %d\n", f0());
	return 0;
}
