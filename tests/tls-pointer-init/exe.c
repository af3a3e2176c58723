/* tls-pointer-init, the reported program: a TLS initializer holding an
 * address (R_*_RELATIVE in .tdata of a PIE; none in ET_EXEC). */
#include <stdio.h>
static __thread const char *s = "x";
int main(void){ puts(s); return 0; }
