#include <stdio.h>

const char *vague(void);
const char *w2_vague(void);
void w3_report(void);
extern int wdata;

int main(void)
{
	printf("main: vague=%s w2_vague=%s wdata=%d\n", vague(), w2_vague(), wdata);
	w3_report();
	return 0;
}
