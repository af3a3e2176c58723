#include <stdio.h>
int ip_call(int x);
int ip2_call(int x);
int ip_read_data(void);
int (*ip_helper_ptr(void))(int);
int ip2_reads_both(void);
extern int ip_both;

int ip_data = 77;
int ip_helper(int x) { return x + 100; }

int main(void)
{
	printf("ip_call(1)=%d\n", ip_call(1));
	printf("ip2_call(1)=%d\n", ip2_call(1));
	printf("ip_read_data()=%d\n", ip_read_data());
	printf("lib's &ip_helper is exe's: %d\n", ip_helper_ptr() == ip_helper);
	printf("ip_both=%d, libip2 reads %d\n", ip_both, ip2_reads_both());
	return 0;
}
