int ip_helper(int x);
int ip2_call(int x) { return ip_helper(x) + 1000; }
int ip_both = 2;
int ip2_reads_both(void) { return ip_both; }
