#include <pthread.h>
#include <unistd.h>

static pthread_key_t key;

static void dtor(void *p)
{
	(void)p;
	write(1, "key destructor in the plugin ran\n", 33);
}

void plugin_init(void)
{
	pthread_key_create(&key, dtor);
}

void plugin_use(void)
{
	pthread_setspecific(key, (void *)1);
}
