#include <stdio.h>

const char *dup_fn(void);
const char *dup_self(void);
void d12_report(void);

int main(void)
{
	printf("main: dup_fn=%s dup_self=%s\n", dup_fn(), dup_self());
	d12_report();
	return 0;
}
