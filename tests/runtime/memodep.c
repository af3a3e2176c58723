/* libqmdep.so: what libqmuser.so binds to. The -DV2 build (libqmdep2.so,
 * put in its place by `memo replace`) has other values and more symbols,
 * so that its symbol indices differ: a binding memo of the first file
 * reused for it would bind to the wrong definitions. */
#ifdef V2
int mv_pad_a(void) { return 101; }
int mv_pad_b(void) { return 102; }
int mv_pad_c(void) { return 103; }
int mv_pad_d(void) { return 104; }
int mv_pad_e(void) { return 105; }
int mv_value(void) { return 2; }
int mv_data = 20;
#else
int mv_value(void) { return 1; }
int mv_data = 10;
#endif
const char *mv_which(void) { return "dep"; }
