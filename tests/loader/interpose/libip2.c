int ip_helper(int x);
int ip2_call(int x) { return ip_helper(x) + 1000; }
