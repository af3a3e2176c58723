/* The linkopt fixture program: calls into both libraries through every
 * kind of binding linkopt distinguishes, and prints what it got. */
#include <stdio.h>
#include <string.h>

extern int a_func(int);
extern int b_func(int);
extern int shared_dup(void);
extern int weak_thing(void);
extern const int fake_vtable[2] __asm__("_ZTV4Fake");
extern int b_data;
extern int *a_ptr;
static int *const ptrs[] = { &b_data, &b_data };

int main(int argc, char **argv)
{
	(void)argv;
	printf("a=%d b=%d dup=%d weak=%d vt=%d,%d data=%d ptr=%d same=%d len=%zu\n",
	       a_func(argc), b_func(argc), shared_dup(), weak_thing(),
	       fake_vtable[0], fake_vtable[1], b_data, *a_ptr, ptrs[0] == ptrs[1] && a_ptr == &b_data,
	       strlen("quickbind"));
	return 3;
}
