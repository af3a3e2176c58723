/* Where a suite's fixtures are: the build gives each suite its fixture
 * root; files are named relative to it. */
#ifndef QB_TESTS_LIB_FIXTURE_H
#define QB_TESTS_LIB_FIXTURE_H

/* root/rel in one of eight rotating static buffers, so that several may
 * stand in one call. */
char *fixture_path(const char *root, const char *rel);

/* Is arch one of the space-separated architectures the build configured
 * (the suite's ARCHS string)? */
int arch_configured(const char *archs, const char *arch);

#endif
