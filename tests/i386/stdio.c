/* A libc-heavy program: stdio formatting, the allocator, qsort, strings,
 * environment and exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int n = 1000;
	int *v = malloc(n * sizeof *v);
	for (int i = 0; i < n; i++)
		v[i] = (i * 7919) % 1009;
	qsort(v, n, sizeof *v, cmp);
	long sum = 0;
	for (int i = 0; i < n; i++)
		sum += (long)v[i] * i;
	char *s = 0;
	size_t cap = 0;
	for (int i = 0; i < 200; i++) {
		s = realloc(s, cap + 16);
		cap += snprintf(s + cap, 16, "%d,", i % 10);
	}
	printf("hello from i386, argc=%d, last arg=%s\n", argc, argc > 1 ? argv[argc - 1] : "-");
	printf("sorted: %d %d %d sum=%ld\n", v[0], v[n / 2], v[n - 1], sum);
	printf("string: %zu %.12s\n", strlen(s), s);
	printf("float: %.3f %g %e\n", 3.14159, strtod("2.5e3", 0), 1.0 / 3);
	printf("sizeof(void *)=%zu sizeof(long)=%zu\n", sizeof(void *), sizeof(long));
	fprintf(stderr, "to stderr\n");
	free(v);
	free(s);
	return 7;
}
