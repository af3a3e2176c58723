/* libqmuser.so: the object `memo` opens and closes again and again. Its
 * references to libqmdep.so are a call (PLT), a data address and a
 * function address (word relocations); its counter lives in its own
 * data, so a fresh mapping counts from 1 again. The -DV2 build
 * (libqmuser2.so) references the names in another order and reports
 * itself, for a memoized object replaced by another file. */
#include "say.h"

extern int mv_value(void);
extern const char *mv_which(void);
extern int mv_data;

#ifdef V2
const char *(*const mv_which_ref)(void) = mv_which;
int *const mv_data_ref = &mv_data;
#define WHO "user2"
#else
int *const mv_data_ref = &mv_data;
const char *(*const mv_which_ref)(void) = mv_which;
#define WHO "user"
#endif

static int calls;

__attribute__((constructor)) static void user_ctor(void) { say("%s ctor\n", WHO); }
__attribute__((destructor)) static void user_dtor(void) { say("%s dtor\n", WHO); }

void user_report(void)
{
	say("%s: value %d data %d which %s calls %d\n", WHO, mv_value(), *mv_data_ref, mv_which_ref(),
	    ++calls);
}
