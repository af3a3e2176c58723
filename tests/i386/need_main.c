#include <stdio.h>
int need_value(void);
int main(void)
{
	printf("need_value: %d\n", need_value());
	return 0;
}
