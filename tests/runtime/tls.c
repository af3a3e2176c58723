/* libqrtlsgd.so (-mtls-dialect=gnu) and libqrtlsdesc.so (gnu2): TLS of a
 * dlopened library, with initial values, a zero-filled part and a
 * 64-byte-aligned variable. */
__thread int tv = 7;
__thread char tstr[16] = "init";
__thread long tz[32];
__thread _Alignas(64) int taligned = 3;

int *tls_tv(void) { return &tv; }
char *tls_str(void) { return tstr; }
long *tls_z(void) { return tz; }
int *tls_aligned(void) { return &taligned; }
