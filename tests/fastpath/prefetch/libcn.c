/* Nine hundred long names, every one bound directly by prog_cn: once
 * linkopt has optimized both, start-up reads none of them (cn.h). */
#include "cn.h"

#define F(n) int CN_NAME(n)(void) { return n; }
CN_ALL(F)
