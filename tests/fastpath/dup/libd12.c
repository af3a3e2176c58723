/* Needs libd1 and libd2, which both define dup_fn and dup_data. */
#include <stdio.h>

const char *dup_fn(void);
extern int dup_data;

void d12_report(void)
{
	printf("d12: dup_fn=%s dup_data=%d\n", dup_fn(), dup_data);
}
