/* Weak definitions first in load order: musl binds to them. */
__attribute__((weak)) const char *vague(void)
{
	return "w1-weak";
}

__attribute__((weak)) int wdata = 1;

/* A C++ typeinfo name (vague linkage), strong here and in libw2. */
const char typeinfo_name[] __asm__("_ZTS3Foo") = "w1-typeinfo";
