#include <stdio.h>
int main(int argc, char **argv)
{
	printf("%s %d\n", argv[0], argc);
	return 0;
}
