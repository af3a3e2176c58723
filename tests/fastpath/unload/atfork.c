/* Registers fork handlers in its own code: they run at every fork, after
 * any dlclose of this library. */
#include <pthread.h>
#include <unistd.h>

static void prepare(void) { write(2, "prepare handler ran\n", 20); }
__attribute__((constructor)) static void init(void) { pthread_atfork(prepare, 0, 0); }
int lib_fn(int x) { return x + 1; }
