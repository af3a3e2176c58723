/* Loaded by dlopen; bound directly to its DT_NEEDED libdlb. */
int dlb_fn(int);
extern int dlb_data;
int (*const dla_table[])(int) = { dlb_fn, dlb_fn, dlb_fn };

int dla_fn(int x)
{
	return dla_table[0](x) + dla_table[2](x) + dlb_data;
}
