/* The library the error fixtures need; its broken copies replace it. */
int bad_fn(void) { return 7; }
