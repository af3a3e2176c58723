// libcircle: a Shape with its own key function, the exceptions thrown
// across libraries and a thread_local object with a destructor.
#ifndef QB_CXX_CIRCLE_H
#define QB_CXX_CIRCLE_H

#include "shape.h"

struct Circle : Shape {
	double r;
	explicit Circle(double r);
	~Circle() override;
	double area() const override;
	std::string name() const override;
};

Shape *make_circle(double r);
// kind 0: std::out_of_range, 1: ShapeError, 2: InlineError(42), 3: int 7
void circle_throw(int kind);
void circle_rethrow();
std::exception_ptr circle_capture();
bool circle_is_circle(const Shape *s);
const std::type_info &circle_inline_error_type();
const std::type_info &circle_tag_type();
int circle_counter();
int *circle_holder();
int circle_calls();
void circle_tl_touch(int id);

#endif
