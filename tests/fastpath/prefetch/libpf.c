/* Built twice, in a/ and b/, told apart by WHICH: the loader's early
 * requests may name one while the search loads the other. Some data, so
 * that the file has pages beyond its headers. */
const char pf_table[16384] = { 1 };

const char *pf_which(void)
{
	return WHICH + pf_table[0] - 1;
}
