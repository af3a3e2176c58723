#include <stdio.h>

extern int cr_table[4];
int cr_sum(void);
int *cr_addr(void);
int cruser_first(void);
int *cruser_addr(void);
extern int *const cruser_ref;

int main(void)
{
	cr_table[0] = 100;
	printf("sum=%d first=%d\n", cr_sum(), cruser_first());
	printf("same address: lib=%d user=%d data=%d\n", cr_addr() == cr_table,
	       cruser_addr() == cr_table, cruser_ref == cr_table);
	return 0;
}
