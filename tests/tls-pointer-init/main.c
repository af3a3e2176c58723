/* tls-pointer-init: the reported library case, read by the main thread. */
#include <stdio.h>
const char *get(void);
int main(void){ puts(get()); return 0; }
