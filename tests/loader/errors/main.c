#include <stdio.h>
int bad_fn(void);
int main(void)
{
	printf("main ran: %d\n", bad_fn());
	return 0;
}
