/* A program's launch record (tools/linkopt/launch.c). */
#ifndef LINKOPT_LAUNCH_H
#define LINKOPT_LAUNCH_H
#include "search.h"

/* --loader: the loader the programs run under, or NULL. */
extern const char *launch_loader_opt;

/* Appends the launch record of the program whose start-up load is c to
 * its table *tab of *len bytes (QB_TF_LAUNCH), when the loader and every
 * object's identity are known; -1 when out of memory. */
int qbt_add_launch(uint8_t **tab, size_t *len, const struct closure *c, const struct search_opts *so);

/* linkopt --check: does program prog's launch record (at path) still
 * describe its start-up load c and the loader it runs under? 1 when not,
 * with a line saying why. */
int launch_check(const struct elf *prog, const struct closure *c, const struct search_opts *so, const char *path);
#endif
