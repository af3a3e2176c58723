const char *odep_name(void) { return "libodep (found through liborig's $ORIGIN/dep)"; }
