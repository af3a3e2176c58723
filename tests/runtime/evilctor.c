/* An attacker's LD_PRELOAD: says when it runs, and as whom. */
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void evil(void)
{
	dprintf(1, "EVIL euid %d\n", (int)geteuid());
}
