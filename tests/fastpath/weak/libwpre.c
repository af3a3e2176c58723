/* Preloaded: strong definitions of the vague names, ahead of every
 * library linkopt saw in the program's load. */
const char *vague(void)
{
	return "preload";
}

int wdata = 9;

const char typeinfo_name[] __asm__("_ZTS3Foo") = "preload-typeinfo";

const char *w_absent(void)
{
	return "preload";
}
