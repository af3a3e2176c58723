#include <stdio.h>
int *once_addr(void);
int *user_sees_once(void);
extern int once_count;
int main(void)
{
	printf("once_count=%d same object=%d\n", once_count,
	       once_addr() == &once_count && user_sees_once() == &once_count);
	return 0;
}
