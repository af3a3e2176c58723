int lay_dep_bss[2000];

int lay_dep_value(void)
{
	return 77 + lay_dep_bss[1999];
}
