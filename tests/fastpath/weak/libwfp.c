/* Loaded ahead of libw1 by prog_fp. Each name's GNU hash agrees with that
 * of vague, wdata or _ZTS3Foo in its low 16 bits and differs above: this
 * library's bloom filter lets those three names through, whatever the
 * linker sized it, while its hash chains hold none of them. */
int wfp_3900 = 1;   /* vague */
int wfp_28245 = 2;  /* wdata */
int wfp_3017 = 3;   /* _ZTS3Foo */
