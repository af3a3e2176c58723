/* libip.so, linked with -z interpose: wins over libdef.so wherever it is
 * in the global scope. The padding makes its freed mapping large enough
 * that a stale pointer into it reads garbage, not a lucky copy. */
int shared_fn(void) { return 2; }
int ip_marker(void) { return 42; }
int ip_pad[4096];
