int ip_value = 2;
const char *ip2_name(void) { return "libip2"; }
