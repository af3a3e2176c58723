/* Program at the top of the graph: prints the number of node constructors
 * that ran, their order, and the checksum of every root's value. ROOTS is
 * 'D(a) D(b)...' like node.c's DEPS. */
#include <stdio.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(n) CAT(graph_node_, n)

int graph_init_count(void);
const int *graph_init_order(void);

#define D(n) unsigned long long FN(n)(void);
ROOTS
#undef D

int main(void)
{
	unsigned long long sum = 0;
#define D(n) sum = sum * 31 + FN(n)();
	ROOTS
#undef D
	int n = graph_init_count();
	const int *o = graph_init_order();
	printf("constructors: %d\norder:", n);
	for (int i = 0; i < n; i++)
		printf(" %d", o[i]);
	printf("\nchecksum: %016llx\n", sum);
	return 0;
}
