/* A program with thread-local data, which a test corrupts: its PT_TLS
 * size becomes too large for any thread. */
#include <stdio.h>

__thread int counter[4] = {1, 2, 3, 4};

int main(void)
{
	printf("%d\n", counter[0] + counter[3]);
	return 0;
}
