/* HAVE_MOVED: the rebuilt version, which now defines moved_fn. */
#ifdef HAVE_MOVED
const char *moved_fn(void)
{
	return "moved_fn in libs2";
}
#endif

int s2_fn(void)
{
	return 2;
}
