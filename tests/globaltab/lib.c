/* One library of the global-table fixture; what it defines depends on the
 * macros the build gives it (tests/globaltab.mk). Every definition
 * returns the library's name, so a program can print who answered. */
#include <stdio.h>

#ifndef NAME
#error NAME must name the library
#endif

#ifdef DEF_WHO
const char *gt_who(void) { return NAME; }
#endif
#ifdef DEF_WEAK
__attribute__((weak)) const char *gt_weak(void) { return NAME " (weak)"; }
#endif
#ifdef DEF_STRONG
const char *gt_weak(void) { return NAME " (strong)"; }
#endif
#ifdef DEF_STRONG_FIRST
const char *gt_strong_first(void) { return NAME " (strong)"; }
#endif
#ifdef DEF_WEAK_SECOND
__attribute__((weak)) const char *gt_strong_first(void) { return NAME " (weak)"; }
#endif
#ifdef DEF_MAINDEF
const char *gt_maindef(void) { return NAME; }
#endif
#ifdef DEF_ORDER
const char *gt_order(void) { return NAME; }
#endif
#ifdef DEF_LATE
const char *gt_late(void) { return NAME; }
#endif
#ifdef DEF_LATE2
const char *gt_late2(void) { return NAME; }
#endif
#ifdef DEF_LOCAL
const char *gt_local_only(void) { return NAME; }
#endif
#ifdef DEF_TINY
/* two exported symbols (tiny.map): a GNU hash with an even number of
 * buckets (2), where the bucket alone gives the low bit back */
const char *gt_tiny(void) { return NAME; }
int gt_tiny_data = 7;
#endif
#ifdef DEF_DATA
int gt_data = 42;
#endif

#ifdef CALLS
/* What this library's own references bound to (the start-up scope). */
const char *gt_who(void);
const char *gt_maindef(void);
__attribute__((weak)) const char *gt_missing(void);
const char *gt_calls(void)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "%s sees who=%s maindef=%s missing=%s", NAME,
		gt_who(), gt_maindef(), gt_missing ? "defined" : "null");
	return buf;
}
#endif

#ifdef USES_LATE
/* Loaded by dlopen after a GLOBAL object that defines gt_late. */
const char *gt_late(void);
const char *gt_who(void);
__attribute__((weak)) const char *gt_local_only(void);
const char *gt_user(void)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "late=%s who=%s local_only=%s", gt_late(), gt_who(),
		gt_local_only ? gt_local_only() : "null");
	return buf;
}
#endif

#ifdef USES_VFUNC
/* Linked against the first release of libgtv: its reference is
 * vfunc@VER_1, which the second release keeps as a hidden version. */
const char *vfunc(void);
const char *gt_vold(void) { return vfunc(); }
#endif
