/* Bound directly to libcr for cr_table, yet must see the executable's copy. */
extern int cr_table[4];

int cruser_first(void)
{
	return cr_table[0];
}

int *cruser_addr(void)
{
	return cr_table;
}

int *const cruser_ref = cr_table;
