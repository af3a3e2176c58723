#include "square.h"

#include "announce.h"

static Announce announce("square");

namespace {
struct Square : Shape {
	double side;
	explicit Square(double s) : side(s) {}
	double area() const override { return side * side; }
	std::string name() const override { return "square"; }
};
}

Shape *make_square(double side) { return new Square(side); }

int square_catch(void (*f)(int), int k)
{
	try {
		f(k);
	} catch (const InlineError &e) {
		return e.code;
	} catch (...) {
		return -1;
	}
	return -2;
}

const std::type_info &square_inline_error_type() { return typeid(InlineError); }
const std::type_info &square_tag_type() { return typeid(Tag); }
int square_counter() { return Counter<int>::bump(); }
int *square_holder() { return &Holder<int>::value; }
int square_calls() { return ++shared_calls(); }
