// Loaded by dlopen(RTLD_NOW | RTLD_LOCAL): its vague symbols must still
// bind to the copies the program already uses.
#include "shape.h"

#include "announce.h"

static Announce announce("plugin");

namespace {
struct Triangle : Shape {
	double b, h;
	Triangle(double base, double height) : b(base), h(height) {}
	double area() const override { return b * h / 2; }
	std::string name() const override { return "triangle"; }
};
}

extern "C" {
Shape *plugin_make() { return new Triangle(3, 4); }
void plugin_throw() { throw ShapeError("from plugin"); }
void plugin_throw_inline() { throw InlineError(5); }
int plugin_counter() { return Counter<int>::bump(); }
const std::type_info *plugin_inline_error_type() { return &typeid(InlineError); }
int *plugin_holder() { return &Holder<int>::value; }
}
