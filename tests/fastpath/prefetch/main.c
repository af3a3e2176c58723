/* Says which libpf.so the loader loaded. */
#include <stdio.h>

const char *pf_which(void);
#ifdef WITH_BAD
int pf_bad(void);
#endif

int main(void)
{
#ifdef WITH_BAD
	pf_bad();
#endif
	printf("libpf %s\n", pf_which());
	return 0;
}
