// libsquare: another Shape, and a catcher of exceptions thrown elsewhere.
#ifndef QB_CXX_SQUARE_H
#define QB_CXX_SQUARE_H

#include "shape.h"

Shape *make_square(double side);
// Calls f(k) and returns the code of the InlineError it throws (-1 for
// any other exception, -2 for none).
int square_catch(void (*f)(int), int k);
const std::type_info &square_inline_error_type();
const std::type_info &square_tag_type();
int square_counter();
int *square_holder();
int square_calls();

#endif
