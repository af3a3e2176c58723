#include <stdio.h>
#include <string.h>

extern int cr_counter;
extern char cr_text[32];
extern struct pair { int a, b; } cr_pair;
int cr_get(void);
void cr_bump(void);
const char *cr_text_get(void);
struct pair *cr_pair_get(void);
extern const char *cr_msg;
extern int cr_table[4];
const char *cr_msg_get(void);
int cr_read_third(void);
int *cr_table_addr(void);

int main(void)
{
	printf("initial: counter=%d text=%s pair=%d,%d\n", cr_counter, cr_text, cr_pair.a, cr_pair.b);
	cr_counter = 1000;
	printf("lib sees exe write: %d\n", cr_get());
	cr_bump();
	printf("exe sees lib write: %d\n", cr_counter);
	strcpy(cr_text, "changed by exe");
	printf("lib text: %s\n", cr_text_get());
	cr_pair.b = 20;
	cr_pair_get()->a = 10;
	printf("pair: %d,%d\n", cr_pair.a, cr_pair.b);
	printf("same object: text=%d pair=%d\n", cr_text_get() == cr_text, cr_pair_get() == &cr_pair);
	printf("copied: %d %d %d %d %s\n", cr_table[0], cr_table[1], cr_table[2], cr_table[3], cr_msg);
	cr_table[2] = 300;
	cr_msg = "changed by exe";
	printf("lib sees: third=%d msg=%s same table=%d\n", cr_read_third(), cr_msg_get(),
	       cr_table_addr() == cr_table);
	return 0;
}
