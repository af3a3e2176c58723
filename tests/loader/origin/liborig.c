const char *odep_name(void);
const char *orig_name(void) { return "liborig"; }
const char *orig_dep(void) { return odep_name(); }
