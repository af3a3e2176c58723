/* An interposer whose relocation fails: the dlopen must leave nothing. */
int no_such_symbol_anywhere(void);
int shared_fn(void) { return 3 + no_such_symbol_anywhere(); }
