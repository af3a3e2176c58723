/* Loaded by dlopen after threads exist: its TLS is dynamic, reached
 * through ___tls_get_addr (general dynamic) and, built a second time with
 * -mtls-dialect=gnu2, through dynamic TLS descriptors. */
#include <stdio.h>

__thread int dyn_tls = 40;
static __thread char dyn_buf[32] = "dynamic";

int dyn_bump(int by)
{
	dyn_tls += by;
	return dyn_tls;
}

const char *dyn_text(int id)
{
	snprintf(dyn_buf, sizeof dyn_buf, "%s-%d", DYN_NAME, id);
	return dyn_buf;
}
