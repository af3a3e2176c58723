#include <stdio.h>

#include "cn.h"

#define DECLARE(n) int CN_NAME(n)(void);
CN_ALL(DECLARE)

#define CALL(n) + CN_NAME(n)()

int main(void)
{
	long sum = 0 CN_ALL(CALL);
	printf("%ld\n", sum);
	return 0;
}
