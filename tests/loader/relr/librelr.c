/* Pointers in data: RELATIVE relocations, packed into DT_RELR when linked
 * with -z pack-relative-relocs. */
static int values[16] = { 0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225 };
static int *ptrs[16] = { &values[0], &values[1], &values[2], &values[3], &values[4], &values[5],
	&values[6], &values[7], &values[8], &values[9], &values[10], &values[11], &values[12],
	&values[13], &values[14], &values[15] };
static const char *names[3] = { "alpha", "beta", "gamma" };
int relr_sum(void) { int s = 0; for (int i = 0; i < 16; i++) s += *ptrs[i]; return s; }
const char *relr_name(int i) { return names[i]; }
