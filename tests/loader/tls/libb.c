/* Built with -mtls-dialect=gnu2 (TLSDESC); holds a page-aligned block and
 * zero-initialised (tbss) data. */
#include "tls.h"

__thread int b_gd = 200;
__thread int b_bss;
__thread char b_al4096[16] __attribute__((aligned(4096))) = "b-aligned-4096";

int *b_gd_addr(void) { return &b_gd; }
int *b_bss_addr(void) { return &b_bss; }
char *b_al4096_addr(void) { return b_al4096; }
