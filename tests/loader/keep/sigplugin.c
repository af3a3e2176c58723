#include <signal.h>
#include <unistd.h>

static void on_usr1(int s)
{
	(void)s;
	write(1, "the plugin's signal handler ran\n", 32);
}

void plugin_init(void)
{
	signal(SIGUSR1, on_usr1);
}
