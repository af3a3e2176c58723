/* libqrneedsgone.so: needs libqrbaddep.so and the absent libqrgone.so. */
int baddep_fn(void);
int gone_fn(void);

int needsgone_fn(void) { return baddep_fn() + gone_fn(); }
