int other(void)
{
	return 1;
}
