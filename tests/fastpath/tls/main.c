/* Every thread sets its own t1_var through libt2 and reads it back through
 * libt1, libt3 and the executable's initial-exec reference. */
#include <pthread.h>
#include <stdio.h>

extern __thread int t1_var;
int t1_get(void);
void t2_set(int);
int t2_get(void);
int t3_get(void);

#define N 6
static int res[N][4];

static void *work(void *arg)
{
	int i = (int)(long)arg;
	t2_set(i * 3);
	res[i][0] = t1_get();
	res[i][1] = t2_get();
	res[i][2] = t3_get();
	res[i][3] = t1_var;
	return 0;
}

int main(void)
{
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], 0, work, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	for (int i = 0; i < N; i++)
		printf("thread %d: %d %d %d %d\n", i, res[i][0], res[i][1], res[i][2], res[i][3]);
	printf("main: %d %d %d\n", t1_get(), t2_get(), t3_get());
	return 0;
}
