/* Built with -mtls-dialect=gnu2: every access goes through a descriptor. */
#include "tls.h"

__thread long lib_desc = 11;
static __thread long local_desc = 100;

long *tgd_desc_addr(void) { return &lib_desc; }

long tgd_bump(void)
{
	local_desc += 1;
	return ++lib_desc + local_desc;
}
