/* libqrpre.so: preloaded, it interposes on libqrdep.so's dep_value. */
int dep_value(void) { return 99; }
