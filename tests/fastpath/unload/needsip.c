/* Needs libip.so and fails to relocate: dlopen(RTLD_GLOBAL) of it
 * promotes an already loaded libip.so to the global scope, then fails. */
int no_such_symbol_anywhere(void);
int needs_ip(void) { return no_such_symbol_anywhere(); }
