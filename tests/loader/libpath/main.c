#include <stdio.h>
const char *lp_which(void);
int main(void)
{
	printf("liblp from dir %s\n", lp_which());
	return 0;
}
