/* TLS fixture: variables in the program and in two libraries, reached by
 * every access model the i386 toolchain produces. */
extern __thread int lib_gd;           /* libtga: general dynamic */
extern __thread char lib_gd_buf[64];
extern __thread long lib_desc;        /* libtgd: TLS descriptors (gnu2) */
extern __thread int lib_ie;           /* libtga, reached initial-exec */

int *tga_gd_addr(void);
int *tga_ie_addr(void);
int *tga_tpoff32_addr(void);
char *tga_buf(void);
long *tgd_desc_addr(void);
long tgd_bump(void);
