/* Bound directly to libcore by linkopt: greet, core_value, core_twice.
 * The table repeats one symbol, so the symbol cache has work to do. */
#include <stdio.h>

const char *greet(void);
const char *core_greet(void);
int core_twice(int);
extern int core_value;

int (*const user_table[])(int) = { core_twice, core_twice, core_twice, core_twice, core_twice, core_twice };
int *const user_refs[] = { &core_value, &core_value, &core_value };

void user_run(void)
{
	int sum = 0;
	for (unsigned i = 0; i < sizeof user_table / sizeof *user_table; i++)
		sum += user_table[i]((int)i) + *user_refs[i % 3];
	printf("user: greet=%s core_greet=%s sum=%d\n", greet(), core_greet(), sum);
}
