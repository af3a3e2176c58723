/* Accessors the TLS fixture libraries export: each returns the calling
 * thread's copy, so the program can check per-thread identity and alignment. */
#ifndef TLS_FIXTURE_H
#define TLS_FIXTURE_H
int *a_gd_addr(void);
int *a_ie_addr(void);
char *a_al64_addr(void);
long *a_shared_addr(void);
int *b_gd_addr(void);
int *b_bss_addr(void);
char *b_al4096_addr(void);
extern __thread long a_shared;
#ifdef __i386__
int *a_tp32_addr(void);
int a_tp32_value(void);
#endif
#endif
