/* Set-uid root in the test: becomes root for good, as a program may, and
 * runs argv[1] (a quickbind program, no longer secure) with the
 * environment it was given. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (setuid(0))
		dprintf(1, "setuid(0) failed\n");
	execv(argv[1], argv + 1);
	perror("execv");
	return 1;
}
