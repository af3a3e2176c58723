/* HAVE_MOVED: the version linkopt saw, which defines moved_fn; rebuilt
 * without it after optimization. */
#ifdef HAVE_MOVED
const char *moved_fn(void)
{
	return "moved_fn in libs1";
}
#endif

int s1_fn(void)
{
	return 1;
}
