#include <stdio.h>
int needs_fn(void);
int main(void)
{
	printf("main ran: %d\n", needs_fn());
	return 0;
}
