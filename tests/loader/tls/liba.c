/* General-dynamic TLS (the -fPIC default), an initial-exec variable inside a
 * library, and a 64-byte aligned block. */
#include "tls.h"

__thread int a_gd = 100;
static __thread int a_ie __attribute__((tls_model("initial-exec"))) = 7;
__thread char a_al64[24] __attribute__((aligned(64))) = "a-aligned-64";
__thread long a_shared = 5;

int *a_gd_addr(void) { return &a_gd; }
int *a_ie_addr(void) { return &a_ie; }
char *a_al64_addr(void) { return a_al64; }
long *a_shared_addr(void) { return &a_shared; }
