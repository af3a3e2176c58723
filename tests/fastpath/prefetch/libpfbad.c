/* Needed before libpf.so; the tests replace it with a file that is not
 * an object, so that the load fails before libpf.so is loaded. */
int pf_bad(void)
{
	return 0;
}
