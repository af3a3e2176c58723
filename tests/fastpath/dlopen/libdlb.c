int dlb_data = 1000;

int dlb_fn(int x)
{
	return x * 10;
}
