/* libqrbad.so: needs libqrbaddep.so, and refers to data no object
 * defines, so loading it fails at relocation in any mode. */
extern int no_such_symbol_qb;
int baddep_fn(void);

int *bad_ptr = &no_such_symbol_qb;
int bad_fn(void) { return baddep_fn() + *bad_ptr; }
