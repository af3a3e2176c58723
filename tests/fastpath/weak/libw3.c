/* Needs libw1 and libw2; every reference here is vague. */
#include <stdio.h>

const char *vague(void);
extern int wdata;
extern const char typeinfo_name[] __asm__("_ZTS3Foo");

void w3_report(void)
{
	printf("w3: vague=%s wdata=%d typeinfo=%s\n", vague(), wdata, typeinfo_name);
}
