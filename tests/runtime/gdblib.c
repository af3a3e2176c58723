/* libqrgdb.so: the debugger sets a breakpoint here before it is loaded. */
__attribute__((noinline)) int fn_in_lib(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}
