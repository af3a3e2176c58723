/* The musl this loader is built on, readable without running it:
 * scripts/musl/version.sh finds this string in an installed loader, so
 * that `make install` can tell an image whose loader is already quickbind
 * which musl it carries. */
#include "ldso.h"

__attribute__((used)) static const char musl_base[] = "quickbind-musl-base=" QB_MUSL_VERSION;
