#include <stdio.h>

int relr_sum(void);
const char *relr_name(int i);
static const char *local[2] = { "one", "two" };

int main(void)
{
	printf("%d %s %s %s\n", relr_sum(), relr_name(0), relr_name(2), local[1]);
	return 0;
}
