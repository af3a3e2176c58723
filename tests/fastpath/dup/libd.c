/* Built twice, as libd1 and libd2: both define dup_fn and dup_data. */
#define STR2(x) #x
#define STR(x) STR2(x)
const char *dup_fn(void)
{
	return STR(WHICH);
}

int dup_data = WHICH_NUM;

const char *dup_self(void)
{
	return dup_fn();
}
