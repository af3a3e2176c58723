/* cr_table is copied into the executable (R_X86_64_COPY); this library
 * must read and write the executable's copy. */
int cr_table[4] = { 1, 2, 3, 4 };

int cr_sum(void)
{
	return cr_table[0] + cr_table[1] + cr_table[2] + cr_table[3];
}

int *cr_addr(void)
{
	return cr_table;
}
