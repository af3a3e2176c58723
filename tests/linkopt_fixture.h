/* The linkopt suites' fixtures: the program and libraries of
 * tests/linkopt/, linked once per variant (toolchain, class, libc) under
 * LOT_DIR by tests/linkopt.mk. What is not about these fixtures (running
 * commands, reading files, temporary directories) is in tests/lib/. */
#ifndef LINKOPT_TEST_FIXTURE_H
#define LINKOPT_TEST_FIXTURE_H

#include <stddef.h>

#include "lib/file.h"
#include "lib/shell.h"

extern const char *const lot_variants[];
extern const size_t lot_nvariants;
/* The files linkopt optimizes together in every variant. */
extern const char *const lot_files[3];

/* 0 .. lot_nvariants-1: the parameters of one test per variant (indices,
 * not pointers, so that Criterion can copy them). */
int *lot_variant_indices(void);
#define LOT_VARIANT_TEST(suite, name, ...) \
	ParameterizedTestParameters(suite, name) \
	{ \
		return cr_make_param_array(int, lot_variant_indices(), lot_nvariants); \
	} \
	ParameterizedTest(int *vi, suite, name, ##__VA_ARGS__)

/* Absolute path of the linkopt under test (LINKOPT_BIN). */
const char *lot_bin(void);
/* A new temporary directory holding a copy of a variant's fixture files
 * (prog, liba.so, libb.so, and libb2.so: libb.so rebuilt). Free it. */
char *lot_copy_variant(const char *variant);
/* Command prefix that runs a variant's program under its stock loader. */
const char *lot_loader_prefix(const char *variant);

#endif
