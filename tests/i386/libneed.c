int need_value(void) { return 42; }
