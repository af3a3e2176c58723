/* Needs libdlb only; dla_fn resolves only when libdla is global. */
int dla_fn(int);
int dlb_fn(int);

int dlc_fn(int x)
{
	return dla_fn(x) + dlb_fn(1);
}
