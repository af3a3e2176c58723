/* Looking for lines in captured output. */
#ifndef QB_TESTS_LIB_TEXT_H
#define QB_TESTS_LIB_TEXT_H

/* Non-zero when one line of s contains both a and b (in any order). */
int has_line(const char *s, const char *a, const char *b);

/* The first line of after that is not a line of before, without its
 * '\n', in a static buffer; NULL when every line of after is in before. */
const char *first_new_line(const char *before, const char *after);

#endif
