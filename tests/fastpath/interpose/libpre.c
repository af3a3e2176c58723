/* LD_PRELOAD interposer on libcore's greet and core_twice. */
const char *greet(void)
{
	return "preload";
}

int core_twice(int x)
{
	return 3 * x;
}
