/* prog_exe defines greet() itself (EXE_GREET), prog_plain does not. */
#include <stdio.h>

void user_run(void);
const char *greet(void);
const char *core_greet(void);

#ifdef EXE_GREET
const char *greet(void)
{
	return "executable";
}
#endif

int main(void)
{
	printf("main: greet=%s core_greet=%s\n", greet(), core_greet());
	user_run();
	return 0;
}
