/* who() is defined here and in the program: the program's wins, also for
 * the library's own call. ip_value is defined here and in libip2. */
const char *who(void) { return "libip"; }
int ip_value = 1;
const char *ip_calls_who(void) { return who(); }
int ip_reads_value(void) { return ip_value; }
