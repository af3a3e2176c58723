#include <stdio.h>

const char *vague(void);
const char *w2_vague(void);
const char *w2_absent(void);
void w3_report(void);
extern int wdata;

int main(void)
{
	printf("main: vague=%s w2_vague=%s wdata=%d w2_absent=%s\n", vague(), w2_vague(), wdata, w2_absent());
	w3_report();
	return 0;
}
