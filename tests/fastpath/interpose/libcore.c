/* The library whose greet() the executable or an LD_PRELOAD object
 * replaces; core_greet() calls greet() through the PLT, so even the
 * defining library must see the interposer. */
const char *greet(void)
{
	return "core";
}

const char *core_greet(void)
{
	return greet();
}

int core_value = 7;

int core_twice(int x)
{
	return 2 * x;
}
