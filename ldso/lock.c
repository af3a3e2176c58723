/* The loader lock: the object list, the scopes and the journal change
 * under it, in one thread at a time. */
#include <pthread.h>
#include "ldso.h"

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_t owner;
static int depth;

/* Recursive: constructors run by dlopen may call dlopen. */
hidden void qb_lock(void)
{
	pthread_t self = pthread_self();
	if (depth && pthread_equal(owner, self)) {
		depth++;
		return;
	}
	pthread_mutex_lock(&mtx);
	owner = self;
	depth = 1;
}

hidden void qb_unlock(void)
{
	if (--depth == 0)
		pthread_mutex_unlock(&mtx);
}

/* The child of a fork, the only thread left, starts with a fresh lock. */
hidden void qb_lock_reset(void)
{
	mtx = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	depth = 0;
}
