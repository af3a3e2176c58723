/* The loader's LD_DEBUG=statistics lines, as the suites read them:
 * "statistics (WHEN): key=value key=value ...". */
#ifndef QB_TESTS_LIB_STATS_H
#define QB_TESTS_LIB_STATS_H

/* Counter key ("direct_hits") on the last statistics line of err printed
 * at when ("start-up", "dlopen"; NULL: at any time) that has it, or -1
 * when none has. */
long ld_stat(const char *err, const char *when, const char *key);

#endif
