/* A program using two functions and a variable of libobsyms.so, linked
 * against full/libobsyms.so, which defines them, and run against the
 * libobsyms.so beside it, which does not: three symbols not found. */
int obs_f1(void);
int obs_f2(void);
extern int obs_v3;

int main(void)
{
	return obs_f1() + obs_f2() + obs_v3;
}
