/* The same references through TLS descriptors (built -mtls-dialect=gnu2). */
extern __thread int t1_var;
extern __thread char t1_buf[100];

int t3_get(void)
{
	return t1_var * 2 + t1_buf[0];
}
