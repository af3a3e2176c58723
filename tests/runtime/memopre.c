/* libqmpre.so: LD_PRELOADed, it comes first in every lookup. */
int mv_value(void) { return 7; }
