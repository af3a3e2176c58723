#include <stdio.h>
const char *dup_fn(void);
const char *weak_fn(void);
const char *w1_calls_dup(void);
const char *w2_calls_dup(void);
const char *w1_calls_weak(void);
const char *w2_calls_weak(void);
int w1_weak_data(void);
int w2_weak_data(void);
const char *w1_calls_only_w2(void);
int w1_nowhere_is_null(void);
extern void not_defined_anywhere(void) __attribute__((weak));

int main(void)
{
	printf("exe dup_fn=%s weak_fn=%s\n", dup_fn(), weak_fn());
	printf("w1: dup=%s weak=%s data=%d\n", w1_calls_dup(), w1_calls_weak(), w1_weak_data());
	printf("w2: dup=%s weak=%s data=%d\n", w2_calls_dup(), w2_calls_weak(), w2_weak_data());
	printf("w1 weak ref to w2: %s\n", w1_calls_only_w2());
	printf("undefined weak is null: lib=%d exe=%d\n", w1_nowhere_is_null(),
	       not_defined_anywhere == NULL);
	return 0;
}
