#include "circle.h"

#include <cstdio>

#include "announce.h"

static Announce announce("circle");

Circle::Circle(double radius) : r(radius) {}
Circle::~Circle() {}
double Circle::area() const { return 3.14159265358979 * r * r; }
std::string Circle::name() const { return "circle"; }

Shape *make_circle(double r) { return new Circle(r); }

void circle_throw(int kind)
{
	switch (kind) {
	case 0: throw std::out_of_range("circle index");
	case 1: throw ShapeError("circle error");
	case 2: throw InlineError(42);
	default: throw 7;
	}
}

void circle_rethrow()
{
	try {
		circle_throw(0);
	} catch (const std::logic_error &e) {
		std::printf("circle saw %s\n", e.what());
		throw;
	}
}

std::exception_ptr circle_capture()
{
	try {
		throw ShapeError("captured");
	} catch (...) {
		return std::current_exception();
	}
}

bool circle_is_circle(const Shape *s) { return dynamic_cast<const Circle *>(s) != nullptr; }
const std::type_info &circle_inline_error_type() { return typeid(InlineError); }
const std::type_info &circle_tag_type() { return typeid(Tag); }
int circle_counter() { return Counter<int>::bump(); }
int *circle_holder() { return &Holder<int>::value; }
int circle_calls() { return ++shared_calls(); }

namespace {
struct PerThread {
	int id = -1;
	~PerThread()
	{
		if (id >= 0)
			std::printf("thread_local dtor %d\n", id);
	}
};
thread_local PerThread per_thread;
}

void circle_tl_touch(int id)
{
	per_thread.id = id;
}
