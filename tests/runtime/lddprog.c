/* Needs libqrtop.so (and through it libqrmid.so, libqrdep.so). */
#include "say.h"

int top_value(void);
int dep_value(void);

int main(int argc, char **argv)
{
	(void)argc;
	say("argv0 %s\ntop_value %d dep_value %d\n", argv[0], top_value(), dep_value());
	return 0;
}
