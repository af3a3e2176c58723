/* Defines dup_fn strongly and weak_fn weakly; libw2 defines both strongly.
 * The dynamic rule: the first definition in load order wins, weak or not. */
#include <stddef.h>
const char *dup_fn(void) { return "w1"; }
__attribute__((weak)) const char *weak_fn(void) { return "w1-weak"; }
__attribute__((weak)) int weak_data = 1;
const char *w1_calls_dup(void) { return dup_fn(); }
const char *w1_calls_weak(void) { return weak_fn(); }
int w1_weak_data(void) { return weak_data; }

/* Weak undefined references: one another library of the process defines,
 * one nobody defines. */
extern const char *only_w2(void) __attribute__((weak));
extern void nowhere_at_all(void) __attribute__((weak));
const char *w1_calls_only_w2(void) { return only_w2 ? only_w2() : "(null)"; }
int w1_nowhere_is_null(void) { return nowhere_at_all == NULL; }
