__thread int t1_var = 11;
__thread char t1_buf[100] = "t1";

int t1_get(void)
{
	return t1_var;
}
