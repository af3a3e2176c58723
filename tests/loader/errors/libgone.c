int gone_fn(void) { return 9; }
