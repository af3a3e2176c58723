/* General-dynamic references to libt1's TLS, bound directly to libt1. */
extern __thread int t1_var;
extern __thread char t1_buf[100];

void t2_set(int v)
{
	t1_var = v;
	t1_buf[0] = (char)('a' + v % 26);
}

int t2_get(void)
{
	return t1_var + t1_buf[0];
}
