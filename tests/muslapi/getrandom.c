/* getrandom and getentropy: the lengths they give, and two draws that
 * differ (the bytes themselves differ from run to run). */
#include <sys/random.h>
#include "ma.h"

int main(void)
{
	unsigned char a[64], b[64];
	printf("getrandom: %zd\n", getrandom(a, sizeof a, 0));
	ssize_t n = getrandom(b, sizeof b, GRND_NONBLOCK);
	printf("getrandom nonblock: %s\n", n == (ssize_t)sizeof b ? "64" : ma_err(errno));
	printf("two draws differ: %d\n", memcmp(a, b, sizeof a) != 0);
	printf("getentropy: %d\n", getentropy(a, 32));
	printf("getentropy too long: %d\n", getentropy(a, 257));
	return 0;
}
