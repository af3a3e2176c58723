/* libqrsec.so, in two builds: the one next to the program (SEC_WHICH
 * "good") and one in a directory named only by the environment. */
int sec_marker_good_or_evil(void) { return 0; }
const char *sec_which(void) { return SEC_WHICH; }
