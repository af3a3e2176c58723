/* A program that leans on libc: threads that allocate, format and parse;
 * per-thread errno; environ edits; stdio on a temporary file; qsort and
 * strtod. Everything it prints is a deterministic digest. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define NT 6
#define ROUNDS 2000

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;
	while (n--)
		h = (h ^ *c++) * 1099511628211ull;
	return h;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	return x < y ? -1 : x > y;
}

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	uint64_t h = 1469598103934665603ull;
	char *blocks[64] = {0};
	unsigned seed = id * 7919u + 1;

	for (int r = 0; r < ROUNDS; r++) {
		seed = seed * 1103515245u + 12345u;
		int slot = seed % 64;
		free(blocks[slot]);
		size_t sz = 1 + (seed >> 8) % 3000;
		blocks[slot] = malloc(sz);
		if (!blocks[slot])
			return (void *)-1;
		int n = snprintf(blocks[slot], sz, "t%d r%d %.3f %x %s", id, r,
				 r / 7.0, seed, "padding-text");
		h = fnv(blocks[slot], strlen(blocks[slot]), h);
		(void)n;
		double d = strtod("3.25e2", NULL);
		h = fnv(&d, sizeof d, h);
		/* errno is per thread: a failure here must not leak elsewhere */
		errno = 0;
		if (close(-1) != -1 || errno != EBADF)
			return (void *)-2;
	}
	for (int i = 0; i < 64; i++)
		free(blocks[i]);

	unsigned long arr[257];
	for (int i = 0; i < 257; i++)
		arr[i] = (h >> (i % 13)) ^ (i * 2654435761u);
	qsort(arr, 257, sizeof arr[0], cmp_ul);
	for (int i = 1; i < 257; i++)
		if (arr[i - 1] > arr[i])
			return (void *)-3;
	return (void *)(uintptr_t)(h & 0xffffffff);
}

int main(int argc, char **argv)
{
	pthread_t t[NT];
	unsigned long total = 0;

	/* argv[0] differs between the ways the program is started; the rest
	 * must arrive intact */
	printf("argc=%d", argc);
	for (int i = 1; i < argc; i++)
		printf(" [%s]", argv[i]);
	putchar('\n');

	for (int i = 0; i < NT; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i)) {
			puts("pthread_create failed");
			return 1;
		}
	for (int i = 0; i < NT; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		printf("worker %d: %08lx\n", i, (unsigned long)(uintptr_t)ret);
		total = total * 31 + (uintptr_t)ret;
	}
	printf("workers: %016lx\n", total);

	int qbt = 0;
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "QBT_", 4))
			qbt++;
	printf("QBT_ vars: %d first=%s\n", qbt, getenv("QBT_FIRST") ? getenv("QBT_FIRST") : "(unset)");
	setenv("QBT_NEW", "value", 1);
	unsetenv("QBT_FIRST");
	printf("after edits: new=%s first=%s\n", getenv("QBT_NEW"),
	       getenv("QBT_FIRST") ? getenv("QBT_FIRST") : "(unset)");

	FILE *f = tmpfile();
	if (!f) {
		printf("tmpfile: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 1000; i++)
		fprintf(f, "%d %s\n", i, i % 2 ? "odd" : "even");
	rewind(f);
	char line[64];
	uint64_t fh = 1469598103934665603ull;
	int lines = 0;
	while (fgets(line, sizeof line, f)) {
		fh = fnv(line, strlen(line), fh);
		lines++;
	}
	fclose(f);
	printf("tmpfile: %d lines %016" PRIx64 "\n", lines, fh);

	errno = 0;
	if (open("/nonexistent/qbt", O_RDONLY) < 0)
		printf("open missing: %s\n", strerror(errno));
	char *big = malloc(64 << 20);
	memset(big, 0x5a, 64 << 20);
	printf("big block: %d\n", big[(64 << 20) - 1]);
	free(big);
	fflush(stdout);
	fprintf(stderr, "to stderr\n");
	/* main's return value must reach the parent unchanged */
	return 7;
}
