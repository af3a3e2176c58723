#include <stdio.h>

extern int cr_table[4];
extern const char *cr_msg;
int cr_get(int i);
const char *cr_get_msg(void);
int *cr_where(void);
int cr_read_third(void);

int main(void)
{
	printf("copied: %d %d %d %d %s\n", cr_table[0], cr_table[1], cr_table[2], cr_table[3], cr_msg);
	cr_table[0] = 100;
	cr_table[2] = 300;
	cr_msg = "changed by the program";
	printf("library sees: %d %s\n", cr_get(0), cr_get_msg());
	printf("one object: %d, third through the library's pointer: %d\n",
		cr_where() == cr_table, cr_read_third());
	return 0;
}
