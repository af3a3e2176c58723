const char *vague(void)
{
	return "w2-strong";
}

__attribute__((weak)) int wdata = 2;

const char typeinfo_name[] __asm__("_ZTS3Foo") = "w2-typeinfo";

const char *w2_vague(void)
{
	return vague();
}

/* A weak reference no object of the load defines (a preload may). */
__attribute__((weak)) const char *w_absent(void);

const char *w2_absent(void)
{
	return w_absent ? w_absent() : "none";
}
