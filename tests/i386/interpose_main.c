#include <stdio.h>

const char *ip_calls_who(void);
int ip_reads_value(void);
const char *ip2_name(void);
extern int ip_value;

const char *who(void) { return "program"; }

int main(void)
{
	printf("who: %s, via library: %s\n", who(), ip_calls_who());
	printf("ip_value: %d, library reads: %d, %s loaded\n", ip_value, ip_reads_value(), ip2_name());
	return 0;
}
