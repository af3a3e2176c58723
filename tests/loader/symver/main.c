#include <stdio.h>
const char *vfunc(void);
extern int vdata;
int main(void)
{
	printf("%s\nvdata=%d\n", vfunc(), vdata);
	return 0;
}
