#include <stdio.h>

int ws_first(void);
int ws_last(void);

int main(void)
{
	printf("%d\n", ws_first() + ws_last());
	return 0;
}
